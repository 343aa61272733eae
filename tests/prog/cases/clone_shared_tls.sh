# clone_shared_tls: a raw clone(CLONE_VM) child sharing its parent's TLS block (no
# CLONE_SETTLS, not pthread_create) calls a traced function while the parent does, 20 runs
# (t_clone_shared_tls.c). Wanted (issue 30, item 4, not built yet): never a crash, the
# parent's count exact, the child's calls reported as passed through. Today the shared shadow
# stack crashes some runs and mixes the counts (work_add: 600 calls where the parent made
# 300). Pending: when the detection lands, rename the function test_clone_shared_tls, drop
# the pending_test line, and check the child's calls where the report puts them.
clone_shared_tls_case() {
	local i
	for i in $(seq 1 20); do
		run_pair clone_shared_tls work_add "$B/t_clone_shared_tls" || return 1
		one_report && check_expects "$T/t.out" || return 1
		rm -f "$T"/r.*
	done
}
pending_test clone_shared_tls "raw clone(CLONE_VM) children sharing the TLS block are not detected yet"
