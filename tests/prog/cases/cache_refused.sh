# ---- a cache that others may have written is refused (base/cache_dir.h, docs/security.md) ---
#
# Run 1 keeps cf_sum_to's own-jump answer (t_cache_forged: a jump at +0x8 back into its first
# bytes); it is forged into "a jump at +0x3" and signed with the cache's key
# (cases/kept_mac.py), so that a run reading it says +0x3 where one that scans says +0x8.
# Then, in turn, the cache directory or its parent is made writable by all, or the directory,
# the answers' file or the key (base/cache_key.h) is given to nobody: each run says one line
# refusing the cache, prints what the untraced run prints, scans afresh (+0x8, not +0x3) and
# writes nothing there. Last, files and directories made under umask 0277 are 0600 and 0700.

# cache_refused_listing DIR: names, modes, owners, sizes and times of DIR's files.
cache_refused_listing() {
	find "$1" -exec stat -c '%n %a %U %s %Y.%y' {} + | sort
}

# cache_refused_run WHAT: run 2 with the cache as WHAT made it: refused, as above.
cache_refused_run() {
	local what=$1 before n
	before=$(cache_refused_listing "$T/cache")
	rm -f "$T"/r.*
	run_pair cache_refused cf_scaled,cf_sum_to "$B/t_cache_forged" && one_report &&
		check_expects "$T/t.out" || sub_failed "$what" || return 1
	n=$(grep -c 'the cache is not used' "$T/t.shim")
	[ "$n" = 1 ] || fail_because "$what: $n refusal lines, expected 1: $(head -c 400 "$T/t.shim")" ||
		return 1
	grep -q 'cf_sum_to.*a jump at +0x8 goes back' "$T/t.shim" ||
		fail_because "$what: the kept answer was read, or no scan: $(grep cf_sum_to "$T/t.shim")" ||
		return 1
	[ "$(cache_refused_listing "$T/cache")" = "$before" ] ||
		fail_because "$what: the cache was written: $(diff <(echo "$before") <(cache_refused_listing "$T/cache") | head -4)"
}

test_cache_refused() {
	local c=$T/cache d=$T/cache/tsctrace
	[ "$(id -u)" = 0 ] || skip_because "giving files to nobody takes root" || return 1
	XENV+=(TSC_HOOK=inline "XDG_CACHE_HOME=$c")
	run_pair cache_refused cf_scaled,cf_sum_to "$B/t_cache_forged" && one_report ||
		sub_failed "run 1" || return 1
	ls "$d"/*.xref >/dev/null 2>&1 || fail_because "run 1 kept no answers" || return 1
	python3 - "$d" <<'PY' || fail_because "test setup: cannot forge answers" || return 1
import glob, struct, sys
for p in glob.glob(sys.argv[1] + "/*.xref"):
    b = bytearray(open(p, "rb").read())
    n, rec, key, per, first = struct.unpack_from("<IIIII", b, 32)
    for i in range(n):
        at = first + i // per * 4096 + i % per * rec   # pages of records (base/kept_file.h)
        if struct.unpack_from("<I", b, at + 40)[0]:
            struct.pack_into("<Q", b, at + 32, 3)   # the jump said to be at +0x3
    open(p, "wb").write(b)
PY
	# signed with the key as the shim would (run as this user, the test can read it)
	python3 "${BASH_SOURCE[0]%/*}/kept_mac.py" "$d"/*.xref ||
		fail_because "test setup: cannot sign the forged answers" || return 1
	rm -f "$T"/r.*
	run_pair cache_refused cf_scaled,cf_sum_to "$B/t_cache_forged" && one_report ||
		sub_failed "run 2, trusted" || return 1
	grep -q 'cf_sum_to.*a jump at +0x3 goes back' "$T/t.shim" ||
		fail_because "test setup: the kept answer was not read: $(grep cf_sum_to "$T/t.shim")" ||
		return 1
	! grep -q 'the cache is not used' "$T/t.shim" ||
		fail_because "a cache of one's own refused: $(grep 'not used' "$T/t.shim")" || return 1
	chmod 0777 "$d" && cache_refused_run "directory 0777" && chmod 0700 "$d" || return 1
	chmod 0777 "$c" && cache_refused_run "parent 0777" && chmod 0700 "$c" || return 1
	chown nobody "$d" && cache_refused_run "directory nobody's" && chown root "$d" || return 1
	chown nobody "$d"/*.xref && cache_refused_run "file nobody's" && chown root "$d"/*.xref ||
		return 1
	chown nobody "$d/key" && cache_refused_run "key nobody's" && chown root "$d/key" || return 1
	rm -rf "$c"
	(umask 0277 && exec env "XDG_CACHE_HOME=$c" TSC_HOOK=inline TSC_FUNCS=cf_scaled \
		"TSC_OUTPUT=$T/r.%p" "LD_PRELOAD=$PRELOAD" "$B/t_cache_forged" >/dev/null 2>&1)
	[ "$(find "$c" -type d ! -perm 0700 | head -1)$(find "$c" -type f ! -perm 0600 | head -1)" = "" ] &&
		[ -n "$(find "$c" -type f | head -1)" ] ||
		fail_because "under umask 0277: $(find "$c" -exec stat -c '%a %n' {} + | head -4)"
}
