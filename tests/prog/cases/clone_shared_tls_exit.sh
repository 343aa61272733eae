# clone_shared_tls_exit: as clone_shared_tls, but the child leaves by _exit instead of
# returning from its function (t_clone_shared_tls.c exit). The shim never sees it end, so the
# block stays shared for the rest of the thread (docs/report-delivery.md): the parent's 300
# calls before the clone are its only ones counted and timed, the other 900 (the child's, the
# parent's during and after) are the warning's. Never a crash, 5 runs.
test_clone_shared_tls_exit() {
	local i shared
	# ASan warns of the child's _exit on a stack it does not know, addresses in the text.
	[ "$ASAN" = 1 ] && CMP_STDERR=0
	for i in $(seq 1 5); do
		run_pair clone_shared_tls_exit work_add "$B/t_clone_shared_tls" exit || return 1
		one_report && check_expects "$T/t.out" || return 1
		shared=$(sed -n 's/^tsctrace: \([0-9]*\) traced calls passed through untimed.*/\1/p' "$T/t.shim")
		[ "$shared" = 900 ] ||
			fail_because "run $i: wanted 900 calls passed through, the shim said: $(head -3 "$T/t.shim")" ||
			return 1
		rm -f "$T"/r.*
	done
}
