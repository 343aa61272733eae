# callers_walk.sh - TSC_CALLERS=N walks call paths by frame rules cached per return address
# (src/hot/frame_rules.h), and takes libunwind only where a rule is missing or one it cannot
# follow. Before, every traced call ran libunwind, whose slow path blocks signals with two
# rt_sigprocmask calls a frame: ~0.5-2 us a call. t_callers_walk calls work_add along paths
# through every kind of frame (no frame pointer, frame pointer, alloca, recursion, libc's
# qsort, a signal handler, a second thread): the paths and their counts must be exactly those
# TSC_CALLERS_UNWIND=libunwind gives on the same program (qsort is traced too: the calls of
# work_add made inside it meet its trampoline on their way out), and the walk must spare libunwind
# (counted by its rt_sigprocmask calls under strace: a few per new address, not per call).
# shellcheck shell=bash disable=SC2034,SC2015
# (XENV is read by run.sh's helpers; `a && b || fail` as in run.sh)

WALK_DEPTH=12 # deep enough to reach _start and the thread's clone

# walk_paths REPORT: "calls function <- site" of every call site, sorted.
walk_paths() {
	jq -r '.functions[] | .name as $n | .callers[] | "\(.calls) \($n) <- \(.site)"' "$1" | sort
}

test_callers_walk() {
	local calls mask_cached mask_lib lsan_off=
	XENV+=(TSC_CALLERS=$WALK_DEPTH)
	run_pair callers_walk work_add,qsort "$B/t_callers_walk" || return 1
	one_report && check_expects "$T/t.out" || return 1
	walk_paths "$REPORT" >"$T/cached.paths"
	mv "$REPORT" "$T/cached.json"
	XENV+=(TSC_CALLERS_UNWIND=libunwind)
	run_pair callers_walk work_add,qsort "$B/t_callers_walk" || return 1
	one_report || return 1
	walk_paths "$REPORT" >"$T/libunwind.paths"
	[ -s "$T/libunwind.paths" ] || fail_because "no call sites with libunwind" || return 1
	cmp -s "$T/cached.paths" "$T/libunwind.paths" ||
		fail_because "the paths differ from libunwind's: $(diff "$T/libunwind.paths" "$T/cached.paths" | head -6)" ||
		return 1
	REPORT=$T/cached.json
	ck "no frame of the shim, none 0x0" \
		'all(fn("work_add").callers[].frames[];
		     (contains("libtsctrace") or . == "0x0" or startswith("0x0 ")) | not)' \
		'[fn("work_add").callers[].site]' || return 1
	ck "paths through qsort, the signal handler and the thread" \
		'[fn("work_add").callers[].site] | any(contains("qsort") or contains("msort")) and
		 any(startswith("on_usr1+")) and any(contains("thread_main+"))' \
		'[fn("work_add").callers[].site]' || return 1

	command -v strace >/dev/null 2>&1 || { skip_because "strace is not installed"; return 0; }
	[ "$ASAN" = 1 ] && lsan_off=ASAN_OPTIONS=detect_leaks=0
	calls=$(jq -r "$JQDEFS"' fn("work_add").calls' "$REPORT")
	for mode in cached libunwind; do
		(cd "$T" && timeout -k 5 "$TIMEOUT" strace -f -qq -o "$T/st.$mode" \
			-e trace=rt_sigprocmask -E "LD_PRELOAD=$PRELOAD" -E TSC_FUNCS=work_add,qsort \
			-E TSC_CALLERS=$WALK_DEPTH -E TSC_CALLERS_UNWIND=$mode \
			-E "TSC_OUTPUT=$T/st.report" ${HOOK_ALL:+-E TSC_HOOK=$HOOK_ALL} \
			${lsan_off:+-E "$lsan_off"} "$B/t_callers_walk") >"$T/st.out" 2>"$T/st.err" ||
			fail_because "under strace: status $?: $(head -c 200 "$T/st.err")" || return 1
		if grep -q 'PTRACE_TRACEME\|Operation not permitted' "$T/st.err"; then
			skip_because "strace cannot trace here: $(head -c 200 "$T/st.err")"
			return 0
		fi
	done
	mask_cached=$(grep -c 'rt_sigprocmask(' "$T/st.cached")
	mask_lib=$(grep -c 'rt_sigprocmask(' "$T/st.libunwind")
	NOTE="$calls calls, $(wc -l <"$T/cached.paths") paths as libunwind's; rt_sigprocmask calls: cached $mask_cached, libunwind $mask_lib"
	# The signal handler's calls and the first call at each address take libunwind: a few
	# hundred system calls, where a call each would be thousands.
	[ "$mask_cached" -lt $((calls / 2)) ] ||
		fail_because "$mask_cached rt_sigprocmask calls for $calls traced calls (libunwind: $mask_lib): the cached walk is not taken" ||
		return 1
}

