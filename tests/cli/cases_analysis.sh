# cases_analysis.sh - sourced by run.sh: diff over runs of a real program, merge's duplicate
# check and its "merged" list, the report format taken from -o's name, the plot's count axis,
# the text histogram's edges and the rows of functions never called.
# shellcheck shell=bash disable=SC2016

# The program of the diff tests (prog/): work(TICKS) busy-waits TICKS TSC ticks, CALLS times.
# Built with the compiler make uses; "" when it cannot be built (the tests then fail).
build_workprog() {
	local d=$WORK/workprog cc=${CC:-cc}
	[ -x "$d/workprog" ] && return 0
	mkdir -p "$d"
	"$cc" -O2 -shared -fPIC -o "$d/libclwork.so" "$HERE/prog/libwork.c" >"$d/cc.log" 2>&1 &&
		"$cc" -O2 -o "$d/workprog" "$HERE/prog/workprog.c" -L"$d" -lclwork \
			-Wl,-rpath,"$d" >>"$d/cc.log" 2>&1
}

# Three runs of the program as it is (a, b) and three with work() three times slower (c),
# interleaved a b c a b c a b c so that whatever the machine does meanwhile falls on all
# three. Each call lasts its TICKS in the TSC's own ticks, so a run's median is TICKS plus one
# loop iteration and at most one histogram bucket (1/128 of an octave) apart from another
# run's, whatever the machine's load: the runs' spread is far below the 5% threshold, by
# construction. 2,000 calls of 20,000 ticks: some 20 ms a run.
t_diff_runs() {
	local d=$WORK/workprog why="" i s rc
	selected 'diff-runs/*' || return 0
	if ! build_workprog; then
		fail diff-runs/build "cannot build prog/workprog.c: $(head -c 300 "$d/cc.log")"
		return 0
	fi
	for i in 1 2 3; do
		for s in a b c; do
			(cd "$d" && traced -f work -o "$d/$s$i.json" -- ./workprog 2000 \
				"$([ $s = c ] && echo 60000 || echo 20000)") >"$d/out.$s$i" 2>&1 ||
				why="run $s$i failed: $(head -c 200 "$d/out.$s$i")"
		done
	done
	if [ -n "$why" ]; then
		fail diff-runs/record "$why"
		return 0
	fi
	if selected diff-runs/no-change; then
		why=""
		(cd "$d" && "$T" diff --fail-on-slower a1.json a2.json a3.json -- b1.json b2.json \
			b3.json) >"$d/same.txt" 2>&1
		rc=$?
		[ $rc -eq 0 ] || why="exit status $rc"
		grep -Eq '^ +median .* no change$' "$d/same.txt" ||
			why="${why:+$why; }work's median is not 'no change': $(grep -E '^ +median' "$d/same.txt")"
		grep -qx '1 no change' "$d/same.txt" || why="${why:+$why; }summary: $(tail -1 "$d/same.txt")"
		verdict diff-runs/no-change "$why"
	fi
	if selected diff-runs/slower; then
		why=""
		(cd "$d" && "$T" diff --fail-on-slower a1.json a2.json a3.json -- c1.json c2.json \
			c3.json) >"$d/slow.txt" 2>&1
		rc=$?
		[ $rc -eq 1 ] || why="exit status $rc, not 1"
		grep -Eq '^ +median .* slower$' "$d/slow.txt" ||
			why="${why:+$why; }work's median is not 'slower': $(grep -E '^ +median' "$d/slow.txt")"
		# the change is about +200%: 60,000 ticks against 20,000
		awk '$1 == "median" { c = $4; sub(/%/, "", c); exit !(c + 0 > 190 && c + 0 < 210) }' \
			"$d/slow.txt" || why="${why:+$why; }median change: $(grep -E '^ +median' "$d/slow.txt")"
		# without --fail-on-slower the same verdict exits 0
		(cd "$d" && "$T" diff a1.json a2.json a3.json -- c1.json c2.json c3.json) \
			>/dev/null 2>&1 || why="${why:+$why; }exit status $? without --fail-on-slower"
		verdict diff-runs/slower "$why"
	fi
	if selected diff-runs/one-run; then
		why=""
		(cd "$d" && "$T" diff --fail-on-slower a1.json c1.json) >"$d/one.txt" 2>&1
		rc=$?
		[ $rc -eq 0 ] || why="exit status $rc: one run a side has no verdict, so nothing fails"
		grep -q 'one run per side: a change cannot be told apart from run-to-run noise' \
			"$d/one.txt" || why="${why:+$why; }no note on one run per side"
		grep -Eq 'slower|faster|no change' "$d/one.txt" && why="${why:+$why; }a verdict was given"
		verdict diff-runs/one-run "$why"
	fi
	if selected diff-runs/text-histogram-max; then
		# The text histogram's last edge is the reported max, never above it.
		why=""
		tsc report "$d/c1.json"
		awk '$1 == "work" && NF > 8 && !max { max = $9 }
		     /^histogram of work/ { h = 1; next }
		     h && (NF == 0 || $1 == "exact:") { h = 0 }
		     h { last = ($2 == "-") ? $3 : $1 }
		     END { if (last != max) { print "last edge " last ", max " max; exit 1 } }' \
			"$WORK/out" >"$d/edge.txt" || why=$(cat "$d/edge.txt")
		verdict diff-runs/text-histogram-max "$why"
	fi
}

# merge: the same run twice is refused, --allow-duplicates merges it; the merged report lists
# its runs, and report and plot say it is a merge.
t_merge_runs() {
	local o=$WORK/mruns why
	mkdir -p "$o"
	bad merge-runs/same-file "merge-a.json and merge-a.json are the same run (pid 100" \
		merge -o "$WORK/outdir/m.json" merge-a.json merge-b.json merge-a.json
	if selected merge-runs/inside-merge; then
		tsc merge -o "$o/ab.json" merge-a.json merge-b.json
		bad merge-runs/inside-merge "$o/ab.json and merge-b.json are the same run (pid 200" \
			merge -o "$WORK/outdir/m.json" "$o/ab.json" merge-b.json
	fi
	if selected merge-runs/allowed; then
		why=""
		tsc merge --allow-duplicates -o "$o/aa.json" merge-a.json merge-a.json
		[ $RC -eq 0 ] || why="status $RC: $(cat "$WORK/err")"
		jq -e '.merged_from == 2 and (.merged | length) == 2 and
			(.merged | map(.pid) == [100, 100])' "$o/aa.json" >/dev/null 2>&1 ||
			why="${why:+$why; }merged_from/merged: $(jq -c '{merged_from, merged}' "$o/aa.json")"
		verdict merge-runs/allowed "$why"
	fi
	if selected merge-runs/listed; then
		why=""
		tsc merge -o "$o/abc.json" merge-a.json merge-b.json merge-c.json
		jq -e '.merged_from == 3 and (.merged | map(.pid)) == [100, 200, 300] and
			(.merged[0].argv == ["worker", "--shard", "1"]) and
			(.merged[1].start_unix_ns == 1795000000500000000)' "$o/abc.json" >/dev/null ||
			why="merged: $(jq -c .merged "$o/abc.json")"
		if [ -n "$PY" ] && "$PY" -c 'import jsonschema' 2>/dev/null; then
			"$PY" "$TOP/tests/report-schema.py" "$TOP/docs/report.schema.json" "$o/abc.json" \
				>"$o/schema.out" 2>&1 || why="${why:+$why; }schema: $(head -c 300 "$o/schema.out")"
		fi
		tsc report "$o/abc.json"
		grep -q '^merged:   3 runs, pids 100, 200, 300 ' "$WORK/out" ||
			why="${why:+$why; }report: no 'merged:   3 runs' line"
		tsc plot -o "$o/abc.svg" "$o/abc.json"
		grep -q 'tsctrace report, merged 3 runs: ' "$o/abc.svg" ||
			why="${why:+$why; }plot: no 'merged 3 runs' title"
		verdict merge-runs/listed "$why"
	fi
}

# run -o NAME.json writes JSON and -o NAME.txt text whatever TSC_FORMAT says; --json and
# --text win over the name; report reads the text report.
t_run_format() {
	local o=$WORK/fmt why=""
	selected 'run-format/*' || return 0
	rm -rf "$o" && mkdir -p "$o"
	(cd "$o" && TSC_FORMAT=text traced -f strlen -o "$o/x.json" -- sh -c 'echo hi') \
		>/dev/null 2>&1
	jq -e '.schema == 1' "$o/x.json" >/dev/null 2>&1 || why="-o x.json under TSC_FORMAT=text: not JSON"
	(cd "$o" && TSC_FORMAT=json traced -f strlen -o "$o/x.txt" -- sh -c 'echo hi') \
		>/dev/null 2>&1
	head -1 "$o/x.txt" 2>/dev/null | grep -q '^tsctrace .* report$' ||
		why="${why:+$why; }-o x.txt under TSC_FORMAT=json: not text"
	(cd "$o" && traced --text -f strlen -o "$o/y.json" -- sh -c 'echo hi') >/dev/null 2>&1
	head -1 "$o/y.json" 2>/dev/null | grep -q '^tsctrace .* report$' ||
		why="${why:+$why; }--text -o y.json: not text"
	(cd "$o" && TSC_FORMAT=json traced -f strlen -o "$o/z.%p" -- sh -c 'echo hi') >/dev/null 2>&1
	jq -e '.schema == 1' "$o"/z.* >/dev/null 2>&1 || why="${why:+$why; }-o z.%p: TSC_FORMAT=json not kept"
	verdict run-format/from-name "$why"
	# The text report reads back (cases_textload.sh has the rest).
	if selected run-format/report-of-text; then
		tsc report "$o/x.txt"
		why=""
		[ $RC -eq 0 ] && grep -q '^histogram of strlen ' "$WORK/out" ||
			why="status $RC: $(head -c 300 "$WORK/err")"
		verdict run-format/report-of-text "$why"
	fi
}

# plot's count axis: integer ticks (one call reads 0 and 1), --log-y decades; histogram
# bars end at the max.
t_plot_axes() {
	local o=$WORK/plotaxes why
	mkdir -p "$o"
	# strlen of basic.json with a single call of 41 cycles
	jq '.functions |= map(select(.name == "strlen")
		| .calls = 1 | .timed = 1 | .unwound = 0 | .migrated = 0 | .dropped = 0
		| .cycles = {min: 41, median: 41, p90: 41, p99: 41, max: 41, mean: 41, total: 41}
		| .raw = (.cycles | map_values(. + 21)) | .ns = (.cycles | map_values(. / 2.6))
		| .histogram.buckets = [[41, 41, 1]] | del(.callers))' \
		"$DATA/basic.json" >"$o/one.json"
	if selected plot-axes/one-call; then
		why=""
		tsc plot -o "$o/one.svg" "$o/one.json"
		[ $RC -eq 0 ] || why="status $RC: $(cat "$WORK/err")"
		# the labels right-aligned at the histogram's axis (x = 74): exactly 0 and 1
		got=$(grep -o '<text x="74\.00"[^>]*>[^<]*</text>' "$o/one.svg" | sed 's/<[^>]*>//g' |
			tr '\n' ' ')
		[ "$got" = "0 1 " ] || why="${why:+$why; }count labels '$got', not '0 1 '"
		verdict plot-axes/one-call "$why"
	fi
	if selected plot-axes/integer-ticks; then
		why=""
		tsc plot -f compress_block -o "$o/cb.svg" basic.json
		got=$(grep -o '<text x="74\.00"[^>]*>[^<]*</text>' "$o/cb.svg" | sed 's/<[^>]*>//g' |
			tr '\n' ' ')
		# counts 20, 25, 4: steps of 5 up to 25
		[ "$got" = "0 5 10 15 20 25 " ] || why="count labels '$got'"
		verdict plot-axes/integer-ticks "$why"
	fi
	if selected plot-axes/log-y; then
		why=""
		tsc plot --log-y -f strlen -o "$o/log.svg" basic.json
		[ $RC -eq 0 ] || why="status $RC: $(cat "$WORK/err")"
		grep -q 'calls per bucket (log scale)' "$o/log.svg" || why="${why:+$why; }no log-scale label"
		got=$(grep -o '<text x="74\.00"[^>]*>[^<]*</text>' "$o/log.svg" | sed 's/<[^>]*>//g' |
			tr '\n' ' ')
		# strlen's largest bucket holds 310 calls: decades up to 1k
		[ "$got" = "0 1 10 100 1k " ] || why="${why:+$why; }log labels '$got'"
		verdict plot-axes/log-y "$why"
	fi
}

# report: functions never called are left out (one line counts them) unless --all.
t_report_uncalled() {
	local why=""
	selected report/uncalled || return 0
	tsc report basic.json
	grep -q '^qsort_r ' "$WORK/out" && why="qsort_r (0 calls) listed"
	grep -qx '(1 traced function never called is not listed)' "$WORK/out" ||
		why="${why:+$why; }no line counting it"
	tsc report --all basic.json
	[ "$(grep -c '^qsort_r ' "$WORK/out")" = 3 ] || why="${why:+$why; }--all: qsort_r not in all three tables"
	grep -q 'never called' "$WORK/out" && why="${why:+$why; }--all still counts omitted rows"
	verdict report/uncalled "$why"
}
