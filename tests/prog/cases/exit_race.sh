# exit_race: two threads call exit() at once, 30 runs with call paths (TSC_CALLERS=4), which
# make the report slow to write (t_exit_race.c). glibc 2.36 lets the second thread reach
# _exit while the first is still in the destructors, the shim's report among them: the
# report was lost in most runs, unsaid, and some left PATH.tmp.PID.RANDOM behind. Every run
# now has its one report, with the exact count, and no temporary file. exit_race_got: the
# same under TSC_HOOK=got (10 runs), where libc's _exit is detoured at the first pthread_create.
exit_race_runs() {
	local runs=$1 i left
	shift
	XENV+=(TSC_CALLERS=4 "$@")
	for i in $(seq 1 "$runs"); do
		run_pair exit_race work_add "$B/t_exit_race" || return 1
		left=$(find "$T" -maxdepth 1 -name 'r.*.tmp.*' | head -3)
		[ -z "$left" ] || fail_because "run $i: temporary files left: $left" || return 1
		one_report || fail_because "run $i: no report" || return 1
		check_expects "$T/t.out" || return 1
		rm -f "$T"/r.*
	done
}

test_exit_race() { exit_race_runs 30; }
test_exit_race_got() { exit_race_runs 10 TSC_HOOK=got; }
run_test exit_race_got test_exit_race_got
