# altstack_cache.sh - TSC_CALLERS=2 asks the kernel whether a thread runs on its signal stack
# once, not at every unwind: a sigaltstack system call a traced call cost about 1.5 us (sort
# with call paths: 3.3 M of them, 2.7x its CPU time). t_altstack_cache sets a signal stack
# after its first traced calls (through libc, or syscall()), and makes traced calls from a
# handler on it: each of those unwinds must still block the asynchronous signals (a nested
# handler would start over the running one), and no call off it may.
# shellcheck shell=bash disable=SC2034,SC2015
# (XENV is read by run.sh's helpers; `a && b || fail` as in run.sh)

ALTSTACK_HANDLER_CALLS=50 # t_altstack_cache.c's HANDLER_CALLS
ALTSTACK_ASKS_MAX=10      # the shim's sigaltstack questions and the program's own

altstack_cache_case() {
	local mode=$1 asks blocks lsan_off=
	command -v strace >/dev/null 2>&1 || { skip_because "strace is not installed"; return 0; }
	# LeakSanitizer stops threads with ptrace at exit, which a process under strace cannot.
	[ "$ASAN" = 1 ] && lsan_off=ASAN_OPTIONS=detect_leaks=0
	XENV+=(TSC_CALLERS=2)
	run_pair "altstack_cache_$mode" work_add "$B/t_altstack_cache" "$mode" || return 1
	one_report && check_expects "$T/t.out" || return 1
	(cd "$T" && timeout -k 5 "$TIMEOUT" strace -f -qq -o "$T/st" \
		-e trace=sigaltstack,rt_sigprocmask -E "LD_PRELOAD=$PRELOAD" -E TSC_FUNCS=work_add \
		-E TSC_CALLERS=2 -E "TSC_OUTPUT=$T/st.report" ${HOOK_ALL:+-E TSC_HOOK=$HOOK_ALL} \
		${lsan_off:+-E "$lsan_off"} \
		"$B/t_altstack_cache" "$mode") >"$T/st.out" 2>"$T/st.err" ||
		fail_because "under strace: status $?: $(head -c 200 "$T/st.err")" || return 1
	if grep -q 'PTRACE_TRACEME\|Operation not permitted' "$T/st.err"; then
		skip_because "strace cannot trace here: $(head -c 200 "$T/st.err")"
		return 0
	fi
	asks=$(grep -c 'sigaltstack(' "$T/st")
	blocks=$(grep -cE 'rt_sigprocmask\(SIG_BLOCK, ~\[[A-Z ]*SEGV[A-Z ]*\]' "$T/st")
	NOTE="sigaltstack calls $asks, unwinds with signals blocked $blocks (handler calls $ALTSTACK_HANDLER_CALLS)"
	[ "$asks" -le $ALTSTACK_ASKS_MAX ] ||
		fail_because "$asks sigaltstack calls for 2050 traced calls (at most $ALTSTACK_ASKS_MAX)" ||
		return 1
	[ "$blocks" -eq $ALTSTACK_HANDLER_CALLS ] ||
		fail_because "$blocks unwinds blocked signals; the handler on the signal stack made $ALTSTACK_HANDLER_CALLS calls: $(grep -m3 'rt_sigprocmask(SIG_BLOCK' "$T/st" | tr '\n' ' ')" ||
		return 1
}
test_altstack_cache_libc() { altstack_cache_case libc; }
test_altstack_cache_syscall() { altstack_cache_case syscall; }
run_test altstack_cache_libc test_altstack_cache_libc
run_test altstack_cache_syscall test_altstack_cache_syscall
