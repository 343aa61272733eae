# seccomp_allow, seccomp_errno, seccomp_strict{,_syscall}: a program confines itself with seccomp after
# 50 traced calls, makes 50 more, and exits as the sandbox lets it (t_seccomp.c). The traced
# run must end as the untraced one (the shim making a system call the filter forbids killed
# it), the report of the 50 calls made before the filter must be there, and one line must say
# that later calls are not reported (an ERRNO filter used to lose the report silently). Strict
# mode also forbids the TSC where the kernel can: the calls after it must not read it (they
# died of SIGSEGV in the trampoline).

# seccomp_can MODE: the kernel lets this program install the sandbox (else the test skips).
seccomp_can() {
	{ "$B/t_seccomp" "$1" >/dev/null 2>&1; } 2>/dev/null
	[ $? -ne 77 ]
}

seccomp_case() {
	local mode=$1
	seccomp_can "$mode" || { skip_because "this kernel refuses seccomp $mode"; return 0; }
	if [ "$ASAN" = 1 ] && ! { "$B/t_seccomp" "$mode" >/dev/null 2>&1; } 2>/dev/null; then
		skip_because "under ASan the program dies in its own sandbox untraced (the runtime maps memory)"
		return 0
	fi
	run_pair "seccomp_$mode" work_add "$B/t_seccomp" "$mode" || return 1
	grep -qx 'after ok' "$T/t.out" || fail_because "calls after the filter went wrong: $(cat "$T/t.out")" ||
		return 1
	one_report || return 1
	ck "work_add: the 50 calls made before the filter reported" 'fn("work_add").calls == 50' \
		'fn("work_add") | counts' || return 1
	[ "$(grep -c "confines itself with seccomp" "$T/t.shim")" -eq 1 ] ||
		fail_because "not exactly one line about seccomp: $(head -3 "$T/t.shim")"
}

test_seccomp_allow() { seccomp_case allow; }
test_seccomp_errno() { seccomp_case errno; }
test_seccomp_strict() { seccomp_case strict; }
test_seccomp_syscall() { seccomp_case syscall; }
test_seccomp_strict_syscall() { seccomp_case strict_syscall; }
run_test seccomp_allow test_seccomp_allow
run_test seccomp_errno test_seccomp_errno
run_test seccomp_strict test_seccomp_strict
run_test seccomp_syscall test_seccomp_syscall
run_test seccomp_strict_syscall test_seccomp_strict_syscall
