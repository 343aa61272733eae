# cases_textload.sh - sourced by run.sh: every command reads the shim's text reports
# (TSC_FORMAT=text, src/cli/load_text.c) as it reads JSON ones. A JSON report of a real run is
# rendered to text by `tsctrace report` (the shim's own writer), and merging the text gives
# what merging the JSON gives: counts, every histogram bucket, percentiles, totals, raw and ns.
# A text report the shim wrote goes through report, diff, merge, plot and export; what the
# text leaves out is refused by name, and a text from before the "exact:" lines too.
# shellcheck shell=bash disable=SC2016

# What a text report carries, of a merged report: all but self time, call sites, slowest
# calls and threads (and the object's directory: the text shows its file name).
TL_SAME='{clock, threads, pid, start_unix_ns, wall_ns, merged_from,
	overhead: (.overhead | {min, median, subtracted, nested}),
	functions: [.functions[] | {name, names, calls, timed, unwound, migrated, dropped,
		first, hook, symbol, offset, cycles, raw, ns, histogram,
		object: (.object | sub(".*/"; ""))}]}'

t_textload() {
	local o=$WORK/textload why n
	selected 'textload/*' || return 0
	rm -rf "$o" && mkdir -p "$o"
	# A run with JSON, and its text, for the comparison; ls -lR of src/ calls malloc and
	# strlen often enough for more buckets than the text's 12 bar rows.
	(cd "$o" && TSC_FORMAT=json TSC_OUTPUT="$o/r.json" TSC_FUNCS=malloc,free,strlen \
		LD_PRELOAD="${ASAN_RT:+$ASAN_RT:}$LIB" ASAN_OPTIONS=detect_leaks=0 ls -lR "$TOP/src" >/dev/null 2>&1)
	if selected textload/merge-equal; then
		why=""
		tsc report "$o/r.json"
		cp "$WORK/out" "$o/r.txt"
		n=$(jq '[.functions[].histogram.buckets | length] | max' "$o/r.json" 2>/dev/null)
		[ "${n:-0}" -gt 12 ] || why="the JSON report has ${n:-no} buckets, not more than 12"
		tsc merge -o "$o/m1.json" "$o/r.json"
		[ $RC -eq 0 ] || why="${why:+$why; }merge of the JSON: $(head -c 200 "$WORK/err")"
		tsc merge -o "$o/m2.json" "$o/r.txt"
		[ $RC -eq 0 ] || why="${why:+$why; }merge of the text: $(head -c 200 "$WORK/err")"
		jq -S "$TL_SAME" "$o/m1.json" >"$o/s1.json" 2>/dev/null
		jq -S "$TL_SAME" "$o/m2.json" >"$o/s2.json" 2>/dev/null
		[ -s "$o/s1.json" ] && same_json "$o/s1.json" "$o/s2.json" ||
			why="${why:+$why; }merged text differs from merged JSON: $(json_diff "$o/s1.json" "$o/s2.json")"
		verdict textload/merge-equal "$why"
	fi
	# Two reports the shim wrote as text (its default), of the same program.
	build_workprog || { fail textload/build "cannot build prog/workprog.c"; return 0; }
	for n in 1 2; do
		(cd "$o" && TSC_OUTPUT="$o/w$n.txt" TSC_FUNCS=work LD_PRELOAD="${ASAN_RT:+$ASAN_RT:}$LIB" ASAN_OPTIONS=detect_leaks=0 \
			"$WORK/workprog/workprog" 300 2000 >/dev/null 2>&1)
	done
	if selected textload/shim-text; then
		why=""
		head -1 "$o/w1.txt" | grep -q '^tsctrace .* report$' || why="w1.txt is not a text report"
		tsc report "$o/w1.txt"
		[ $RC -eq 0 ] && grep -q '^histogram of work ' "$WORK/out" ||
			why="${why:+$why; }report: status $RC: $(head -c 200 "$WORK/err")"
		tsc merge -o "$o/w.json" "$o/w1.txt" "$o/w2.txt"
		[ "$(jq '.functions[] | select(.name == "work") | .calls' "$o/w.json" 2>/dev/null)" = 600 ] ||
			why="${why:+$why; }merge: not 600 calls of work: $(head -c 200 "$WORK/err")"
		tsc diff "$o/w1.txt" "$o/w2.txt"
		[ $RC -le 1 ] && grep -q '^work ' "$WORK/out" ||
			why="${why:+$why; }diff: status $RC: $(head -c 200 "$WORK/err")"
		tsc plot -o "$o/w.svg" "$o/w1.txt"
		[ $RC -eq 0 ] && grep -q '<svg' "$o/w.svg" ||
			why="${why:+$why; }plot: status $RC: $(head -c 200 "$WORK/err")"
		tsc export --format prometheus "$o/w1.txt"
		[ $RC -eq 0 ] && grep -q 'function="work"' "$WORK/out" ||
			why="${why:+$why; }export: status $RC: $(head -c 200 "$WORK/err")"
		verdict textload/shim-text "$why"
	fi
	# The shim's text shows the slowest calls in part: commands that need them refuse.
	bad textload/lacks-slowest "w1.txt: a text report, which shows its slowest calls" \
		report --slowest "$o/w1.txt"
	bad textload/lacks-slowest-perfetto "its slowest calls (TSC_SLOWEST)" \
		export --format perfetto "$o/w1.txt"
	grep -v '^ *exact: \|^    [0-9]' "$o/w1.txt" | grep -v '^exact:' >"$o/old.txt"
	# A merged report's text lacks its runs (argv, start times).
	"$T" merge -o "$o/wm.json" "$o/w1.txt" "$o/w2.txt" 2>/dev/null &&
		"$T" report "$o/wm.json" >"$o/merged.txt" 2>/dev/null
	bad textload/merged-text "merged.txt: a text report of a merge, whose runs" \
		merge -o "$WORK/outdir/m.json" "$o/merged.txt"
	bad textload/before-exact "old.txt: a text report with no \"exact:\" lines" \
		merge -o "$WORK/outdir/m.json" "$o/old.txt"
}
