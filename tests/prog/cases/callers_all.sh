# callers_all.sh - TSC_CALLERS=2 with every function traced (TSC_FUNCS='*'): the call-path
# exit read errno before raising the shim's guard, so a traced __errno_location came back
# into it without end and every program died (SIGSEGV), /bin/true included.
# shellcheck shell=bash disable=SC2034,SC2015
# (XENV is read by run.sh's helpers; `a && b || fail` as in run.sh)

# callers_all NAME FUNCS CMD...: traced with FUNCS and TSC_CALLERS=2, as untraced, a report
# with call paths of up to 2 frames.
callers_all() {
	local name=$1 funcs=$2
	shift 2
	if [ "$ASAN" = 1 ] && [ "$funcs" = '*' ]; then
		# '*' then takes in the ASan runtime's ~10,000 interceptors as well: minutes.
		skip_because "under ASan '*' traces the sanitizer runtime too (libc.so.6:* runs)"
		return 0
	fi
	XENV+=(TSC_CALLERS=2)
	run_pair "$name" "$funcs" "$@" || return 1
	one_report || return 1
	ck "__errno_location or another libc function has calls with paths of 1-2 frames" \
		'any(.functions[]; .calls > 0 and (.callers // []) != [] and
		 all(.callers[]; (.frames | length) >= 1 and (.frames | length) <= 2))' \
		'[.functions[] | select(.calls > 0) | {name, calls, callers: (.callers | length)}][0:5]'
}

test_callers_all() { callers_all callers_all '*' /bin/true; }
test_callers_all_libc() { callers_all callers_all_libc 'libc.so.6:*' /bin/true; }

# A program of its own: stdio, errno, strings; its own function's calls counted exactly.
test_callers_all_prog() {
	callers_all callers_all_prog '*' "$B/t_callers_all" || return 1
	[ -n "$SKIP_WHY" ] || check_expects "$T/t.out"
}

run_test callers_all_libc test_callers_all_libc
run_test callers_all_prog test_callers_all_prog
