# Signal handlers of another runtime (Go's pattern, emulated in C by t_sig_runtime): installed
# with the raw system call behind the shim's sigaction, calling the handler they found for a
# signal they give up, ending the process for a signal on a thread they did not create.

# SIGUSR2 sent to every thread, with the shim's dump and export threads running: none of the
# shim's threads takes it (the runtime would end the process there); the dump signal's handler
# replaced behind sigaction is said in the report's warnings.
test_sig_runtime_foreign() {
	XENV=(TSC_DUMP_SIGNAL=USR2 "TSC_EXPORT=$T/m.prom")
	run_pair sig_runtime_foreign work_add "$B/t_sig_runtime" foreign "$T/side" &&
		one_report && check_expects "$T/t.out" || return 1
	[ "$(side threads)" -ge 4 ] ||
		fail_because "test setup: $(side threads) threads traced, expected the program's 2 and the shim's dump and export threads" || return 1
	ck "warnings: the dump signal's handler was replaced without sigaction" \
		'any(.warnings[]; test("TSC_DUMP_SIGNAL: the handler of signal 12 was replaced without sigaction"))' \
		'.warnings'
}

# The program's own SIGUSR2 handler, installed with sigaction, with TSC_DUMP_SIGNAL=USR2: both
# happen, the program's handler with its siginfo at each signal, and the dump.
test_sig_runtime_chain() {
	XENV=(TSC_DUMP_SIGNAL=USR2)
	run_pair sig_runtime_chain work_add "$B/t_sig_runtime" chain "$T" "$T/side" &&
		one_report && check_expects "$T/t.out" || return 1
	[ "$(side dump)" = ok ] || fail_because "no dump written at SIGUSR2 (the program's handler replaced the shim's)" || return 1
	REPORT=$T/dump.json
	ck "the dump is a report with work_add counted" 'fn("work_add").calls >= 1' 'fn("work_add") | counts'
}

# SIGTERM handled by the runtime, which calls the handler it found (the shim's, writing the
# report) and expects to die of it: it dies of SIGTERM, one report, exact counts.
test_sig_runtime_fatal() {
	WANT_STATUS=143
	run_pair sig_runtime_fatal work_add "$B/t_sig_runtime" fatal &&
		one_report && check_expects "$T/t.out"
}

run_test sig_runtime_foreign test_sig_runtime_foreign
run_test sig_runtime_chain test_sig_runtime_chain
run_test sig_runtime_fatal test_sig_runtime_fatal
