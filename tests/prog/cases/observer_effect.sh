# observer_effect: a short function timed on every call in a tight loop spends most of its
# thread's CPU time in the tracer's brackets, and timing that dense changes what it times
# (report/observer.h): the report warns, naming the function and TSC_SAMPLE/TSC_BUDGET.
# The same function called sparsely gets no warning. Each verdict is bound by the run's own
# figures: the share the report's overhead (subtracted + nested) x timed calls takes of the
# thread's CPU time (the program's own reading, t_observer_effect.c), against the 25%
# threshold with a factor of 2 of room either way; a run that lands between is a SKIP.
# observer_effect_sampled: the tight loop at TSC_SAMPLE=1024, under the threshold: no warning.

# observer_share CPU_NS: the share of CPU_NS the brackets of work_add's timed calls took, in
# percent, from $REPORT's figures.
observer_share() {
	jq -r --argjson cpu "$1" "$JQDEFS"' fn("work_add").timed * (.overhead.subtracted + .overhead.nested)
		/ .clock.tsc_hz * 1e9 / $cpu * 100' "$REPORT"
}

observer_run() {
	local mode=$1 want=$2 share warned
	run_pair observer_effect work_add "$B/t_observer_effect" "$mode" "$T/side" || return 1
	one_report && check_expects "$T/t.out" || return 1
	share=$(observer_share "$(cat "$T/side")")
	warned=$(jq -r '[.warnings[] | select(test("^work_add: timing took [0-9]+% of its thread.s CPU time .*TSC_SAMPLE.*TSC_BUDGET"))] | length' "$REPORT")
	case $want in
	warn)
		awk -v s="$share" 'BEGIN { exit !(s >= 50) }' ||
			skip_because "$mode: the brackets took only $share% of the thread's CPU time here (need >= 50%)" ||
			return 1
		[ "$warned" = 1 ] ||
			fail_because "$mode: brackets took $share% of the CPU time, no observer warning: $(jq -c .warnings "$REPORT")" ||
			return 1
		return 0 ;;
	none)
		awk -v s="$share" 'BEGIN { exit !(s <= 12.5) }' ||
			skip_because "$mode: the brackets took $share% of the thread's CPU time here (need <= 12.5%)" ||
			return 1
		[ "$warned" = 0 ] ||
			fail_because "$mode: brackets took $share% of the CPU time, yet warned: $(jq -c .warnings "$REPORT")" ;;
	esac
}

test_observer_effect() {
	observer_run tight warn || return 1
	rm -f "$T"/r.* "$T/side"
	observer_run sparse none
}

test_observer_effect_sampled() {
	XENV+=(TSC_SAMPLE=1024)
	observer_run tight none
}
run_test observer_effect_sampled test_observer_effect_sampled
