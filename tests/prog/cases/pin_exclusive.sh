# shellcheck shell=bash
# The default TSC_PIN (exclusive) on CPU-bound threads that all start on one CPU
# (t_pin_exclusive): no two pinned threads share a CPU, threads beyond the CPUs stay unpinned
# with their own mask, and a lone thread is still pinned (micro-measurements keep one clock).

# excl_run NT [BATCHES]: t_pin_exclusive with NT workers (BATCHES rounds of them) under the
# default pin; sets orig, ncpu.
excl_run() {
	rm -f "$T"/r.* "$T/side"
	XENV=()
	run_pair pin_exclusive work_add "$B/t_pin_exclusive" "$1" "$T/side" ${2:+"$2"} || return 1
	one_report && check_expects "$T/t.out" || return 1
	orig=$(side orig) ncpu=$(side ncpu)
	[ -n "$orig" ] && [ -n "$ncpu" ] || fail_because "no orig/ncpu in the side file"
}

# excl_check NT [FIRST]: of the NT workers from number FIRST (default 0) on, min(NT, ncpu)
# pinned, each to its own CPU of orig; the rest unpinned.
excl_check() {
	local nt=$1 from=${2:-0} i m want pinned=0 masks=""
	want=$((nt < ncpu ? nt : ncpu))
	for ((i = from; i < from + nt; i++)); do
		m=$(side "t$i")
		masks="$masks $m"
		if single_in "$m" "$orig"; then
			pinned=$((pinned + 1))
		elif [ "$m" != "$orig" ]; then
			fail_because "worker $i: mask $m after its first traced call, neither one CPU nor its own $orig" ||
				return 1
		fi
	done
	[ "$pinned" -eq "$want" ] ||
		fail_because "$pinned of $nt workers pinned over $ncpu CPUs, expected $want (masks:$masks)" ||
		return 1
	[ "$(for ((i = from; i < from + nt; i++)); do side "t$i"; done | grep -vx "$orig" | sort | uniq -d | wc -l)" -eq 0 ] ||
		fail_because "two live workers pinned to one CPU (masks:$masks)"
}

test_pin_exclusive() {
	local orig ncpu nt
	for nt in 2 4; do
		excl_run "$nt" || sub_failed "$nt workers" || return 1
		if [ "$ncpu" -lt 2 ]; then
			skip_because "1 CPU allowed ($orig): threads cannot be spread"
			return 0
		fi
		excl_check "$nt" && ck "threads.pinned == $((nt < ncpu ? nt : ncpu))" \
			".threads.pinned == $((nt < ncpu ? nt : ncpu))" '.threads' ||
			sub_failed "$nt workers" || return 1
	done
}

# A thread's CPU is free again when it exits: three rounds of ncpu workers (at most 16), one after the
# other, are each spread over every CPU.
test_pin_exclusive_release() {
	local orig ncpu b nt
	excl_run 1 || return 1
	if [ "$ncpu" -lt 2 ]; then
		skip_because "1 CPU allowed ($orig): threads cannot be spread"
		return 0
	fi
	nt=$((ncpu < 16 ? ncpu : 16))
	excl_run "$nt" 3 || return 1
	for b in 0 1 2; do
		excl_check "$nt" $((b * nt)) || sub_failed "round $((b + 1)) of 3" || return 1
	done
	ck "threads.pinned == $((3 * nt))" ".threads.pinned == $((3 * nt))" '.threads'
}
run_test pin_exclusive_release test_pin_exclusive_release

test_pin_exclusive_single() {
	local orig ncpu
	excl_run 0 || return 1
	single_in "$(side t0)" "$orig" ||
		fail_because "the only thread's mask after its first traced call is $(side t0), not one CPU of $orig" ||
		return 1
	ck "threads.pinned == 1" '.threads.pinned == 1' '.threads'
}
run_test pin_exclusive_single test_pin_exclusive_single
