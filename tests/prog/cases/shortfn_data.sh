# A 3-byte function followed by a constant of bytes that look like padding (90 90 cc cc, an
# object symbol in .text): no hook may write its jump over the constant. Traced with the
# default hook mode and TSC_HOOK=inline: the output is the untraced one (the constant
# unchanged) and every call is counted (through a trap, the function being too short).
test_shortfn_data() {
	local mode
	for mode in default inline; do
		rm -f "$T"/r.*
		XENV=()
		[ $mode = inline ] && XENV=(TSC_HOOK=inline)
		run_pair shortfn_data short_zero "$B/t_shortfn_data" && one_report &&
			check_expects "$T/t.out" || sub_failed "$mode" || return 1
		ck "$mode: short_zero is traced through a trap" 'fn("short_zero").hook == "trap"' \
			'fn("short_zero") | {hook}' || return 1
	done
}
