# ---- kept files that are forged do not change what runs (docs/security.md) -----------------
#
# An attacker who can write the cache directory (but cannot read the key: docs/security.md)
# edits what a first run kept and makes the unkeyed hash it once carried agree. Each record's
# MAC (base/kept_mac.h) then fails: one line says so, and the run planned or scanned from the
# live code. t_cache_forged prints sums that its functions compute; a second run over the
# forged files must print the same.

# cache_forge_plans DIR: in every record of every .plan file of DIR, cf_scaled's relocated
# "add rax, 1" made "add rax, 0x50", its last 8 bytes (the MAC) made the FNV-1a that once
# checked it (the layout src/x86/reloc_keep.c asserts: bytes at +48, the copy at +80, the MAC
# last). Prints how many records were forged.
cache_forge_plans() {
	python3 - "$1" <<'PY'
import glob, struct, sys
n = 0
for p in glob.glob(sys.argv[1] + "/*.plan"):
    b = bytearray(open(p, "rb").read())
    cnt, rec, key, per, first = struct.unpack_from("<IIIII", b, 32)
    for i in range(cnt):
        at = first + i // per * 4096 + i % per * rec
        copy = b[at + 80:at + 80 + 120]
        k = copy.find(b"\x48\x83\xc0\x01")
        if k < 0:
            continue
        b[at + 80 + k + 3] = 0x50
        h = 0xcbf29ce484222325
        for c in b[at:at + rec - 8]:
            h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
        struct.pack_into("<Q", b, at + rec - 8, h)
        n += 1
    open(p, "wb").write(b)
print(n)
PY
}

# Run 1 keeps what it learnt; the plans are forged (when any are kept: a shim that keeps none
# cannot be misled by one); run 2 prints the sums of the untraced run, cf_scaled counted.
test_cache_forged() {
	local c=$T/cache n
	XENV+=(TSC_HOOK=inline "XDG_CACHE_HOME=$c")
	run_pair cache_forged cf_scaled "$B/t_cache_forged" && one_report &&
		check_expects "$T/t.out" || sub_failed "run 1" || return 1
	n=$(cache_forge_plans "$c/tsctrace") || fail_because "test setup: cannot forge plans" ||
		return 1
	NOTE="$n kept plan records forged"
	rm -f "$T"/r.*
	run_pair cache_forged cf_scaled "$B/t_cache_forged" && one_report &&
		check_expects "$T/t.out" || sub_failed "run 2, plans forged" || return 1
	[ "$n" = 0 ] || [ "$(grep -c 'failed their check' "$T/t.shim")" = 1 ] ||
		fail_because "run 2: not one line on the forged plans: $(head -c 300 "$T/t.shim")" ||
		return 1
	ck "cf_scaled patched inline" 'fn("cf_scaled").hook == "inline"' 'fn("cf_scaled")'
}

# cf_sum_to's loop jumps back into its first bytes: run 1 refuses it inline and keeps that
# answer; every kept answer is then forged into "no jump lands there". Run 2 must find the
# jump again: cf_sum_to not patched inline, the sums those of the untraced run.
test_cache_forged_xref() {
	local c=$T/cache
	XENV+=(TSC_HOOK=inline "XDG_CACHE_HOME=$c")
	run_pair cache_forged_xref cf_scaled,cf_sum_to "$B/t_cache_forged" && one_report ||
		sub_failed "run 1" || return 1
	ck "run 1: cf_sum_to not patched inline" 'fn("cf_sum_to").hook != "inline"' \
		'fn("cf_sum_to")' || return 1
	ls "$c"/tsctrace/*.xref >/dev/null 2>&1 || fail_because "run 1 kept no answers" || return 1
	python3 - "$c/tsctrace" <<'PY' || fail_because "test setup: cannot forge answers" || return 1
import glob, struct, sys
for p in glob.glob(sys.argv[1] + "/*.xref"):
    b = bytearray(open(p, "rb").read())
    n, rec, key, per, first = struct.unpack_from("<IIIII", b, 32)
    for i in range(n):
        at = first + i // per * 4096 + i % per * rec   # pages of records (base/kept_file.h)
        struct.pack_into("<QI", b, at + 32, 0, 0)      # from = 0, hit = none
    open(p, "wb").write(b)
PY
	rm -f "$T"/r.*
	run_pair cache_forged_xref cf_scaled,cf_sum_to "$B/t_cache_forged" && one_report ||
		sub_failed "run 2, answers forged" || return 1
	ck "run 2: cf_sum_to not patched inline" 'fn("cf_sum_to").hook != "inline"' \
		'fn("cf_sum_to")' || return 1
	[ "$(grep -c 'failed their check' "$T/t.shim")" = 1 ] ||
		fail_because "run 2: not one line on the forged answers: $(head -c 300 "$T/t.shim")"
}
run_test cache_forged_xref test_cache_forged_xref
