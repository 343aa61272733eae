# exit_race: two threads call exit() at once, 30 runs (t_exit_race.c). glibc 2.36 lets the
# second thread reach _exit while the first is still in the destructors, the shim's report
# among them: the report was lost in most runs (18 of 20 without call paths, 20 of 20 with
# TSC_CALLERS=4, which makes the report slow), unsaid, and some left PATH.tmp.PID.RANDOM
# behind. Every run now has its one report, with the exact count, and no temporary file.
# Runs 1, 11 and 21 have call paths (their calibration takes seconds on a loaded 2-core machine).
# exit_race_got: 10 runs under TSC_HOOK=got, where libc's _exit is detoured at the first
# pthread_create.
exit_race_runs() {
	local runs=$1 i left
	shift
	XENV+=("$@")
	# LSan's leak check, run by one exiting thread while the other lives, crashes reading the
	# dynamic TLS of libunwind (TSC_CALLERS) in that thread: so does any thread alive at exit
	# with call paths, whatever the shim does at exit.
	[ "$ASAN" = 1 ] && XENV+=(ASAN_OPTIONS=detect_leaks=0)
	for i in $(seq 1 "$runs"); do
		if [ $((i % 10)) = 1 ]; then
			XENV+=(TSC_CALLERS=4)
		fi
		run_pair exit_race work_add "$B/t_exit_race" || return 1
		[ $((i % 10)) = 1 ] && unset 'XENV[${#XENV[@]}-1]'
		left=$(find "$T" -maxdepth 1 -name 'r.*.tmp.*' | head -3)
		[ -z "$left" ] || fail_because "run $i: temporary files left: $left" || return 1
		[ -n "$REPORT" ] || fail_because "run $i: not one report; shim said: $(head -3 "$T/t.shim")" ||
			return 1
		# One jq a run (each costs a good part of a second on a loaded machine); the whole
		# check on the last.
		if [ "$i" = "$runs" ]; then
			one_report && check_expects "$T/t.out" || return 1
		else
			ck "run $i: work_add's 1000 calls" 'fn("work_add").calls == 1000' \
				'fn("work_add") | counts' || return 1
		fi
		rm -f "$T"/r.*
	done
}

test_exit_race() { exit_race_runs 30; }
test_exit_race_got() { exit_race_runs 10 TSC_HOOK=got; }
run_test exit_race_got test_exit_race_got
