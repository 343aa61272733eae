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
