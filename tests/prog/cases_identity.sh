# cases_identity.sh - program tests of function-pointer identity under GOT hooks, sourced by
# run.sh (which has the helpers and the run_test lines). A GLOB_DAT slot that its object's code
# reads as data (`mov`/`cmp slot(%rip)`: the function's address) keeps the real address, with
# one line per function saying its calls through it are not traced; a slot only called or
# jumped through (-fno-plt) is still redirected, its calls counted exactly. libident.so
# compares id_get's address read through its own slot with one relocated into .data, as
# OpenSSL's CRYPTO_malloc does: a redirected slot makes it call itself forever.
# shellcheck shell=bash disable=SC2016,SC2034,SC2015
# (jq programs single-quoted on purpose; XENV, TIMEOUT... are read by run.sh's helpers;
# `a && b || fail` as in run.sh)

IDENT_FUNCS=id_get,id_add,memcpy
# The line got.c prints, after "<function>: <object> "; the same as an extended regex.
IDENT_LINE='uses its address as data: its calls through that GOT slot are not traced (pointer identity kept)'
IDENT_RE='uses its address as data: its calls through that GOT slot are not traced \(pointer identity kept\)'

# slot_refs OBJECT SYMBOL: the mnemonic of each instruction of OBJECT that names its GLOB_DAT
# slot of SYMBOL (objdump's "# <slot> <...>" comment), one a line.
slot_refs() {
	local off
	off=$(readelf -rW "$1" | awk -v s="$2" '$3 == "R_X86_64_GLOB_DAT" &&
		($5 == s || index($5, s "@") == 1) { sub(/^0+/, "", $1); print $1; exit }')
	[ -n "$off" ] || return 0
	objdump -d --no-show-raw-insn "$1" | awk -v o="# $off <" 'index($0, o) { print $2 }'
}

# only_called OBJECT SYMBOL: its slot of SYMBOL is read by `call *`/`jmp *` only, and is read.
only_called() {
	local refs
	refs=$(slot_refs "$B/$1" "$2" | sort -u | tr '\n' ' ')
	case $refs in
	"call " | "jmp " | "call jmp ") return 0 ;;
	esac
	fail_because "test setup: the GLOB_DAT slot of $2 in $1 is not read by call/jmp only: '$refs'"
}

# read_as_data OBJECT SYMBOL: some instruction other than call/jmp reads its slot of SYMBOL.
read_as_data() {
	slot_refs "$B/$1" "$2" | grep -qvE '^(call|jmp)$' ||
		fail_because "test setup: the GLOB_DAT slot of $2 in $1 is not read as data: $(slot_refs "$B/$1" "$2" | tr '\n' ' ')"
}

# data_lines FUNC: how many of the shim's lines say FUNC's address is used as data.
data_lines() {
	grep -c "^tsctrace: $1: .* use[s]* its address as data" "$T/t.shim"
}

# t_ident traced: the same output as untraced (no hang: run_pair's timeout), exact counts,
# and exactly one line for each function whose slot was kept: id_get (libident.so reads its
# slot), and memcpy when it is hooked through GOT slots (t_ident reads its slot).
ident_run() {
	local TIMEOUT=20
	only_called t_ident id_get && only_called t_ident id_add &&
		read_as_data t_ident memcpy && read_as_data libident.so id_get || return 1
	run_pair "$1" "$IDENT_FUNCS" "$B/t_ident" || return 1
	grep -qx 'memcpy here and in libident.so: the same address' "$T/u.out" ||
		fail_because "test setup: untraced, memcpy's addresses differ" || return 1
	one_report && check_expects "$T/t.out" || return 1
	ck "id_get: hooked through GOT slots (its entry cannot be patched)" \
		'fn("id_get").hook == "got"' 'fn("id_get") | {name, hook}' || return 1
	grep -qxF "tsctrace: id_get: libident.so $IDENT_LINE" "$T/t.shim" &&
		[ "$(data_lines id_get)" -eq 1 ] ||
		fail_because "expected one line 'id_get: libident.so $IDENT_LINE'; shim said: $(grep -m3 'as data' "$T/t.shim")" ||
		return 1
	if jq -e -s '.[0].functions[] | select(.name | split("|") | any(. == "memcpy")) |
		.hook == "got"' "$REPORT" >/dev/null; then
		# Other objects may take memcpy's address too (a sanitizer runtime does): then
		# the line says "the program and N more objects use ...".
		grep -qE '^tsctrace: memcpy(\|memmove)?: the program (uses|and [0-9]+ more objects? use) its address as data' \
			"$T/t.shim" &&
			[ "$(data_lines 'memcpy[|a-z]*')" -eq 1 ] ||
			fail_because "expected one line 'memcpy: the program $IDENT_LINE'; shim said: $(grep -m3 'as data' "$T/t.shim")" ||
			return 1
	else
		[ "$(data_lines 'memcpy[|a-z]*')" -eq 0 ] ||
			fail_because "memcpy is hooked inline, yet a line says its slot was kept" || return 1
	fi
	[ "$(data_lines id_add)" -eq 0 ] ||
		fail_because "a line says id_add's address is used as data: $(grep -m1 'id_add' "$T/t.shim")"
}

# memcpy alone (refused inline where glibc's mempcpy jumps into it): t_ident compares the
# address it reads through its GOT slot with libident.so's, which must still be the same.
test_identity_memcpy() {
	read_as_data t_ident memcpy || return 1
	run_pair identity_memcpy memcpy "$B/t_ident" || return 1
	grep -qx 'memcpy here and in libident.so: the same address' "$T/u.out" ||
		fail_because "test setup: untraced, memcpy's addresses differ"
}

# TSC_HOOK=got: every function through GOT slots; t_ident's call-only slots still redirected.
test_identity_got() {
	XENV+=(TSC_HOOK=got)
	ident_run identity_got || return 1
	ck "every function hooked through GOT slots" 'all(.functions[]; .hook == "got")' \
		'[.functions[] | {name, hook}]'
}

# The default hook mode (or HOOK_ALL's): id_get and memcpy are refused inline (a jump into
# their first bytes) and fall back to GOT slots.
test_identity_auto() {
	ident_run identity_auto
}

# t_noplt (-fno-plt, BIND_NOW, RELRO) with TSC_HOOK=got: its GLOB_DAT slots are only called
# through, so they are redirected and every call is counted; no line about data uses.
test_identity_noplt_got() {
	only_called t_noplt work_add && only_called t_noplt work_leaf || return 1
	XENV+=(TSC_HOOK=got)
	run_pair identity_noplt_got work_add,work_leaf "$B/t_noplt" || return 1
	one_report && check_expects "$T/t.out" || return 1
	ck "every function hooked through GOT slots" 'all(.functions[]; .hook == "got")' \
		'[.functions[] | {name, hook}]' || return 1
	! grep -q 'as data' "$T/t.shim" ||
		fail_because "a line says a slot is used as data: $(grep -m1 'as data' "$T/t.shim")"
}

# crypto_line: when CRYPTO_malloc went through GOT slots, exactly one line says libcrypto
# keeps its slot (its own code compares the address); hooked inline, no slot is touched.
crypto_line() {
	if jq -e -s '[.[0].functions[] | select(.name == "CRYPTO_malloc")] | length == 1 and
		.[0].hook == "got"' "$REPORT" >/dev/null; then
		grep -qE "^tsctrace: CRYPTO_malloc: libcrypto[^ ]* $IDENT_RE\$" "$T/t.shim" &&
			[ "$(data_lines CRYPTO_malloc)" -eq 1 ] ||
			fail_because "expected one line 'CRYPTO_malloc: libcrypto... $IDENT_LINE'; shim said: $(head -4 "$T/t.shim")"
	else
		ck "CRYPTO_malloc traced (inline)" '[.functions[] | select(.name == "CRYPTO_malloc")] | length == 1' \
			'[.functions[] | {name, hook}]'
	fi
}

# The issue's reproducer: `TSC_FUNCS=CRYPTO_malloc openssl version` spun forever.
test_identity_openssl() {
	local TIMEOUT=20 ssl
	ssl=$(command -v openssl) || {
		skip_because "openssl is not installed (apt-get install openssl)"
		return 0
	}
	[ "$ASAN" = 1 ] && XENV+=(ASAN_OPTIONS=detect_leaks=0)	# LSan would judge openssl, not us
	run_pair identity_openssl CRYPTO_malloc "$ssl" version || return 1
	one_report && crypto_line
}

# The same through a dlopen: Python's hashlib loads libcrypto after start-up.
test_identity_dlopen() {
	local TIMEOUT=30 py=/usr/bin/python3
	[ -x "$py" ] && "$py" -c 'import _hashlib' 2>/dev/null || {
		skip_because "no $py with the _hashlib module (OpenSSL)"
		return 0
	}
	[ "$ASAN" = 1 ] && XENV+=(ASAN_OPTIONS=detect_leaks=0)
	run_pair identity_dlopen CRYPTO_malloc "$py" -c \
		'import hashlib; print(hashlib.sha256(b"tsctrace").hexdigest())' || return 1
	one_report && crypto_line
}
