# jump_false: t_jump_false (-O0) traces a, b and c inline with TSC_HOOK=inline: none refused,
# 1000 calls each. Before, bytes inside the C runtime's register_tm_clones (a function symbol
# of size 0, no unwind entry: not decoded) read as a loopne into b, and the program's own
# lookalikes (t_jump_false.c) as jumps into all three. Real jumps are still found: d is refused
# for jf_real_jump's jmp (the line gives its exact distance), and e for the bytes of jf_table,
# data in .text, with the line saying they were read byte by byte.

# jf_sym SYMBOL: its value in t_jump_false's .symtab, as a number.
jf_sym() {
	local v
	v=$(nm "$B/t_jump_false" | awk -v s="$1" '$3 == s { print $1; exit }')
	echo $((16#${v:-0}))
}

# jf_crt_note: NOTE says whether this build staged the issue's own case (the e0 after
# register_tm_clones's ff e0 read as a loopne into b's first bytes).
jf_crt_note() {
	local r b at rel
	r=$(jf_sym register_tm_clones) b=$(jf_sym b)
	at=$(objdump -d "$B/t_jump_false" | awk -v f="<register_tm_clones>:" \
		'$2 == f { p = 1; next } p && /^$/ { exit } p && $2 == "ff" && $3 == "e0" { sub(":", "", $1); print $1; exit }')
	[ -n "$at" ] && [ "$r" -gt 0 ] || { NOTE="no jmp *%rax in register_tm_clones here"; return 0; }
	rel=$(od -An -tu1 -j $((16#$at + 2)) -N1 "$B/t_jump_false" | tr -d ' ')
	[ "$rel" -lt 128 ] && [ $((16#$at + 3 + rel)) -gt "$b" ] && [ $((16#$at + 3 + rel)) -lt $((b + 5)) ] ||
		NOTE="the C runtime's e0 does not reach b in this build: the program's lookalikes stand in"
}

# jf_refused FUNCTION FROM: the one line refusing FUNCTION inline gives the distance FROM
# (the jump's address minus FUNCTION's); prints the line.
jf_refused() {
	local line
	line=$(grep -F "tsctrace: $1 (in (program)): not patched inline (a jump from " "$T/t.shim")
	[ "$(printf '%s\n' "$line" | grep -c .)" = 1 ] ||
		fail_because "expected one line refusing $1: $(head -4 "$T/t.shim")" || return 1
	case $line in
	*"a jump from $(printf '%+d' "$2") bytes away lands inside its first instructions"*) ;;
	*) fail_because "$1 refused, but not for the jump from $(printf '%+d' "$2"): $line" || return 1 ;;
	esac
	printf '%s\n' "$line"
}

test_jump_false() {
	local f line
	jf_crt_note
	XENV+=(TSC_HOOK=inline)
	run_pair jump_false a,b,c,d,e "$B/t_jump_false" && one_report && check_expects "$T/t.out" ||
		return 1
	for f in a b c; do
		! grep -qF "tsctrace: $f (in (program)): not patched inline" "$T/t.shim" ||
			fail_because "$(grep -F "tsctrace: $f (in (program))" "$T/t.shim")" || return 1
	done
	hooked inline a b c || return 1
	line=$(jf_refused d $(($(jf_sym jf_real_jump) - $(jf_sym d)))) || return 1
	case $line in
	*"read byte by byte"*) fail_because "a decoded jump said to be read byte by byte: $line" ;;
	esac
	line=$(jf_refused e $(($(jf_sym jf_table) - $(jf_sym e)))) || return 1
	case $line in
	*"read byte by byte where no symbol or unwind entry shows where instructions start"*) ;;
	*) fail_because "e's line does not say the jump was read byte by byte: $line" ;;
	esac
}
