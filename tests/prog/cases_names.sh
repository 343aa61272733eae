# cases_names.sh - program tests of names that share one address, sourced by run.sh (which has
# the helpers and the run_test lines): libnames.so exports one function as names_a and names_b
# (an alias) and names_c of its own; glibc's memcpy and memmove are one function where both
# IFUNCs choose the same implementation. Such names are one report entry ("names_a|names_b",
# their calls cannot be told apart) whose "names" lists each, in the order TSC_FUNCS gave them,
# so that a tool finds the entry by any of them, and the text report shows each as a word.
# shellcheck shell=bash disable=SC2016,SC2012,SC2034,SC2015
# (jq programs single-quoted on purpose; ls of our own files; FORMAT, OUTTPL... are read by
# run.sh's helpers; `a && b || fail` as in run.sh)

# entries(NAME): every entry that has NAME among its "names" (fn() splits "name" on '|').
# names_ok: every entry has "names", a non-empty array of strings.
JQDEFS="$JQDEFS"'
def entries($n): [.functions[] | select(.names | type == "array" and any(.[]; . == $n))];
def names_ok: all(.functions[]; .names | type == "array" and length > 0 and all(.[]; type == "string"));
'

# one_alias A B: the report has one entry for A and B, named "A|B" with names [A, B], and
# CALLS calls (when given).
one_alias() {
	local a=$1 b=$2 calls=${3:-}
	ck "every entry has names (a non-empty array of strings)" 'names_ok' \
		'[.functions[] | {name, names}]' || return 1
	ck "$a and $b: one entry found by either name, names [\"$a\", \"$b\"], name \"$a|$b\"${calls:+, $calls calls}" \
		"(entries(\"$a\") | length) == 1 and entries(\"$a\") == entries(\"$b\") and
		 (entries(\"$a\")[0] | .names == [\"$a\", \"$b\"] and .name == \"$a|$b\"
		  ${calls:+and .calls == $calls})" \
		'[.functions[] | {name, names, calls}]'
}

# text_finds NAME ENTRY OBJECT: `grep -w NAME` of the text report $REPORT finds the row of
# ENTRY (the display name) in each of the three tables and its histogram heading.
text_finds() {
	local n=$1 entry=$2 obj=$3 lines
	lines=$(grep -w -- "$n" "$REPORT")
	[ "$(awk -v e="$entry " 'index($0, e) == 1' <<<"$lines" | wc -l)" -eq 3 ] ||
		fail_because "grep -w $n of the text report: not the three table rows of $entry: $lines" ||
		return 1
	grep -qF -- "histogram of $entry in $obj" <<<"$lines" ||
		fail_because "grep -w $n of the text report: no 'histogram of $entry in $obj': $lines"
}

# TSC_FUNCS=names_a,names_b,names_c: one entry of 1000 calls with names [names_a, names_b],
# names_c on its own; TSC_FUNCS=names_b,names_a: names [names_b, names_a]. Then the text
# report: the function column says names_a|names_b, and grep -w finds its rows and its
# histogram by either name.
test_names_alias() {
	[ "$(nm -D "$B/libnames.so" | awk '$3 == "names_a" || $3 == "names_b" { print $1 }' |
		sort -u | wc -l)" -eq 1 ] ||
		fail_because "test setup: names_a and names_b of libnames.so are not one address" || return 1
	run_pair names_alias names_a,names_b,names_c "$B/t_names" || return 1
	one_report && check_expects "$T/t.out" && one_alias names_a names_b 1000 || return 1
	ck "names_c: its own entry, names [\"names_c\"]" \
		'(entries("names_c") | length) == 1 and entries("names_c")[0].names == ["names_c"]' \
		'[.functions[] | {name, names}]' || return 1

	rm -f "$T"/r.*
	run_pair names_alias names_b,names_a "$B/t_names" || sub_failed "TSC_FUNCS=names_b,names_a" ||
		return 1
	one_report && one_alias names_b names_a 1000 || sub_failed "TSC_FUNCS=names_b,names_a" ||
		return 1

	rm -f "$T"/r.*
	FORMAT=text OUTTPL="$T/r.%p.txt"
	run_pair names_alias names_a,names_b,names_c "$B/t_names" || sub_failed "text" || return 1
	[ -n "$REPORT" ] || fail_because "text: no single report: $(ls -A "$T" | tr '\n' ' ')" ||
		return 1
	text_finds names_a 'names_a|names_b' libnames.so &&
		text_finds names_b 'names_a|names_b' libnames.so &&
		text_finds names_c names_c libnames.so
}

# A glob matching both names: one entry, both names (in the order the symbol table has them).
test_names_glob() {
	run_pair names_glob 'names_*' "$B/t_names" || return 1
	one_report && check_expects "$T/t.out" || return 1
	ck "names_*: one entry for names_a and names_b, both in names, 1000 calls" \
		'names_ok and (entries("names_a") | length) == 1 and entries("names_a") == entries("names_b")
		 and (entries("names_a")[0] | (.names | sort) == ["names_a", "names_b"] and .calls == 1000
		      and .name == (.names | join("|")))' \
		'[.functions[] | {name, names, calls}]'
}

# TSC_FUNCS=memcpy,memmove on sort: where glibc resolves both to one implementation (dlsym
# gives one address), one entry, names [memcpy, memmove], found by either name in the JSON
# and in the text report. Elsewhere (another glibc, a sanitizer's interceptors) a skip.
test_names_memcpy() {
	local same
	same=$("$B/t_names" same memcpy memmove 2>&1)
	if [ "$same" != same ]; then
		[ "$same" = differ ] ||
			fail_because "test setup: t_names same memcpy memmove said: $same" || return 1
		skip_because "memcpy and memmove are two addresses here (dlsym): nothing shares a name"
		return 0
	fi
	make_input
	run_pair names_memcpy memcpy,memmove sort -k2,2 -k1,1n in.txt || return 1
	one_report && one_alias memcpy memmove || return 1
	ck "memcpy|memmove: calls > 0" 'entries("memmove")[0].calls > 0' \
		'entries("memmove") | map(counts)' || return 1

	rm -f "$T"/r.*
	FORMAT=text OUTTPL="$T/r.%p.txt"
	run_pair names_memcpy memmove,memcpy sort -k2,2 -k1,1n in.txt || return 1
	[ -n "$REPORT" ] || fail_because "no single text report: $(ls -A "$T" | tr '\n' ' ')" ||
		return 1
	text_finds memcpy 'memmove|memcpy' libc.so.6 && text_finds memmove 'memmove|memcpy' libc.so.6 ||
		sub_failed "TSC_FUNCS=memmove,memcpy, text"
}

# C++ names as c++filt prints them (t_cxxnames, libcxxn.so). TSC_FUNCS='ns::foo,
# ns::Klass::method prog::local': both overloads of ns::foo, each its own entry, the method,
# and the program's own function (not exported: found in its .symtab), with exact counts;
# "name" keeps the mangled symbol, "demangled" the signature. A parameter list picks one
# overload (std::string for the long basic_string<char...>), an object limits the search, and
# the text report shows the demangled signatures, a long one shortened (std::string for the
# long basic_string<char...>, whole with tsctrace report --wide).
CXX_STR='ns::foo(std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> > const&)'
test_cxx_names() {
	run_pair cxx_names 'ns::foo,ns::Klass::method prog::local' "$B/t_cxxnames" || return 1
	one_report || return 1
	ck "four entries: ns::foo(string) 300, ns::foo(int) 200, ns::Klass::method(int) 150, prog::local(int) 70, named by symbol, demangled beside" \
		"[.functions[] | {name, demangled, calls}] | sort_by(.name) == [
		 {name: \"_ZN2ns3fooERKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEE\",
		  demangled: \"$CXX_STR\", calls: 300},
		 {name: \"_ZN2ns3fooEi\", demangled: \"ns::foo(int)\", calls: 200},
		 {name: \"_ZN2ns5Klass6methodEi\", demangled: \"ns::Klass::method(int)\", calls: 150},
		 {name: \"_ZN4prog5localEi\", demangled: \"prog::local(int)\", calls: 70}]" \
		'[.functions[] | {name, demangled, calls}]' || return 1
	ck "calls == timed + unwound + migrated + dropped" \
		'all(.functions[]; .calls == .timed + .unwound + .migrated + .dropped)' \
		'[.functions[] | counts]' || return 1

	rm -f "$T"/r.*
	run_pair cxx_names 'ns::foo(std::string const&), ns::foo( int ) libcxxn.so:ns::Klass::method(int)' \
		"$B/t_cxxnames" || sub_failed "parameter lists" || return 1
	one_report && ck "parameter lists: one entry per overload named, exact counts" \
		'[.functions[] | {demangled, calls}] | sort_by(.calls) == [
		 {demangled: "ns::Klass::method(int)", calls: 150},
		 {demangled: "ns::foo(int)", calls: 200},
		 {demangled: "'"$CXX_STR"'", calls: 300}]' \
		'[.functions[] | {name, demangled, calls}]' || sub_failed "parameter lists" || return 1

	rm -f "$T"/r.*
	FORMAT=text OUTTPL="$T/r.%p.txt"
	run_pair cxx_names 'ns::foo,ns::Klass::method' "$B/t_cxxnames" || sub_failed "text" || return 1
	[ -n "$REPORT" ] || fail_because "text: no single report: $(ls -A "$T" | tr '\n' ' ')" ||
		return 1
	grep -qF "histogram of ns::Klass::method(int) in libcxxn.so" "$REPORT" &&
		grep -qE '^ns::foo\(int\) +200 ' "$REPORT" &&
		grep -qE '^ns::foo\(std::string const&\) +300 ' "$REPORT" &&
		! grep -v '^warning:' "$REPORT" | grep -qF "$CXX_STR" &&
		! grep -q '_ZN2ns3fooEi ' <(grep -v '  inline  \|  got  ' "$REPORT") ||
		fail_because "text report: not the demangled names, long ones shortened: $(head -c 600 "$REPORT")" ||
		return 1
	# tsctrace report shortens the same way; --wide shows the full name.
	rm -f "$T"/r.*
	FORMAT=json OUTTPL="$T/r.%p.json"
	run_pair cxx_names 'ns::foo' "$B/t_cxxnames" || sub_failed "json" || return 1
	"$(dirname "$LIB")/tsctrace" report "$REPORT" >"$T/short.txt" 2>&1 &&
		"$(dirname "$LIB")/tsctrace" report --wide "$REPORT" >"$T/wide.txt" 2>&1 ||
		fail_because "tsctrace report failed: $(head -c 300 "$T/short.txt" "$T/wide.txt")" || return 1
	grep -qE '^ns::foo\(std::string const&\) +300 ' "$T/short.txt" &&
		grep -v "^warning:" "$T/wide.txt" | grep -qF "$CXX_STR" &&
		! grep -v "^warning:" "$T/short.txt" | grep -qF "$CXX_STR" ||
		fail_because "report: not shortened, or --wide not whole: $(grep -F 'ns::foo(std' "$T/short.txt" "$T/wide.txt" | head -c 400)"
}

# t_cxxstack: ns::wide, whose 490 parameters take the demangler about 200 KiB of stack, called
# 33 times from a thread with a 64 KiB stack that then calls exit(): the report is written on
# that thread, in both formats, and the program ends as it would untraced (the shim demangles
# on a stack of its own, base/altstack.h).
test_cxx_small_stack() {
	run_pair cxx_small_stack 'ns::wide' "$B/t_cxxstack" || return 1
	one_report && ck "ns::wide: 33 calls, demangled whole (490 parameters)" \
		'[.functions[] | select(.demangled // "" | startswith("ns::wide(int, int, "))
		  | [.calls, (.demangled | length) > 2000]] == [[33, true]]' \
		'[.functions[] | {name: .name[0:40], calls, demangled: (.demangled // "")[0:40]}]' ||
		return 1
	rm -f "$T"/r.*
	FORMAT=text OUTTPL="$T/r.%p.txt"
	run_pair cxx_small_stack 'ns::wide' "$B/t_cxxstack" || sub_failed "text" || return 1
	[ -n "$REPORT" ] && grep -qE '^ns::wide\(int, int, int' "$REPORT" ||
		fail_because "text: no row of ns::wide(int, int, ...): $(head -c 300 "${REPORT:-/dev/null}")"
}
