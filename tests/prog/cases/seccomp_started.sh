# seccomp_started: a program started under a seccomp filter that kills the process for
# perf_event_open (a service's SystemCallFilter does so by default). Keeping the slowest
# calls' time off the CPU opens a perf event per thread: under a filter the shim must not try,
# or the program dies of SIGSYS at its first traced call. Traced as untraced (output, status),
# the report there, offcpu_ns null with the warning saying why. The launcher itself is not
# traced: only the program it runs under the filter.
test_seccomp_started() {
	local -a tenv=("LD_PRELOAD=$PRELOAD" TSC_FUNCS=work_add TSC_FORMAT=json "TSC_OUTPUT=$T/r.%p.json")
	local ust tst
	{ "$B/t_seccomp_started" "$B/t_threads" >"$T/u.out" 2>"$T/u.err"; } 2>/dev/null
	ust=$?
	[ "$ust" -ne 77 ] || { skip_because "this kernel refuses the seccomp filter: $(head -1 "$T/u.err")"; return 0; }
	{ "$B/t_seccomp_started" env "${tenv[@]}" "$B/t_threads" >"$T/t.out" 2>"$T/t.err"; } 2>/dev/null
	tst=$?
	[ "$tst" -eq "$ust" ] || fail_because "exit status $tst traced, $ust untraced; stderr: $(head -c 300 "$T/t.err")" ||
		return 1
	cmp -s "$T/u.out" "$T/t.out" || fail_because "stdout differs: $(head -c 200 "$T/t.out")" || return 1
	REPORT=$(find "$T" -maxdepth 1 -name 'r.*.json' | head -1)
	one_report && check_expects "$T/t.out" || return 1
	ck "offcpu_ns null in every kept call, the warning saying seccomp" \
		'all(fn("work_add").slowest[]; .offcpu_ns == null) and
		 any(.warnings[]; test("offcpu_ns") and test("seccomp"))' \
		'{slowest: (fn("work_add").slowest | length), warnings}'
}
