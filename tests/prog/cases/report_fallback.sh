# report_fallback: a worker that became `nobody` (as nginx's do) cannot write its report into
# the root-owned 0755 directory TSC_OUTPUT names, and its stderr is /dev/null (daemons are
# started so). Before, the report went to that /dev/null: lost, and no line anywhere. Now it
# goes to $TMPDIR, mode 0600, owned by nobody, with the exact count (t_report_fallback.c).
# report_umask: a program that sets umask 0 got a report of mode 0666; now none is writable
# by group or others.
test_report_fallback() {
	local d ust tst nobody files f
	[ "$(id -u)" = 0 ] || { skip_because "needs root, to become user nobody"; return 0; }
	nobody=$(id -u nobody 2>/dev/null) || { skip_because "no user nobody"; return 0; }
	# Outside $T, which is root's alone (nobody could not reach $TMPDIR under it).
	d=$(mktemp -d "${TMPDIR:-/tmp}/tsctrace-fallback.XXXXXX") || return 1
	chmod 0755 "$d" && mkdir -m 0755 "$d/reports" && mkdir -m 1777 "$d/tmp" || return 1
	(cd "$T" && exec timeout -k 5 "$TIMEOUT" "$B/t_report_fallback" nobody) >"$T/u.out" 2>/dev/null
	ust=$?
	(cd "$T" && exec timeout -k 5 "$TIMEOUT" env "LD_PRELOAD=$PRELOAD" TSC_FUNCS=work_add \
		TSC_FORMAT=json "TSC_OUTPUT=$d/reports/r.%p.json" "TMPDIR=$d/tmp" \
		${HOOK_ALL:+"TSC_HOOK=$HOOK_ALL"} ${CPU_ALL:+"TSC_CPU=$CPU_ALL"} \
		"$B/t_report_fallback" nobody) >"$T/t.out" 2>/dev/null
	tst=$?
	files=$(find "$d" -type f | sort)
	cp -a "$d" "$T/staged" 2>/dev/null
	rm -rf "$d"
	[ "$ust" = 0 ] || fail_because "untraced run: status $ust (test broken?)" || return 1
	[ "$tst" = 0 ] || fail_because "traced run: status $tst, 0 untraced" || return 1
	cmp -s "$T/u.out" "$T/t.out" || fail_because "stdout differs" || return 1
	f=$(printf '%s\n' "$files" | grep -E "^$d/tmp/tsctrace\.t_report_fallback\.[0-9]+\.[0-9a-f]{8}\.json$")
	[ -n "$f" ] && [ "$(printf '%s\n' "$files" | wc -l)" = 1 ] ||
		fail_because "wanted one report in \$TMPDIR and no other file, found: ${files:-nothing}" ||
		return 1
	f=$T/staged/tmp/${f##*/}
	[ "$(stat -c %a "$f")" = 600 ] || fail_because "mode $(stat -c %a "$f"), not 600" || return 1
	[ "$(stat -c %u "$f")" = "$nobody" ] ||
		fail_because "owned by uid $(stat -c %u "$f"), not nobody's $nobody" || return 1
	REPORT=$f
	is_json "$REPORT" || fail_because "the report in \$TMPDIR is not one JSON object" || return 1
	check_expects "$T/t.out"
}

test_report_umask() {
	run_pair report_umask work_add "$B/t_report_fallback" umask && one_report &&
		check_expects "$T/t.out" || return 1
	[ $((8#$(stat -c %a "$REPORT") & 8#022)) = 0 ] ||
		fail_because "report mode $(stat -c %a "$REPORT"): writable by group or others" ||
		return 1
}
run_test report_umask test_report_umask
