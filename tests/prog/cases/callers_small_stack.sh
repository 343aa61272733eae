# callers_small_stack.sh - TSC_CALLERS=8 in a thread with a 16 KiB stack and in a signal
# handler on an 8 KiB sigaltstack (t_callers_small_stack). Taking a path used 8-10 KiB of the
# program's stack and both died (SIGSEGV); the unwind now runs on the shim's own stack. The
# program paints each stack and says on stderr how much of it was written: the traced run
# may use a little more (the body's and the exit's frames, the thread's first-call setup),
# never kilobytes.
# shellcheck shell=bash disable=SC2034,SC2015
# (XENV, CMP_STDERR are read by run.sh's helpers; `a && b || fail` as in run.sh)

SMALL_STACK_SLACK=1024 # bytes of the program's stack a traced call may use beyond untraced

test_callers_small_stack() {
	local where u t
	XENV+=(TSC_CALLERS=8)
	CMP_STDERR=0 # the stack use differs, by design: compared below
	run_pair callers_small_stack work_add "$B/t_callers_small_stack" || return 1
	one_report && check_expects "$T/t.out" || return 1
	ck "work_add's paths were taken (2 frames or more) and add up to its calls" \
		'fn("work_add") as $f | ([$f.callers[].calls] | add) == $f.calls and
		 any($f.callers[]; (.frames | length) >= 2)' \
		'fn("work_add") | {calls, callers: [.callers[] | {calls, frames}]}' || return 1
	for where in thread altstack; do
		u=$(sed -n "s/^used $where //p" "$T/u.err")
		t=$(sed -n "s/^used $where //p" "$T/t.err")
		[ -n "$u" ] && [ -n "$t" ] ||
			fail_because "no 'used $where' line: $(head -c 200 "$T/t.err")" || return 1
		[ "$t" -le $((u + SMALL_STACK_SLACK)) ] ||
			fail_because "$where: $t bytes of its stack used traced, $u untraced" || return 1
	done
	NOTE="program stack used: thread $(sed -n 's/^used thread //p' "$T/t.err") B (untraced $(sed -n 's/^used thread //p' "$T/u.err")), altstack $t B (untraced $u)"
}
