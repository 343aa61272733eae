# shellcheck shell=bash disable=SC2034,SC2015
# (XENV is read by run.sh's helpers; `a && b || fail` as in run.sh)
# slowest.sh - TSC_SLOWEST, TSC_SLOWER_THAN and TSC_ARGS (issue 34), on t_slowest: 100,000
# calls of slow_call, every 10,000th of them (index 5000, 15000, ...) spinning 5M ticks; the
# call's index is its first argument (or every other of them sleeping 10 ms instead). And
# slow_copy, 1,000 calls of 64 bytes, 100 of 65,536.
# Each test runs under the GOT hook and under the inline one.

SPIN_IDX='[5000,15000,25000,35000,45000,55000,65000,75000,85000,95000]'

# The kept calls of slow_call hold exactly the ten spinning ones, slowest first, each with the
# arguments it was given, its result, the thread and a start inside the run.
ck_ten_slowest() {
	local off
	off=$(jq -R -s -c 'split("\n") | map(select(length > 0) | split(" ")[0] | tonumber)' "$T/side") ||
		fail_because "test setup: no side file of calls switched out" || return 1
	# A call the program saw switched out may be slower than a spin and take its place.
	ck "slowest holds exactly the ten spinning calls (or calls switched out in their place)" \
		"(fn(\"slow_call\").slowest | map(.args[0])) as \$k | $off as \$off |
		 (\$k | length) == 10 and (\$k | unique | length) == 10 and
		 all(\$k[]; . as \$i | ($SPIN_IDX | index(\$i)) != null or (\$off | index(\$i)) != null)" \
		'fn("slow_call").slowest | map([.args[0], .cycles])' || return 1
	[ "$(jq -c "$JQDEFS [fn(\"slow_call\").slowest[].args[0]] | sort" "$REPORT")" = "$SPIN_IDX" ] ||
		NOTE="calls switched out took a spin's place"
	ck "slowest first" \
		'fn("slow_call").slowest | [.[].cycles] | . == (sort | reverse)' \
		'fn("slow_call").slowest | map(.cycles)' || return 1
	ck "each kept call's arguments, result and thread as given" \
		'.pid as $p | all(fn("slow_call").slowest[]; .args[0] as $i |
		 .args == [$i, $i + 1, -2, 3, 4, -5] and .ret == 8 * $i + 2 and .tid == $p)' \
		'fn("slow_call").slowest[0:2]' || return 1
	ck "start_ns inside the run, in call order" \
		'.start_unix_ns as $s | (.start_unix_ns + .wall_ns) as $e |
		 (fn("slow_call").slowest | sort_by(.args[0]) | map(.start_ns)) as $t |
		 all($t[]; . >= $s and . <= $e) and $t == ($t | sort)' \
		'[.start_unix_ns, .wall_ns, (fn("slow_call").slowest | map([.args[0], .start_ns]))]' ||
		return 1
	ck "slowest_info: 10 kept, timed only" \
		'fn("slow_call").slowest_info == {"kept": 10, "timed_only": true,
		 "slower_than": null, "not_kept": 0}' 'fn("slow_call").slowest_info' || return 1
	ck "max is the slowest kept" \
		'fn("slow_call") | .cycles.max == .slowest[0].cycles' \
		'fn("slow_call") | [.cycles.max, .slowest[0].cycles]'
}

# slowest_run HOOK CHECK [ARG...]: t_slowest traced with slow_call under HOOK, then CHECK. A
# call the machine took off its CPU for longer than a spin may be kept in its place: up to
# three runs, the first one CHECK passes counts.
slowest_run() {
	local hook=$1 check=$2 try
	shift 2
	XENV+=("TSC_HOOK=$hook")
	for try in 1 2 3; do
		WHY=""
		rm -f "$T"/r.*
		run_pair slowest slow_call "$B/t_slowest" "$@" || return 1
		one_report && check_expects "$T/t.out" || return 1
		"$check" && return 0
		NOTE="run $try: $WHY"
	done
	return 1
}

slowest_case() { XENV=(TSC_SLOWEST=10); slowest_run "$1" ck_ten_slowest spin side; }
test_slowest_got() { slowest_case got; }
test_slowest_inline() { slowest_case inline; }

# TSC_CALLERS=1: each kept call has its call path, main's call site.
ck_path() {
	ck "each kept call's path is its call site in calls()" \
		'all(fn("slow_call").slowest[]; (.path | length) == 1 and (.path[0] | startswith("calls+")))' \
		'fn("slow_call").slowest[0].path'
}
slowest_callers_case() { XENV=(TSC_SLOWEST=10 TSC_CALLERS=1); slowest_run "$1" ck_path; }
test_slowest_callers_got() { slowest_callers_case got; }
test_slowest_callers_inline() { slowest_callers_case inline; }

# TSC_SLOWER_THAN: every call above 1,000,000 cycles kept (the ten spins, and any call the
# machine held up that long), none below it; up to 1024 a function (slowest_info.kept).
ck_slower_than() {
	ck "the ten spinning calls are kept, and only calls above the threshold" \
		"fn(\"slow_call\") | (.slowest | map(.args[0])) as \$k |
		 all($SPIN_IDX[]; . as \$i | \$k | index(\$i) != null) and
		 all(.slowest[]; .cycles > 1000000) and
		 .slowest_info.slower_than == 1000000 and .slowest_info.not_kept == 0 and
		 .slowest_info.kept == 1024 and (.slowest | length) <= 1024" \
		'fn("slow_call") | [.slowest_info, (.slowest | map([.args[0], .cycles]))]'
}
slower_than_case() { XENV=(TSC_SLOWER_THAN=1000000); slowest_run "$1" ck_slower_than; }
test_slower_than_got() { slower_than_case got; }
test_slower_than_inline() { slower_than_case inline; }

# TSC_ARGS=slow_copy:3: two buckets of the size argument, with exactly the calls made with it,
# and the larger copies slower at the median.
by_arg_case() {
	XENV=(TSC_ARGS=slow_copy:3 "TSC_HOOK=$1")
	run_pair by_arg slow_copy "$B/t_slowest" copy || return 1
	one_report && check_expects "$T/t.out" || return 1
	ck "by_arg: buckets 64-127 (1000 calls) and 65536-131071 (100 calls)" \
		'fn("slow_copy").by_arg | .arg == 3 and .filter == null and
		 ([.buckets[] | [.lo, .hi, .calls]] == [[64, 127, 1000], [65536, 131071, 100]])' \
		'fn("slow_copy").by_arg' || return 1
	ck "by_arg: timed calls add up to the function's, medians ordered" \
		'fn("slow_copy") | ([.by_arg.buckets[].timed] | add) == .timed and .filtered == 0 and
		 .by_arg.buckets[0].median < .by_arg.buckets[1].median and
		 all(.by_arg.buckets[]; .min <= .median and .median <= .p99)' \
		'fn("slow_copy") | [.timed, .filtered, .by_arg.buckets]'
}
test_by_arg_got() { by_arg_case got; }
test_by_arg_inline() { by_arg_case inline; }

# TSC_ARGS=slow_copy:3>=100: only the large copies timed, the 1,000 small ones filtered.
by_arg_filter_case() {
	XENV=("TSC_ARGS=slow_copy:3>=100" "TSC_HOOK=$1")
	run_pair by_arg_filter slow_copy "$B/t_slowest" copy || return 1
	one_report && check_expects "$T/t.out" || return 1
	ck "filter >=100: one bucket of 100 timed calls, 1000 filtered" \
		'fn("slow_copy") | .filtered == 1000 and .timed == 100 and .by_arg.filter == ">=100" and
		 ([.by_arg.buckets[] | [.lo, .calls, .timed]] == [[65536, 100, 100]]) and
		 all(.slowest[]; .args[2] == 65536)' \
		'fn("slow_copy") | [.timed, .filtered, .by_arg, (.slowest | map(.args[2]))]'
}
test_by_arg_filter_got() { by_arg_filter_case got; }
test_by_arg_filter_inline() { by_arg_filter_case inline; }

# offcpu_ns: with every other slow call sleeping 10 ms instead of spinning, each sleeping
# call kept was off its CPU for at least 90% of its time, a spinning one for under 10%; one
# the program saw switched out ran on its CPU as long as the thread's CPU time over it says,
# within 10% of the call.
ck_offcpu() {
	local off
	off=$(jq -R -s -c 'split("\n") | map(select(length > 0) | split(" ") |
		{key: .[0], value: (.[1] | tonumber)}) | from_entries' "$T/side") ||
		fail_because "test setup: no side file of calls switched out" || return 1
	if jq -e -s "$JQDEFS .[0] | all(fn(\"slow_call\").slowest[]; .offcpu_ns == null)" \
		"$REPORT" >/dev/null; then
		skip_because "offcpu_ns is null here: $(jq -r '.warnings | map(select(test("offcpu"))) | .[0] // "no warning"' "$REPORT")"
		return 0
	fi
	ck "offcpu_ns: sleeping calls >= 90% off the CPU, spinning ones < 10% (or as their CPU time)" \
		"(if .clock.tsc_hz > 0 then 1e9 / .clock.tsc_hz else 1 end) as \$ns | $off as \$off |
		 [fn(\"slow_call\").slowest[] | select(.args[0] % 10000 == 5000)] as \$k |
		 ([\$k[] | select((.args[0] / 10000 | floor) % 2 == 1)]) as \$sleep |
		 ([\$k[] | select((.args[0] / 10000 | floor) % 2 == 0)]) as \$spin |
		 (\$sleep | length) > 0 and (\$spin | length) > 0 and
		 all(\$sleep[]; .offcpu_ns != null and .offcpu_ns >= 0.9 * .cycles * \$ns) and
		 all(\$spin[]; .offcpu_ns != null and (\$off[.args[0] | tostring]) as \$cpu |
		     (if \$cpu == null then .offcpu_ns < 0.1 * .cycles * \$ns
		      else (.cycles * \$ns - .offcpu_ns - \$cpu | fabs) <= 0.1 * .cycles * \$ns end))" \
		"(if .clock.tsc_hz > 0 then 1e9 / .clock.tsc_hz else 1 end) as \$ns | $off as \$off |
		 [fn(\"slow_call\").slowest[] | [.args[0], (.cycles * \$ns | floor), .offcpu_ns,
		  \$off[.args[0] | tostring]]]"
}
slowest_offcpu_case() { XENV=(TSC_SLOWEST=10); slowest_run "$1" ck_offcpu sleep side; }
test_slowest_offcpu_got() { slowest_offcpu_case got; }
test_slowest_offcpu_inline() { slowest_offcpu_case inline; }

run_test slowest_got test_slowest_got
run_test slowest_inline test_slowest_inline
run_test slowest_callers_got test_slowest_callers_got
run_test slowest_callers_inline test_slowest_callers_inline
run_test slower_than_got test_slower_than_got
run_test slower_than_inline test_slower_than_inline
run_test by_arg_got test_by_arg_got
run_test by_arg_inline test_by_arg_inline
run_test by_arg_filter_got test_by_arg_filter_got
run_test by_arg_filter_inline test_by_arg_filter_inline
run_test slowest_offcpu_got test_slowest_offcpu_got
run_test slowest_offcpu_inline test_slowest_offcpu_inline
