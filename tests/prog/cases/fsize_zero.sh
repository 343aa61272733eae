# fsize_zero: RLIMIT_FSIZE=0 set by a program that writes no file (t_fsize_zero.c). Traced, it
# must exit as untraced: the shim's write of its report file fails with EFBIG, and the
# SIGXFSZ that write raised used to kill the program. The report, which no file can hold,
# goes to stderr with one line saying why (docs/report-delivery.md's fallback). Both runs
# write into pipes (a file would be past the limit for the program's own output too).
# The readers are pipeline members, not process substitutions: the shell waits for them, so
# the files are complete on return however long a busy machine keeps them from running.
fsize_run() {
	local side=$1
	shift
	{ (cd "$T" && exec timeout -k 5 "$TIMEOUT" "$@") 2>&1 >&3 3>&- | cat >"$T/$side.err"
	  echo "${PIPESTATUS[0]}" >"$T/$side.status"; } 3>&1 | cat >"$T/$side.out"
	return "$(cat "$T/$side.status")"
}

test_fsize_zero() {
	local ust tst rep
	local -a tenv=("LD_PRELOAD=$PRELOAD" TSC_FUNCS=work_add TSC_FORMAT=json "TSC_OUTPUT=$T/r.%p.json")
	[ -n "$HOOK_ALL" ] && tenv+=("TSC_HOOK=$HOOK_ALL")
	[ -n "$CPU_ALL" ] && tenv+=("TSC_CPU=$CPU_ALL")
	{ fsize_run u "$B/t_fsize_zero"; } 2>/dev/null
	ust=$?
	{ fsize_run t env "${tenv[@]}" "$B/t_fsize_zero"; } 2>/dev/null
	tst=$?
	[ "$ust" -eq 0 ] || fail_because "untraced run: status $ust (test broken?)" || return 1
	[ "$tst" -eq 0 ] || fail_because "traced run: status $tst$(signame "$tst"), 0 untraced" || return 1
	cmp -s "$T/u.out" "$T/t.out" || fail_because "stdout differs: $(diff "$T/u.out" "$T/t.out" | head -4)" ||
		return 1
	[ -z "$(find "$T" -maxdepth 1 -name 'r.*')" ] ||
		fail_because "a report file was left despite RLIMIT_FSIZE=0" || return 1
	grep '^tsctrace: ' "$T/t.err" >"$T/t.shim"
	grep -q 'too large' "$T/t.shim" ||
		fail_because "no line says the file was too large: $(head -3 "$T/t.shim")" || return 1
	rep=$T/stderr.json
	grep -v '^tsctrace: ' "$T/t.err" >"$rep"
	is_json "$rep" || fail_because "stderr holds no JSON report: $(head -c 200 "$T/t.err")" || return 1
	REPORT=$rep
	check_expects "$T/t.out"
}
