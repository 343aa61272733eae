# ---- a kept plan with a valid MAC but stale first bytes is not used (x86/reloc_keep.h) ------
#
# The MAC says who wrote a plan, not that it still fits the code: run 1 keeps the plans of
# libwork.so's functions; in each, the function's kept first byte is changed and the record
# signed again with the cache's key (cases/kept_mac.py, as the shim would sign a plan made
# from another build of the function). Run 2 must plan from the live code (libZydis loaded),
# print what the untraced run prints with exact counts, and say nothing of a failed check (the
# MAC is valid); run 3 uses the plans run 2 kept instead (no decoder).
test_plan_cache_stale() {
	local c=$T/cache side=$T/side f
	local PLAN_FUNCS=work_spin,work_add,work_empty,work_never
	local PLAN_HOOKS="work_spin=inline work_add=inline work_empty=inline work_never=inline"
	XENV+=(TSC_HOOK=inline "XDG_CACHE_HOME=$c" LD_DEBUG=files)
	CMP_STDERR=0
	plan_run "run 1, nothing kept" yes "$B/t_report" "$side" || return 1
	f=$(find "$c/tsctrace" -name '*.plan' -newer "$B/libwork.so" 2>/dev/null | head -1)
	[ -n "$f" ] || fail_because "no plans kept: $(ls "$c/tsctrace" 2>&1)" || return 1
	plan_run "run 2, plans kept" no "$B/t_report" "$side" || return 1
	python3 - "$c/tsctrace" <<'PY' || fail_because "test setup: cannot edit plans" || return 1
import glob, struct, sys
for p in glob.glob(sys.argv[1] + "/*.plan"):
    b = bytearray(open(p, "rb").read())
    n, rec, key, per, first = struct.unpack_from("<IIIII", b, 32)
    for i in range(n):
        at = first + i // per * 4096 + i % per * rec   # pages of records (base/kept_file.h)
        b[at + 48] ^= 1                                 # the first kept byte of the function
    open(p, "wb").write(b)
PY
	python3 "${BASH_SOURCE[0]%/*}/kept_mac.py" "$c"/tsctrace/*.plan ||
		fail_because "test setup: cannot sign the edited plans" || return 1
	plan_run "stale plans, MAC valid" yes "$B/t_report" "$side" || return 1
	! grep -q 'failed their check' "$T/t.shim" ||
		fail_because "a valid MAC said to fail: $(grep 'failed their check' "$T/t.shim")" ||
		return 1
	plan_run "after stale plans, rewritten" no "$B/t_report" "$side"
}
