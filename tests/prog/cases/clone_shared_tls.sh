# clone_shared_tls: a raw clone(CLONE_VM) child sharing its parent's TLS block (no
# CLONE_SETTLS, not pthread_create) calls a traced function while the parent does, 20 runs
# (t_clone_shared_tls.c). Before the shim's clone wrapper (src/wrap/clone.c) the shared
# shadow stack crashed some runs and mixed the counts (work_add: 600 calls where the parent
# made 300). Now: never a crash; the calls made while the block was shared (the child's 300,
# and those of the parent's 300 made meanwhile) are passed through and counted by the
# warning; the parent's calls before the clone and after the child's end are timed, and the
# two figures add up to every call made.
test_clone_shared_tls() {
	local i all shared
	for i in $(seq 1 20); do
		run_pair clone_shared_tls work_add "$B/t_clone_shared_tls" || return 1
		one_report && check_expects "$T/t.out" || return 1
		all=$(awk '$1 == "all_calls" { print $2 }' "$T/t.out")
		[ "$(grep -c 'clone(CLONE_VM) child without a TLS' "$T/t.shim")" -eq 1 ] ||
			fail_because "run $i: not exactly one line about the shared TLS: $(head -3 "$T/t.shim")" ||
			return 1
		shared=$(sed -n 's/^tsctrace: \([0-9]*\) traced calls passed through untimed.*/\1/p' "$T/t.shim")
		ck "run $i: the warning's $shared calls are in the report's warnings" \
			"any(.warnings[]; startswith(\"$shared traced calls passed through untimed\"))" '.warnings' ||
			return 1
		ck "run $i: the child's 300 calls at least passed through, at most the parent's 300 more" \
			"$shared >= 300 and $shared <= 600" || return 1
		ck "run $i: work_add's calls + the $shared passed through == $all" \
			"fn(\"work_add\").calls + $shared == $all" 'fn("work_add") | counts' || return 1
		ck "run $i: no frame of the parent's left behind (the child pushed none)" \
			'fn("work_add").unwound == 0' 'fn("work_add") | counts' || return 1
		rm -f "$T"/r.*
	done
}
