# cases_sites.sh - sourced by run.sh: `merge` of call sites (TSC_CALLERS) in real reports of
# prog/sitesprog.c, whose sites and their counts are known: per site, counts are the sums of
# the inputs', the histogram the union of theirs and the percentiles read from it; sites of
# another build of the program stay apart; a run without sites counts as one pseudo-site;
# weighted sites (TSC_SAMPLE, TSC_BUDGET) add their weights; and report, diff and the
# exports read the merged sites as they read the inputs'.
# shellcheck shell=bash disable=SC2016

# The reference of one function's merged sites, from the inputs (jq -s): per site name,
# counts summed, min/max the extremes, the union of the buckets and the shim's nearest-rank
# percentiles from it (the high edge of the bucket of rank ceil(p n / 100), clamped).
SITES_REF='
def pct($b; $p; $lo; $hi):
	($b | map(.[2]) | add) as $n
	| ([(($p * $n + 99) / 100 | floor), 1] | max) as $r
	| (reduce $b[] as $x ({seen: 0, v: null};
		if .v == null then (.seen += $x[2]) | (if .seen >= $r then .v = $x[1] else . end)
		else . end) | .v // $hi)
	| if . < $lo then $lo elif . > $hi then $hi else . end;
[.[] | .functions[] | select(.name == "work") | .callers[]] | group_by(.site)
| map((map(.histogram.buckets // []) | add | group_by(.[0:2])
	| map([.[0][0], .[0][1], (map(.[2]) | add)])) as $b
	| (map(select(.timed > 0) | .cycles.min) | min) as $min
	| (map(select(.timed > 0) | .cycles.max) | max) as $max
	| {site: .[0].site, calls: (map(.calls) | add), timed: (map(.timed) | add),
	   unwound: (map(.unwound) | add), migrated: (map(.migrated) | add),
	   dropped: (map(.dropped) | add), self: (map(.self.total) | add),
	   min: $min, max: $max, total: (map(.cycles.total) | add), buckets: $b,
	   median: pct($b; 50; $min; $max), p90: pct($b; 90; $min; $max),
	   p99: pct($b; 99; $min; $max)})'

# The same figures of the merged report's sites.
SITES_GOT='[.functions[] | select(.name == "work") | .callers[]
	| {site, calls, timed, unwound, migrated, dropped, self: .self.total,
	   min: .cycles.min, max: .cycles.max, total: .cycles.total, buckets: .histogram.buckets,
	   median: .cycles.median, p90: .cycles.p90, p99: .cycles.p99}] | sort_by(.site)'

# sites_schema FILE...: nothing when every FILE is valid against the schema (or no
# python3-jsonschema), else what is wrong.
sites_schema() {
	if [ -n "$PY" ] && "$PY" -c 'import jsonschema' 2>/dev/null; then
		"$PY" "$TOP/tests/report-schema.py" "$TOP/docs/report.schema.json" "$@" 2>&1 |
			head -c 300
	fi
}

# prog/sitesprog.c and libwork.c in $WORK/sites, and a second build of the program (same
# code, another build ID) as sitesprog2 under the same name in $WORK/sites/other.
build_sitesprog() {
	local d=$WORK/sites cc=${CC:-cc} flags="-O2 -g -fno-ipa-icf -fno-optimize-sibling-calls"
	mkdir -p "$d/other"
	# shellcheck disable=SC2086
	"$cc" -O2 -shared -fPIC -o "$d/libclwork.so" "$HERE/prog/libwork.c" >"$d/cc.log" 2>&1 &&
		"$cc" $flags -o "$d/sitesprog" "$HERE/prog/sitesprog.c" -L"$d" -lclwork \
			-Wl,-rpath,"$d" -Wl,--build-id=0x5117e5a1 >>"$d/cc.log" 2>&1 &&
		"$cc" $flags -o "$d/other/sitesprog" "$HERE/prog/sitesprog.c" -L"$d" -lclwork \
			-Wl,-rpath,"$d" -Wl,--build-id=0x5117e5a2 >>"$d/cc.log" 2>&1
}

# sites_run NAME ENV... -- PROG A B: a traced run of PROG (1,000 ticks a call) into NAME.json,
# with the variables ENV (NAME=VALUE) set.
sites_run() {
	local name=$1 d=$WORK/sites
	shift
	local envs=()
	while [ "$1" != -- ]; do
		envs+=("$1")
		shift
	done
	shift
	(cd "$d" && export "${envs[@]}" && traced -f work -o "$d/$name.json" --json -- "$1" "$2" \
		"$3" 1000) >"$d/$name.out" 2>&1
}

# Hand-computed: two reports of one program, its site "p+0x10" at address 0x1010 of app
# (named "app+0x1010" in the second, stripped: one site by its location), buckets
# [10,10,3] [20,20,1] and [10,10,1] [30,30,4]. Union [10,10,4] [20,20,1] [30,30,4], 9 calls:
# median rank 5 = 20, p90 and p99 rank 9 = 30; total 50 + 130 = 180, mean 20. The second's
# site at 0x1020 stays apart, as it was (its input, from before p99.9, has none). The
# merged site's p99.9 and p99.99 are rank 9 too: 30.
t_merge_sites_known() {
	local d=$WORK/sites-known why=""
	selected merge-sites/known || return 0
	mkdir -p "$d"
	jq '.objects = [{"path": "/opt/app", "build_id": "ab12"}]
		| .functions[1].callers = [{"site": "p+0x10 (app)", "frames": ["p+0x10 (app)"],
		    "locations": [{"object": 0, "address": "0x1010"}], "calls": 4, "timed": 4,
		    "unwound": 0, "migrated": 0, "dropped": 0,
		    "cycles": {"min": 10, "median": 10, "p90": 20, "p99": 20, "max": 20,
			       "mean": 12.5, "total": 50},
		    "histogram": {"of": "cycles", "buckets": [[10, 10, 3], [20, 20, 1]]}}]' \
		"$DATA/basic.json" >"$d/k1.json"
	jq '.pid = 4343 | .objects = [{"path": "/tmp/x", "build_id": ""},
			{"path": "/opt/app", "build_id": "ab12"}]
		| .functions[1].callers = [{"site": "app+0x1010", "frames": ["app+0x1010"],
		    "locations": [{"object": 1, "address": "0x1010"}], "calls": 6, "timed": 5,
		    "unwound": 0, "migrated": 0, "dropped": 1,
		    "cycles": {"min": 10, "median": 30, "p90": 30, "p99": 30, "max": 30,
			       "mean": 26, "total": 130},
		    "histogram": {"of": "cycles", "buckets": [[10, 10, 1], [30, 30, 4]]}},
		  {"site": "app+0x1020", "frames": ["app+0x1020"],
		    "locations": [{"object": 1, "address": "0x1020"}], "calls": 1, "timed": 1,
		    "unwound": 0, "migrated": 0, "dropped": 0,
		    "cycles": {"min": 7, "median": 7, "p90": 7, "p99": 7, "max": 7,
			       "mean": 7, "total": 7},
		    "histogram": {"of": "cycles", "buckets": [[7, 7, 1]]}}]' \
		"$DATA/basic.json" >"$d/k2.json"
	tsc merge -o "$d/k.json" "$d/k1.json" "$d/k2.json"
	if [ $RC -ne 0 ]; then
		why="status $RC: $(cat "$WORK/err")"
	elif ! jq -e '.objects == [{"path": "/opt/app", "build_id": "ab12"}]
		and .functions[1].callers == [
		  {"site": "p+0x10 (app)", "frames": ["p+0x10 (app)"],
		   "locations": [{"object": 0, "address": "0x1010"}], "calls": 10, "timed": 9,
		   "unwound": 0, "migrated": 0, "dropped": 1,
		   "cycles": {"min": 10, "median": 20, "p90": 30, "p99": 30, "p999": 30,
			      "p9999": 30, "max": 30, "mean": 20, "total": 180},
		   "histogram": {"of": "cycles", "buckets": [[10, 10, 4], [20, 20, 1], [30, 30, 4]]}},
		  {"site": "app+0x1020", "frames": ["app+0x1020"],
		   "locations": [{"object": 0, "address": "0x1020"}], "calls": 1, "timed": 1,
		   "unwound": 0, "migrated": 0, "dropped": 0,
		   "cycles": {"min": 7, "median": 7, "p90": 7, "p99": 7, "max": 7,
			      "mean": 7, "total": 7},
		   "histogram": {"of": "cycles", "buckets": [[7, 7, 1]]}}]' "$d/k.json" >/dev/null; then
		why="$(jq -c '[.objects, .functions[1].callers]' "$d/k.json")"
	fi
	verdict merge-sites/known "$why"
}

t_merge_sites() {
	local d=$WORK/sites why="" f
	t_merge_sites_known
	selected 'merge-sites/*' || return 0
	if ! build_sitesprog; then
		fail merge-sites/build "cannot build prog/sitesprog.c: $(head -c 300 "$d/cc.log")"
		return 0
	fi
	sites_run a TSC_CALLERS=1 -- ./sitesprog 100 200 &&
		sites_run b TSC_CALLERS=1 -- ./sitesprog 300 50 &&
		sites_run c TSC_CALLERS=1 -- ./sitesprog 7 0 &&
		sites_run none NO_CALLERS=1 -- ./sitesprog 5 6 &&
		sites_run other TSC_CALLERS=1 -- other/sitesprog 11 13 &&
		sites_run s4 TSC_CALLERS=1 TSC_SAMPLE=4 -- ./sitesprog 400 300 &&
		sites_run budget TSC_CALLERS=1 TSC_BUDGET=2% -- ./sitesprog 3000 2000 ||
		why="a traced run failed: $(cat "$d"/*.out | head -c 300)"
	# Each run's sites are the program's: site_a and site_b, as many calls as it made.
	[ -z "$why" ] && ! jq -se 'map([.functions[0].callers[] | [(.frames[0] | split("+")[0]),
		.calls]] | sort) == [[["site_a", 100], ["site_b", 200]], [["site_a", 300],
		["site_b", 50]], [["site_a", 7]], [["site_a", 11], ["site_b", 13]]]' \
		"$d/a.json" "$d/b.json" "$d/c.json" "$d/other.json" >/dev/null 2>&1 &&
		why="the runs' sites are not the program's: $(jq -c '[.functions[0].callers[]
			| {site, calls}]' "$d/a.json" "$d/b.json" "$d/c.json" | tr '\n' ' ')"
	if [ -n "$why" ]; then
		fail merge-sites/record "$why"
		return 0
	fi

	# Three runs: per site the sums, extremes and union of the inputs', percentiles from it.
	if selected merge-sites/sums; then
		why=""
		tsc merge -o "$d/abc.json" "$d/a.json" "$d/b.json" "$d/c.json"
		if [ $RC -ne 0 ] || [ -s "$WORK/err" ]; then
			why="status $RC: $(cat "$WORK/err")"
		else
			jq -s "$SITES_REF" "$d/a.json" "$d/b.json" "$d/c.json" >"$d/abc.ref"
			jq "$SITES_GOT" "$d/abc.json" >"$d/abc.got"
			same_json "$d/abc.got" "$d/abc.ref" ||
				why="differs from the inputs' sums: $(json_diff "$d/abc.ref" "$d/abc.got")"
			jq -e '.functions[0] | (.callers | map(.calls)) == [407, 250]
				and ([.callers[].calls] | add) == .calls
				and ([.callers[].timed] | add) == .timed
				and ([.callers[].histogram.buckets[][2]] | add) == .timed
				and all(.callers[]; .timed as $t
					| (.histogram.buckets | map(.[2]) | add) == $t)
				and all(.callers[]; ((.cycles.mean - .cycles.total
					/ (.histogram.buckets | map(.[2]) | add)) | fabs) <= 0.0501)' \
				"$d/abc.json" >/dev/null ||
				why="${why:+$why; }sites do not add up: $(jq -c '.functions[0]
					| {calls, timed, callers: [.callers[] | {calls, timed}]}' "$d/abc.json")"
			jq -e '.objects | length == 1' "$d/abc.json" >/dev/null ||
				why="${why:+$why; }objects: $(jq -c .objects "$d/abc.json")"
			f=$(sites_schema "$d/abc.json")
			[ -z "$f" ] || why="${why:+$why; }schema: $f"
		fi
		verdict merge-sites/sums "$why"
	fi

	# One report merged alone keeps its sites as they were; merging merges gives the same.
	if selected merge-sites/identity-again; then
		why=""
		tsc merge -o "$d/a1.json" "$d/a.json"
		same_json <(jq '.functions[0].callers' "$d/a1.json") \
			<(jq '.functions[0].callers' "$d/a.json") ||
			why="merge of one report changed its sites"
		tsc merge -o "$d/ab.json" "$d/a.json" "$d/b.json"
		tsc merge -o "$d/abc2.json" "$d/ab.json" "$d/c.json"
		tsc merge -o "$d/abc1.json" "$d/a.json" "$d/b.json" "$d/c.json"
		same_json <(jq .functions "$d/abc1.json") <(jq .functions "$d/abc2.json") ||
			why="${why:+$why; }merge(merge(a, b), c) != merge(a, b, c)"
		verdict merge-sites/identity-again "$why"
	fi

	# Another build of the program (same site names, another build ID): its sites stay apart.
	if selected merge-sites/other-build; then
		why=""
		tsc merge -o "$d/ao.json" "$d/a.json" "$d/other.json"
		jq -e '(.objects | map(.build_id) | sort) == ["5117e5a1", "5117e5a2"]
			and (.functions[0].callers | map([(.frames[0] | split("+")[0]), .calls]))
			== [["site_b", 200], ["site_a", 100], ["site_b", 13], ["site_a", 11]]
			and ([.functions[0].callers[].locations[0].object] | unique | length) == 2' \
			"$d/ao.json" >/dev/null ||
			why="sites merged across builds: $(jq -c '[.objects, [.functions[0].callers[]
				| [.site, .calls, .locations]]]' "$d/ao.json")"
		f=$(sites_schema "$d/ao.json")
		[ -z "$f" ] || why="${why:+$why; }schema: $f"
		verdict merge-sites/other-build "$why"
	fi

	# A run without TSC_CALLERS: its calls in one pseudo-site with its distribution, so the
	# sites still add up to the function.
	if selected merge-sites/run-without-sites; then
		why=""
		tsc merge -o "$d/an.json" "$d/a.json" "$d/none.json"
		jq -e --slurpfile n "$d/none.json" '.functions[0] | ([.callers[].calls] | add) == .calls
			and (.callers | map(select(.site == "(no sites: a run without TSC_CALLERS)"))
			| length == 1 and .[0].calls == 11 and .[0].frames == []
			and .[0].timed == $n[0].functions[0].timed
			and .[0].cycles == $n[0].functions[0].cycles
			and .[0].histogram == $n[0].functions[0].histogram)' "$d/an.json" >/dev/null ||
			why="$(jq -c '.functions[0] | {calls, callers: [.callers[] | {site, calls,
				timed}]}' "$d/an.json")"
		f=$(sites_schema "$d/an.json")
		[ -z "$f" ] || why="${why:+$why; }schema: $f"
		verdict merge-sites/run-without-sites "$why"
	fi

	# TSC_SAMPLE=4 (each timed call weighs 4), a full run (weight 1) and a budget's: per site
	# weights, squares and weighted totals are sums, the mean their quotient.
	if selected merge-sites/weighted; then
		why=""
		tsc merge -o "$d/w.json" "$d/s4.json" "$d/a.json" "$d/budget.json"
		jq -s '[.[] | .functions[0].callers[]] | group_by(.site) | map({site: .[0].site,
			calls: (map(.calls) | add), skipped: (map(.skipped // 0) | add),
			weights: (map(.weighted.weights // .timed) | add),
			weights_sq: (map(.weighted.weights_sq // .timed) | add),
			total: (map(.weighted.total // .cycles.total) | add),
			wbuckets: (map(.weighted_histogram.buckets // .histogram.buckets) | add
				| group_by(.[0:2]) | map([.[0][0], .[0][1], (map(.[2]) | add)]))})' \
			"$d/s4.json" "$d/a.json" "$d/budget.json" >"$d/w.ref"
		jq '[.functions[0].callers[] | {site, calls, skipped, weights: .weighted.weights,
			weights_sq: .weighted.weights_sq, total: .weighted.total,
			wbuckets: .weighted_histogram.buckets}] | sort_by(.site)' "$d/w.json" >"$d/w.got"
		if [ $RC -ne 0 ]; then
			why="status $RC: $(cat "$WORK/err")"
		elif ! same_json "$d/w.got" "$d/w.ref"; then
			why="differs from the inputs' sums: $(json_diff "$d/w.ref" "$d/w.got")"
		elif ! jq -e 'all(.functions[0].callers[]; ((.cycles.mean - .weighted.total
				/ .weighted.weights) | fabs) <= 0.0501)' "$d/w.json" >/dev/null; then
			why="a weighted mean is not total / weights"
		fi
		# Weighted self, as a function's: summed when every input has it (both sampled),
		# absent when one does not (the full run above).
		tsc merge -o "$d/ws.json" "$d/s4.json" "$d/budget.json"
		jq -s '[.[] | .functions[0].callers[] | select(.self_weighted)] | group_by(.site)
			| map({site: .[0].site, sw: (map(.self_weighted.total) | add)})' \
			"$d/s4.json" "$d/budget.json" >"$d/ws.ref"
		jq '[.functions[0].callers[] | select(.self_weighted)
			| {site, sw: .self_weighted.total}] | sort_by(.site)' "$d/ws.json" >"$d/ws.got"
		if [ -z "$why" ] && ! jq -e 'length > 0' "$d/ws.ref" >/dev/null; then
			why="no site of the sampled runs has self_weighted"
		elif [ -z "$why" ] && ! same_json "$d/ws.got" "$d/ws.ref"; then
			why="self_weighted differs from the inputs' sums: $(json_diff "$d/ws.ref" "$d/ws.got")"
		elif [ -z "$why" ] && jq -e '[.functions[0].callers[] | select(.self_weighted)]
				| length > 0' "$d/w.json" >/dev/null; then
			why="self_weighted merged with a run that has none"
		fi
		f=$(sites_schema "$d/w.json" "$d/s4.json" "$d/budget.json")
		[ -z "$f" ] || why="${why:+$why; }schema: $f"
		verdict merge-sites/weighted "$why"
	fi

	# report, diff and the exports read merged sites as the inputs': report --callers lists
	# the summed rows; folded stacks and pprof totals of the merge are those of the inputs.
	if selected merge-sites/readers; then
		why=""
		tsc report --callers "$d/abc.json"
		grep -Eq '^ +407 +[0-9]+ .* site_a\+' "$WORK/out" &&
			grep -Eq '^ +250 +[0-9]+ .* site_b\+' "$WORK/out" ||
			why="report --callers: $(grep -A3 '^callers of work' "$WORK/out" | tr '\n' '|')"
		tsc diff "$d/a.json" "$d/abc.json"
		[ $RC -le 1 ] || why="${why:+$why; }diff: status $RC: $(cat "$WORK/err")"
		for f in cycles calls self; do
			tsc export --folded --weight $f "$d/abc.json"
			cp "$WORK/out" "$d/folded.merged"
			tsc export --folded --weight $f "$d/a.json" "$d/b.json" "$d/c.json"
			cmp -s "$WORK/out" "$d/folded.merged" ||
				why="${why:+$why; }folded ($f): $(tr '\n' ' ' <"$d/folded.merged") vs $(tr '\n' ' ' <"$WORK/out")"
		done
		grep -q '^site_a;work ' "$d/folded.merged" ||
			why="${why:+$why; }no site_a stack: $(cat "$d/folded.merged")"
		if [ -n "$PROTOC" ] && [ -n "$PPROF_PROTO" ] && [ -n "$PY" ]; then
			tsc export --format pprof -o "$d/m.pb.gz" "$d/abc.json"
			tsc export --format pprof -o "$d/i.pb.gz" "$d/a.json" "$d/b.json" "$d/c.json"
			if pprof_decode "$d/m.pb.gz" "$d/m" && pprof_decode "$d/i.pb.gz" "$d/i"; then
				# ns differ: each run's at its own TSC rate, the merge's at the first's
				[ "$(jq -c '.total | del(.time)' "$d/m.json")" = \
					"$(jq -c '.total | del(.time)' "$d/i.json")" ] ||
					why="${why:+$why; }pprof totals: $(jq -c .total "$d/m.json") vs $(jq -c .total "$d/i.json")"
				grep -q '"site_a"' "$d/m.txt" && grep -q '"site_b"' "$d/m.txt" ||
					why="${why:+$why; }pprof: no site_a/site_b functions"
			else
				why="${why:+$why; }pprof does not decode: $(head -c 200 "$d/m.err" "$d/i.err")"
			fi
		fi
		tsc export --format prometheus "$d/abc.json"
		[ $RC -eq 0 ] && grep -q '^tsctrace_calls_total{function="work".* 657$' "$WORK/out" ||
			why="${why:+$why; }prometheus: $(grep calls_total "$WORK/out" | head -c 200)"
		verdict merge-sites/readers "$why"
	fi

	# Sites from before site histograms: alone they are kept as they were; sharing a site with
	# another input they cannot get percentiles, and the function's callers are left out.
	if selected merge-sites/old-sites; then
		why=""
		tsc merge -o "$d/old1.json" "$WORK/in/callers.json"
		same_json <(jq .functions[1].callers "$d/old1.json") \
			<(jq '.functions[1].callers | map(.frames //= [.site] | . + {timed: (.timed // .calls),
				unwound: (.unwound // 0), migrated: (.migrated // 0),
				dropped: (.dropped // 0)})' "$WORK/in/callers.json") ||
			why="alone: $(jq -c .functions[1].callers "$d/old1.json")"
		tsc merge --allow-duplicates -o "$d/old2.json" "$WORK/in/callers.json" \
			"$WORK/in/callers.json"
		jq -e '(.functions[1] | has("callers") | not)
			and (.warnings | any(test("call sites have no histograms")))' \
			"$d/old2.json" >/dev/null ||
			why="${why:+$why; }twice: $(jq -c '[.warnings, .functions[1].callers]' "$d/old2.json")"
		verdict merge-sites/old-sites "$why"
	fi
}
