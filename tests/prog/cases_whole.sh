# cases_whole.sh - program tests sourced by run.sh: whole libraries traced, past the 1,023
# functions (and 256 per glob) the shim once stopped at.
# shellcheck shell=bash disable=SC2016

# Every function of libsqlite3 (1,370 exported in Debian's 3.40) while SQLite runs statements:
# output identical, every function in the report, the count of the one the program alone
# calls exact, no line about too many functions.
test_whole_sqlite() {
	local n
	[ -x "$B/t_sqlite" ] || {
		skip_because "libsqlite3.so.0 is not installed (Debian package libsqlite3-0)"
		return 0
	}
	run_pair whole_sqlite 'libsqlite3.so.0:*' "$B/t_sqlite" || return 1
	one_report && check_expects "$T/t.out" || return 1
	! grep -q 'too many\|only the first' "$T/t.shim" ||
		fail_because "capped: $(grep 'too many\|only the first' "$T/t.shim" | head -1)" || return 1
	n=$(nm -D --defined-only "$(ldd "$B/t_sqlite" | awk '/libsqlite3/ { print $3 }')" |
		awk '$2 == "T" || $2 == "i"' | wc -l)
	ck "every exported function of libsqlite3 is in the report ($n)" \
		"[.functions[].names[]] | length >= $n - 10" '[.functions | length]' || return 1
	ck "more than 50 of them called" '[.functions[] | select(.calls > 0)] | length > 50' \
		'[.functions[] | select(.calls > 0) | .name] | length' || return 1
	NOTE="$(jq '.functions | length' "$REPORT") entries, $(jq '[.functions[] | select(.calls > 0)] | length' "$REPORT") called"
}

# Every function of libc (over 2,000) and one of the program's libraries: exact count of
# that one, output identical.
test_whole_libc() {
	run_pair whole_libc 'libc.so.6:*,work_add' "$B/t_basic" || return 1
	one_report && check_expects "$T/t.out" || return 1
	ck "over 1,023 entries" '.functions | length > 1023' '.functions | length' || return 1
	NOTE="$(jq '.functions | length' "$REPORT") entries"
}

# More functions than a 16-bit index counts: the 70,000 of libmany.so (gen_many.sh), loaded by
# dlopen after the thread's first traced call (its table of counters grows), each in the
# report, those called (every one of index >= 65,000 and every 101st below, i % 3 + 1 times)
# with exact counts, the others with none; output identical; no line about a cap.
test_whole_many() {
	# Hooking 70,000 functions takes seconds, more under ASan on a loaded machine.
	local got TIMEOUT=$((TIMEOUT * 3))
	run_pair whole_many 'libmany.so:*,strlen' "$B/t_many" 70000 || return 1
	one_report || return 1
	! grep -q 'too many\|only the first\|no memory' "$T/t.shim" ||
		fail_because "capped: $(grep 'too many\|only the first\|no memory' "$T/t.shim" | head -1)" ||
		return 1
	# One pass of jq over the report (60 MB): the number of many_f entries, those whose count
	# is not the expected one, how many were called, strlen's count.
	got=$(jq -c '[.functions[] | select(.name | startswith("many_f")) |
		{i: (.name[6:] | tonumber), c: .calls}] as $m |
		[($m | length), [$m[] | select(.c != (if .i >= 65000 or .i % 101 == 0 then .i % 3 + 1
			else 0 end)) | "many_f\(.i)=\(.c)"][:3], ([$m[] | select(.c > 0)] | length),
		[.functions[] | select(.name == "strlen") | .calls]]' "$REPORT") ||
		fail_because "jq could not read the report" || return 1
	[ "$got" = '[70000,[],5644,[1]]' ] ||
		fail_because "[many_f entries, wrong counts, called, strlen] = $got, expected [70000,[],5644,[1]]" ||
		return 1
	# Some of the called ones stay for the schema check at the end (all would take minutes).
	jq -c '.functions |= [.[] | select(.calls > 0)][:200]' "$REPORT" >"$T/called.tmp" &&
		mv "$T/called.tmp" "$REPORT" || fail_because "could not shrink the report" || return 1
	NOTE="70000 functions traced, 5644 called with exact counts"
}
