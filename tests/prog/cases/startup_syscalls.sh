# startup_syscalls.sh - what a traced process pays at a fixed cost, by system call (issue 36:
# counting only at the floor of a counting wrapper). t_basic under strace, counting only
# (TSC_SAMPLE=4294967296) and timing every call: the seccomp question of the kept slowest
# calls is prctl(PR_GET_SECCOMP), not a read of /proc/self/status (~35 us of the kernel
# formatting every field), and the overhead's calibration at the report maps no 1 MiB stack of
# its own (mmap, guard, munmap: ~18 us), as it runs on the report's kept one. The report is
# still written, and still says whether the off-CPU time was refused (not here: no filter).
# shellcheck shell=bash disable=SC2034,SC2015
# (REPORT and NOTE are read by run.sh's helpers; `a && b || fail` as in run.sh)

startup_syscalls_case() {
	local mode=$1 lsan_off='' status stacks
	command -v strace >/dev/null 2>&1 || { skip_because "strace is not installed"; return 0; }
	# LeakSanitizer stops threads with ptrace at exit, which a process under strace cannot.
	[ "$ASAN" = 1 ] && lsan_off=ASAN_OPTIONS=detect_leaks=0
	(cd "$T" && timeout -k 5 "$TIMEOUT" strace -f -qq -o "$T/st" \
		-e trace=openat,open,mmap,prctl -E "LD_PRELOAD=$PRELOAD" -E TSC_FUNCS=strlen \
		-E TSC_FORMAT=json -E "TSC_OUTPUT=$T/r.json" ${mode:+-E "$mode"} \
		${HOOK_ALL:+-E TSC_HOOK=$HOOK_ALL} ${lsan_off:+-E "$lsan_off"} \
		"$B/t_basic" run) >"$T/st.out" 2>"$T/st.err" ||
		fail_because "under strace: status $?: $(head -c 200 "$T/st.err")" || return 1
	if grep -q 'PTRACE_TRACEME\|Operation not permitted' "$T/st.err"; then
		skip_because "strace cannot trace here: $(head -c 200 "$T/st.err")"
		return 0
	fi
	REPORT=$T/r.json
	one_report || return 1
	ck "strlen counted: 1000 calls" 'fn("strlen").calls >= 1000' '{calls: fn("strlen").calls}' ||
		return 1
	ck "no warning of off-CPU time refused" 'all(.warnings[]; test("seccomp") | not)' \
		'{warnings}' || return 1
	status=$(grep -c '/proc/self/status' "$T/st")
	stacks=$(grep -cE 'mmap\(NULL, 1052672,' "$T/st")
	NOTE="/proc/self/status opened $status times, 1 MiB stacks mapped $stacks"
	grep -q 'prctl(PR_GET_SECCOMP' "$T/st" ||
		fail_because "no prctl(PR_GET_SECCOMP): $(grep -m3 prctl "$T/st" | tr '\n' ' ')" || return 1
	[ "$status" -eq 0 ] ||
		fail_because "/proc/self/status opened $status times: $(grep -m2 /proc/self/status "$T/st" | tr '\n' ' ')" ||
		return 1
	[ "$stacks" -eq 0 ] ||
		fail_because "$stacks stacks of 1 MiB mapped (the calibration's own, not the report's kept one)" ||
		return 1
}
test_startup_syscalls_counting() { startup_syscalls_case TSC_SAMPLE=4294967296; }
test_startup_syscalls_timed() { startup_syscalls_case ""; }
run_test startup_syscalls_counting test_startup_syscalls_counting
run_test startup_syscalls_timed test_startup_syscalls_timed
