# budget_cpu_time: TSC_BUDGET is a share of the thread's CPU time, not of the clock's. A thread
# that sleeps 3 ms after each 20,000 calls of a short function (t_budget_cpu_time.c) runs for a
# small part of its wall time; before, its budget accrued while it slept and it timed ~10 times
# what 2% of its CPU time allows. The timed calls past the floor (1,000), at the larger of the
# report's timed costs (start-up, fitted), must fit in twice 2% of the thread's CPU time (the
# program's own reading, in clock units at the report's rate); the sleeps must have left the
# thread running under a third of its wall time, else the run proves nothing (SKIP).
test_budget_cpu_time() {
	local cpu
	XENV+=(TSC_BUDGET=2%)
	run_pair budget_cpu_time work_add "$B/t_budget_cpu_time" "$T/side" || return 1
	one_report && check_expects_sampled "$T/t.out" || return 1
	cpu=$(cat "$T/side")
	jq -e --argjson cpu "$cpu" '$cpu * 3 < .wall_ns' "$REPORT" >/dev/null ||
		skip_because "the thread ran $cpu ns of $(jq .wall_ns "$REPORT") ns: it hardly waited" ||
		return 1
	ck "work_add: sampled, its floor of 1000 timed" \
		'fn("work_add") | .skipped > 0 and .timed >= 1000' 'fn("work_add") | counts + {skipped}' ||
		return 1
	ck "timed calls past the floor x their cost within twice 2% of the thread's CPU time" \
		"$(printf '%s' 'fn("work_add") as $f | ([.sampling.timed_cost, $f.sampling.timed_cost // 0] | max) as $c |
		 ($f.timed - 1000) * $c <= 0.04 * ($cpu * .clock.tsc_hz / 1e9)' | sed "s/\$cpu/$cpu/g")" \
		'{f: fn("work_add") | {timed, sampling}, sampling, wall_ns, hz: .clock.tsc_hz}'
}
