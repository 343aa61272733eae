# paths.sh - sourced by run.sh: tests of the call-path exports (export --folded, export
# --format pprof, plot --flame), on hand-made reports and on real ones of paths_prog.c traced
# with TSC_CALLERS=1 and 3.
#
# Optional tools: protoc (Debian protobuf-compiler) with the profile.proto of
# golang-github-google-pprof-dev, to decode the profile; go (Debian golang-go), to read it with
# `go tool pprof`; python3, to parse them. A missing one is a SKIP with a note.

PROTOC=${PROTOC-$(command -v protoc 2>/dev/null)}
GO=${GO-$(command -v go 2>/dev/null)}
PPROF_PROTO=$(dpkg -L golang-github-google-pprof-dev 2>/dev/null | grep '/proto/profile\.proto$' |
	head -n 1)

# folded_sums FILE...: "function calls cycles" per function name over the reports, sorted.
report_sums() {
	jq -r '.functions[] | "\(.name) \(.calls) \(.cycles.total)"' "$@" |
		awk '{ c[$1] += $2; t[$1] += $3 } END { for (f in c) print f, c[f], t[f] }' | sort
}

# folded_by_leaf FILE: "function weight" per last frame of the folded stacks, sorted.
folded_by_leaf() {
	awk '{ w = $NF; sub(/ [0-9]+$/, ""); n = split($0, f, ";"); s[f[n]] += w }
		END { for (k in s) print k, s[k] }' "$1" | sort
}

# by_leaf_expected COLUMN FILE...: "function value" from report_sums, without zeros.
by_leaf_expected() {
	local col=$1
	shift
	report_sums "$@" | awk -v c="$col" '$c != 0 { print $1, $c }' | sort
}

# pprof_decode GZ OUT: the profile as text, then its totals as JSON in OUT.json.
pprof_decode() {
	gzip -dc "$1" >"$2.pb" 2>"$2.err" &&
		"$PROTOC" --decode=perftools.profiles.Profile -I"$(dirname "$PPROF_PROTO")" \
			"$PPROF_PROTO" <"$2.pb" >"$2.txt" 2>"$2.err" &&
		"$PY" "$HERE/pprof_totals.py" "$2.txt" >"$2.json" 2>"$2.err"
}

paths_fixtures() {
	local d=$WORK/in
	# Sites that leave 10 calls and 266 cycles to no site: one more stack carries them.
	jq '.functions[1].callers[1].calls = 390 | .functions[1].callers[1].cycles.total = 15000' \
		"$d/callers.json" >"$d/callers-rest.json"
	# Self time as a later report would carry it: per site and per function.
	jq '.functions |= map(.self = (.cycles | .total = ((.total / 2) | floor))
		| if .callers then .callers |= map(.self = {total: ((.cycles.total / 3) | floor)})
		  else . end)' "$d/callers.json" >"$d/callers-self.json"
	jq '.functions[1].name = "<a&b> \"c\";d" | .functions[1].names = ["<a&b> \"c\";d"]' \
		"$d/callers.json" >"$d/callers-xml.json"
}

paths_real() {
	local p=$WORK/paths n
	mkdir -p "$p"
	${CC:-gcc} -O1 -g -fno-inline -fno-optimize-sibling-calls -o "$p/nest" \
		"$HERE/paths_prog.c" 2>"$p/cc.err" || return 1
	for n in 1 3; do
		(cd "$p" && TSC_CALLERS=$n traced -f lex,parse_a,parse_b -o "$p/n$n.json" --json \
			-- ./nest) >"$p/out.$n" 2>"$p/err.$n" || return 1
		[ -s "$p/n$n.json" ] || return 1
	done
}

t_paths() {
	local why p=$WORK/paths have_real=1 r f
	paths_fixtures
	golden paths/folded-golden folded-callers.txt export --folded "$WORK/in/callers.json" \
		"$WORK/in/callers-rest.json"
	golden paths/folded-calls-golden folded-callers-calls.txt export --folded --weight calls \
		"$WORK/in/callers-rest.json" mono.json
	mkdir -p "$p"
	for r in folded-lines folded-totals folded-self pprof-totals pprof-go flame; do
		selected "paths/$r" && break
	done
	selected "paths/$r" && { paths_real || have_real=0; }

	# The exact stacks of paths_prog: frames outermost first, the traced function last.
	if selected paths/folded-lines; then
		if [ $have_real = 0 ]; then
			skip paths/folded-lines "paths_prog.c did not build or run: $(cat "$p"/*.err 2>/dev/null | head -c 200)"
		else
			why=""
			tsc export --folded --weight calls "$p/n1.json"
			printf '%s\n' 'main;lex 7' 'main;parse_a 3' 'main;parse_b 2' 'parse_a;lex 300' \
				'parse_b;lex 200' >"$p/lines.exp"
			[ $RC -eq 0 ] || why="status $RC: $(cat "$WORK/err")"
			cmp -s "$WORK/out" "$p/lines.exp" || why="$why stacks: $(tr '\n' '|' <"$WORK/out")"
			# Deeper paths go on below main, three frames each; the shim's trampoline,
			# which the unwinder meets above an inline-hooked parse_a, is not one of the
			# program's frames and takes none of the three.
			tsc export --folded --weight calls "$p/n3.json"
			grep -q ';main;lex 7$' "$WORK/out" &&
				grep -Eq '^[^;]+;main;parse_a;lex 300$' "$WORK/out" &&
				grep -Eq '^[^;]+;main;parse_b;lex 200$' "$WORK/out" && ! grep -q 'tt_' "$WORK/out" &&
				! grep -Evq '^[^;]+;[^;]+;[^;]+;[^;]+$' "$WORK/out" ||
				why="$why TSC_CALLERS=3 stacks: $(tr '\n' '|' <"$WORK/out")"
			verdict paths/folded-lines "$why"
		fi
	fi

	# Weights add up to the reports' calls and cycles, per function, exactly.
	if selected paths/folded-totals; then
		if [ $have_real = 0 ]; then
			skip paths/folded-totals "paths_prog.c did not build or run"
		else
			why=""
			for r in "$p/n1.json" "$p/n3.json" "$p/n1.json $p/n3.json" \
				"$WORK/in/callers.json" "$WORK/in/callers-rest.json"; do
				# shellcheck disable=SC2086	# r may name two files
				tsc export --folded --weight calls $r
				folded_by_leaf "$WORK/out" >"$p/calls.got"
				# shellcheck disable=SC2086
				tsc export --folded $r
				folded_by_leaf "$WORK/out" >"$p/cycles.got"
				# shellcheck disable=SC2086
				by_leaf_expected 2 $r >"$p/calls.exp"
				# shellcheck disable=SC2086
				by_leaf_expected 3 $r >"$p/cycles.exp"
				cmp -s "$p/calls.got" "$p/calls.exp" ||
					why="$why $r calls: $(tr '\n' ' ' <"$p/calls.got") vs $(tr '\n' ' ' <"$p/calls.exp")"
				cmp -s "$p/cycles.got" "$p/cycles.exp" ||
					why="$why $r cycles: $(tr '\n' ' ' <"$p/cycles.got") vs $(tr '\n' ' ' <"$p/cycles.exp")"
			done
			verdict paths/folded-totals "$why"
		fi
	fi

	# --weight self: the sites' self totals, plus what the function has beyond them.
	if selected paths/folded-self; then
		why=""
		tsc export --folded --weight self "$WORK/in/callers-self.json"
		folded_by_leaf "$WORK/out" >"$p/self.got"
		jq -r '.functions[] | select(.self.total > 0) | "\(.name) \(.self.total)"' \
			"$WORK/in/callers-self.json" | sort >"$p/self.exp"
		[ $RC -eq 0 ] || why="status $RC: $(cat "$WORK/err")"
		cmp -s "$p/self.got" "$p/self.exp" ||
			why="$why got $(tr '\n' ' ' <"$p/self.got"), expected $(tr '\n' ' ' <"$p/self.exp")"
		verdict paths/folded-self "$why"
	fi
	bad paths/self-missing "has no self time" export --folded --weight self basic.json
	bad paths/weight-unknown "expected calls, cycles or self" export --folded --weight wall basic.json
	bad paths/two-formats "choose one" export --folded --format pprof -o "$WORK/outdir/p" basic.json
	bad paths/pprof-needs-o "needs -o OUT" export --format pprof basic.json
	bad paths/pprof-weight "--weight is for --folded" \
		export --format pprof --weight calls -o "$WORK/outdir/p" basic.json
	bad paths/units "their times do not add up" export --folded basic.json mono.json
	bad paths/folded-no-report "no report given" export --folded
	bad paths/flame-no-output "-o OUT.svg is required" plot --flame basic.json
	bad paths/flame-weight "expected calls, cycles or self" \
		plot --flame --weight x -o "$WORK/outdir/f.svg" basic.json

	# The profile decodes against the published profile.proto and its totals are the reports'.
	if selected paths/pprof-totals; then
		if [ -z "$PROTOC" ] || [ -z "$PPROF_PROTO" ] || [ -z "$PY" ]; then
			skip paths/pprof-totals "needs protoc (protobuf-compiler), profile.proto (golang-github-google-pprof-dev) and python3"
		else
			why=""
			for r in "$p/n3.json" "$p/n1.json $p/n3.json" "$WORK/in/callers-rest.json" \
				mono.json; do
				[ $have_real = 0 ] && [ "${r#"$p"}" != "$r" ] && continue
				# shellcheck disable=SC2086
				tsc export --format pprof -o "$p/prof.pb.gz" $r
				if [ $RC -ne 0 ]; then
					why="$why $r: status $RC: $(cat "$WORK/err")"
					continue
				fi
				if ! pprof_decode "$p/prof.pb.gz" "$p/prof"; then
					why="$why $r: does not decode: $(head -c 200 "$p/prof.err")"
					continue
				fi
				# shellcheck disable=SC2086
				(cd "$DATA" && report_sums $r) >"$p/sums"
				jq -r '.by_function as $b | [$b.calls | keys[]] | .[] as $f
					| "\($f) \($b.calls[$f]) \(($b.cycles // $b.time)[$f])"' \
					"$p/prof.json" | sort >"$p/sums.got"
				awk '$2 != 0 || $3 != 0' "$p/sums" >"$p/sums.exp"
				cmp -s "$p/sums.got" "$p/sums.exp" ||
					why="$why $r: $(tr '\n' ' ' <"$p/sums.got") vs $(tr '\n' ' ' <"$p/sums.exp")"
				jq -e '.strings0 == ""' "$p/prof.json" >/dev/null ||
					why="$why $r: string_table[0] is not empty"
				if [ "$r" = mono.json ]; then
					jq -e '.types == ["calls/count", "time/nanoseconds"] and .default == "time"' \
						"$p/prof.json" >/dev/null || why="$why $r: types $(jq -c .types "$p/prof.json")"
				else
					jq -e '.types == ["calls/count", "cycles/count", "time/nanoseconds"]
						and .default == "cycles"' "$p/prof.json" >/dev/null ||
						why="$why $r: types $(jq -c .types "$p/prof.json")"
				fi
			done
			# The same input gives the same bytes.
			tsc export --format pprof -o "$p/a.pb.gz" "$WORK/in/callers-rest.json" base.json
			tsc export --format pprof -o "$p/b.pb.gz" "$WORK/in/callers-rest.json" base.json
			[ -s "$p/a.pb.gz" ] && cmp -s "$p/a.pb.gz" "$p/b.pb.gz" || why="$why two runs differ"
			verdict paths/pprof-totals "$why"
		fi
	fi

	# go tool pprof reads it: its total for calls and cycles is the report's.
	if selected paths/pprof-go; then
		if [ -z "$GO" ]; then
			skip paths/pprof-go "go is not installed (apt-get install golang-go)"
		elif [ $have_real = 0 ]; then
			skip paths/pprof-go "paths_prog.c did not build or run"
		else
			why=""
			tsc export --format pprof -o "$p/go.pb.gz" "$p/n3.json"
			for f in calls cycles; do
				HOME=$p timeout 120 "$GO" tool pprof -top -sample_index=$f "$p/go.pb.gz" \
					>"$p/go.$f" 2>&1
				got=$(sed -n 's/.*Total samples = \([0-9]*\).*/\1/p' "$p/go.$f")
				[ $f = calls ] && exp=$(jq '[.functions[].calls] | add' "$p/n3.json")
				[ $f = cycles ] && exp=$(jq '[.functions[].cycles.total] | add' "$p/n3.json")
				[ "$got" = "$exp" ] || why="$why $f: total '$got', expected $exp: $(head -c 200 "$p/go.$f")"
			done
			verdict paths/pprof-go "$why"
		fi
	fi

	# The flame graph: XML, frames on their callers, the root the total, the same bytes twice.
	if selected paths/flame; then
		if [ -z "$PY" ]; then
			skip paths/flame "python3 is not installed"
		else
			why=""
			for r in "$p/n3.json" "$WORK/in/callers-rest.json" "$WORK/in/callers-xml.json"; do
				[ $have_real = 0 ] && [ "$r" = "$p/n3.json" ] && continue
				for f in calls cycles; do
					tsc plot --flame --weight $f -o "$p/f.svg" "$r"
					if [ $RC -ne 0 ]; then
						why="$why $r: status $RC: $(cat "$WORK/err")"
						continue
					fi
					got=$("$PY" "$HERE/flame_check.py" "$p/f.svg" 16 2>&1) ||
						{ why="$why $r --weight $f: $got"; continue; }
					[ $f = calls ] && exp=$(jq '[.functions[].calls] | add' "$r")
					[ $f = cycles ] && exp=$(jq '[.functions[].cycles.total] | add' "$r")
					case $got in
					"all ($exp "*) ;;
					*) why="$why $r: the root says '$got', the total is $exp" ;;
					esac
				done
			done
			tsc plot --flame -o "$p/a.svg" "$WORK/in/callers-rest.json"
			tsc plot --flame -o "$p/b.svg" "$WORK/in/callers-rest.json"
			[ -s "$p/a.svg" ] && cmp -s "$p/a.svg" "$p/b.svg" || why="$why two runs differ"
			verdict paths/flame "$why"
		fi
	fi
}
