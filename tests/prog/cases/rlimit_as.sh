# shellcheck shell=bash
# rlimit_as: a program that caps RLIMIT_AS at its size + 1 MiB (t_rlimit_as.c), then calls
# work_add 1,000 times in the main thread and work_leaf 1,000 times in a new thread. Before,
# neither thread could map its block and the report said `calls 0` with no warning. Now the
# main thread takes the block the shim mapped at start-up (its calls are timed, the cold
# first one aside), and the thread's 1,000 calls are counted untimed, with one warning
# giving that exact number.
test_rlimit_as() {
	local n
	[ "$ASAN" = 1 ] && {
		skip_because "under ASan the program fails untraced: its thread start maps 2 MiB past a cap of its size + 1 MiB"
		return 0
	}
	run_pair rlimit_as work_add,work_leaf "$B/t_rlimit_as" || return 1
	one_report && check_expects "$T/t.out" || return 1
	ck "work_add (main thread, reserved block): 999 timed or migrated, the cold one dropped" \
		'fn("work_add") | .timed + .migrated == 999 and .dropped == 1' 'fn("work_add") | counts' ||
		return 1
	ck "work_leaf (thread without a block): all 1000 counted, none timed" \
		'fn("work_leaf") | .dropped == 1000 and .timed == 0' 'fn("work_leaf") | counts' || return 1
	ck "the report warns of exactly 1000 calls of 1 thread" \
		'[.warnings[] | select(startswith("1000 traced calls counted, not timed: 1 thread(s) could not map"))] | length == 1' \
		'.warnings' || return 1
	n=$(grep -c '^tsctrace: 1000 traced calls counted, not timed: 1 thread(s)' "$T/t.shim")
	[ "$n" -eq 1 ] || fail_because "$n lines say the 1000 untimed calls, expected 1: $(head -3 "$T/t.shim")"
}
