# inlined_reason: TSC_FUNCS names a static function the compiler inlined into its callers
# (t_inlined_reason.c, built with -g). It used to say "it will be traced if a later dlopen
# brings it", which sends the user the wrong way; now the line says the program's debug
# information names it and no code of that name exists: inlined. A name nowhere at all keeps
# the dlopen wording. The report (TSC_EMPTY=1: nothing traced) keeps the line among its warnings.
test_inlined_reason() {
	# Nothing it names is found: without TSC_EMPTY=1 such a process writes no report.
	XENV=(TSC_EMPTY=1)
	run_pair inlined_reason hash_str,no_such_function_here "$B/t_inlined_reason" abc || return 1
	grep -q "^tsctrace: no function hash_str in the loaded objects: t_inlined_reason's debug information names it, but no code of that name exists: the compiler inlined it into its callers" "$T/t.shim" ||
		fail_because "no 'inlined' reason for hash_str: $(grep hash_str "$T/t.shim" | head -1)" || return 1
	grep -q "^tsctrace: no function no_such_function_here in the loaded objects: it will be traced if a later dlopen brings it" "$T/t.shim" ||
		fail_because "the unknown name's line changed: $(grep no_such "$T/t.shim" | head -1)" || return 1
	ck "the reason is among the report's warnings too" \
		'any(.warnings[]; test("hash_str.*inlined it into its callers"))' '.warnings'
}

# inlined_reason_stripped: the same program stripped (no .symtab): a name found nowhere says
# the program is stripped, for a plain name and a C++ one alike.
test_inlined_reason_stripped() {
	strip -o "$T/t_stripped" "$B/t_inlined_reason" ||
		skip_because "strip failed" || return 1
	run_pair inlined_reason_stripped 'hash_str,ns::gone(int)' env "LD_LIBRARY_PATH=$B" "$T/t_stripped" abc ||
		return 1
	grep -q "^tsctrace: no function hash_str in the loaded objects: t_stripped is stripped (no .symtab)" "$T/t.shim" &&
		grep -q "^tsctrace: no C++ function ns::gone(int) in the loaded objects: t_stripped is stripped (no .symtab)" "$T/t.shim" ||
		fail_because "no 'stripped' reason: $(grep 'no .*function' "$T/t.shim" | head -2)"
}
run_test inlined_reason_stripped test_inlined_reason_stripped
