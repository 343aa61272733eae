# quick_exit: a program leaves by quick_exit(5) after 100 traced calls, and its
# at_quick_exit handler makes 50 more (t_quick_exit.c). libc ends the process through its own
# _exit: before, under TSC_HOOK=got (no detour of libc's _exit) no report was written and
# nothing said so. On every route now one report, with the handler's calls (150), and the
# program's status. quick_exit_got, quick_exit_inline: the route set.
quick_exit_run() {
	XENV+=("$@")
	WANT_STATUS=5
	run_pair quick_exit work_add "$B/t_quick_exit" && one_report && check_expects "$T/t.out"
}

test_quick_exit() { quick_exit_run; }
test_quick_exit_got() { quick_exit_run TSC_HOOK=got; }
test_quick_exit_inline() { quick_exit_run TSC_HOOK=inline; }
run_test quick_exit_got test_quick_exit_got
run_test quick_exit_inline test_quick_exit_inline
