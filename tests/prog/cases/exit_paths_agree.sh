# exit_paths_agree: the end of a timed call is recorded in two places kept in step by hand, the
# assembly's fast exit (tramp_body.S FAST_EXIT) and the C exit (hot/traced_call.c
# tt_call_exit); TSC_DEBUG=c-exit sends every call to the C one. One workload (t_self:
# nest_child and nest_rec's innermost calls are leaves the fast exit records, nest_parent's
# self time is what the fast exit adds to its frame) runs plain, with c-exit, plain again.
# Counts must be identical; each median with c-exit within the range of the two plain runs,
# widened by what this run's own figures allow: 2 granularity steps, the overhead's spread,
# how far the two runs' overheads differ, two iterations of the spins' loop.
exit_paths_run() {
	rm -f "$T"/r.*
	run_pair exit_paths_agree nest_parent,nest_child,nest_rec,nest_ljparent,nest_jumper \
		"$B/t_self" "$T/side" &&
		one_report && check_expects "$T/t.out" || return 1
	mv "$REPORT" "$T/$1.json"
}

test_exit_paths_agree() {
	local f p1 p2 c lo hi b n=0
	XENV=()
	exit_paths_run plain1 || return 1
	XENV=(TSC_DEBUG=c-exit)
	exit_paths_run cexit || return 1
	XENV=()
	exit_paths_run plain2 || return 1
	REPORT=$T/cexit.json
	ck "the C exit was in force" 'any(.warnings[]?; test("TSC_DEBUG=c-exit: every timed call ends in the C exit"))' '.warnings' ||
		return 1
	for f in nest_parent nest_child nest_rec; do
		jq -e -s --arg f "$f" "$JQDEFS"' (map(fn($f) | counts) | unique | length) == 1' \
			"$T/plain1.json" "$T/cexit.json" "$T/plain2.json" >/dev/null ||
			fail_because "$f: counts differ: $(jq -c -s --arg f "$f" "$JQDEFS"' map(fn($f) | counts)' \
				"$T/plain1.json" "$T/cexit.json" "$T/plain2.json")" || return 1
	done
	b=$(jq -r -s ".[0] as \$c | .[1] as \$p | 2 * \$c.clock.granularity +
		(\$c.overhead.median - \$c.overhead.min) + (\$c.overhead.median - \$p.overhead.median | fabs) +
		2 * $(side spin_iteration) + 4 | floor" "$T/cexit.json" "$T/plain1.json")
	for f in 'nest_child .cycles.median' 'nest_rec .cycles.median' 'nest_parent .self.median' \
		'nest_child .cycles.min' 'nest_parent .self.min'; do
		set -- $f
		p1=$(jq -r -s "$JQDEFS .[0] | fn(\"$1\") | $2" "$T/plain1.json")
		p2=$(jq -r -s "$JQDEFS .[0] | fn(\"$1\") | $2" "$T/plain2.json")
		c=$(jq -r -s "$JQDEFS .[0] | fn(\"$1\") | $2" "$T/cexit.json")
		lo=$(awk -v a="$p1" -v b="$p2" 'BEGIN { print (a < b ? a : b) }')
		hi=$(awk -v a="$p1" -v b="$p2" 'BEGIN { print (a > b ? a : b) }')
		awk -v c="$c" -v lo="$lo" -v hi="$hi" -v b="$b" 'BEGIN { exit !(c >= lo - b && c <= hi + b) }' ||
			fail_because "$1 $2: $c with the C exit, $p1 and $p2 without, bound $b ticks" ||
			return 1
		n=$((n + 1))
	done
	NOTE="$n figures within $b ticks; nest_child median $(jq -r -s "$JQDEFS .[0] | fn(\"nest_child\").cycles.median" "$T/plain1.json") plain, $(jq -r -s "$JQDEFS .[0] | fn(\"nest_child\").cycles.median" "$T/cexit.json") C exit"
}
