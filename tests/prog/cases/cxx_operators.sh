# cxx_operators: TSC_FUNCS names written as c++filt prints them, spaces and commas included
# (t_cxx_operators.cc). 'operator new(unsigned long)' used to be split at its space ("no
# function operator"); now it is one entry, as are the sized operator delete and a member of
# a class template with ", " and "> >" in its template arguments. Exact counts: 37, 37, 11.
test_cxx_operators() {
	run_pair cxx_operators 'operator new(unsigned long),operator delete(void*, unsigned long) tt::Box<int, std::allocator<int> >::put(int const&)' \
		"$B/t_cxx_operators" || return 1
	one_report || return 1
	ck "operator new 37, operator delete 37, Box::put 11, each by its symbol" \
		'[.functions[] | {name, demangled, calls}] | sort_by(.name) == [
		 {name: "_ZN2tt3BoxIiSaIiEE3putERKi",
		  demangled: "tt::Box<int, std::allocator<int> >::put(int const&)", calls: 11},
		 {name: "_ZdlPvm", demangled: "operator delete(void*, unsigned long)", calls: 37},
		 {name: "_Znwm", demangled: "operator new(unsigned long)", calls: 37}]' \
		'[.functions[] | {name, demangled, calls}]' || return 1
	! grep -q 'no function\|no C++ function\|malformed' "$T/t.shim" ||
		fail_because "the shim did not find a name: $(head -3 "$T/t.shim")"
}

# cxx_warning_cut: a warning longer than the report keeps (a C++ name of 430 characters
# found nowhere) is cut at a space and ends " ...", never inside a type; stderr has it whole.
test_cxx_warning_cut() {
	local type="std::map<int, std::vector<long, std::allocator<long> >, std::less<int>, std::allocator<std::pair<int const, std::vector<long, std::allocator<long> > > > > const&"
	local long="ns::absent($type, $type, $type)"
	run_pair cxx_warning_cut "operator new(unsigned long),$long" "$B/t_cxx_operators" || return 1
	one_report || return 1
	grep -qF "no C++ function $long in the loaded objects" "$T/t.shim" ||
		fail_because "stderr lacks the whole line: $(head -c 200 "$T/t.shim")" || return 1
	ck "the kept warning is cut at a space, with ' ...'" \
		'any(.warnings[]; startswith("no C++ function ns::absent(") and endswith(" ...") and
		     (.[:-4] | test("[ ]$") | not) and (length <= 400))' \
		'[.warnings[] | select(startswith("no C++")) | .[-60:]]'
}
run_test cxx_warning_cut test_cxx_warning_cut
