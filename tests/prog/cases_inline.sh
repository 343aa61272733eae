# cases_inline.sh - program tests of TSC_HOOK=inline|auto|got, sourced by run.sh (which has the
# helpers and the run_test lines): calls through pointers taken before the shim started, direct
# calls of static, hidden and non-interposable functions, static functions sharing a name,
# functions an inline patch must refuse, code that only looks like jumps into a function's
# first bytes, and patching at a dlopen while other threads spin.
# shellcheck shell=bash disable=SC2016,SC2034,SC2015
# (jq programs single-quoted on purpose; HOOK_ALL, TIMEOUT... are read by run.sh's helpers;
# `a && b || fail` as in run.sh)
#
# Every report entry has "hook" ("inline" or "got"), "object" (the defining object's path;
# for the executable "(program)", or its path) and "offset" ("0x1139": the function's address
# minus its object's load base, which for these PIE objects is the symbol's value in .symtab).
#
# The programs' callers are compiled as usual (-O2, so -fipa-ra): a caller of a function that
# binds locally (static, hidden, or exported from a library built with
# -fno-semantic-interposition) may keep values in call-clobbered registers the callee is known
# not to touch (t_static's main keeps its loop counter in %edx across static_step; direct_run
# keeps five values in %ecx %edx %esi %r8d %r9d across direct_leaf and hidden_leaf). A hook on
# such a function must give them back unchanged, or the stdout checksums (or the loops) break.

# hexnum: "0x1139" as a number; null for anything else than a lower-case 0x hex string.
# is_prog(NAME): the object name the report may give the executable NAME.
# named(NAME): every entry with that name.
JQDEFS="$JQDEFS"'
def hexnum: if type == "string" and test("^0x[0-9a-f]+$")
	then ltrimstr("0x") | explode | reduce .[] as $c (0; . * 16 + (if $c >= 97 then $c - 87 else $c - 48 end))
	else null end;
def is_prog($p): . == "(program)" or . == "/proc/self/exe" or endswith("/" + $p);
def named($n): [.functions[] | select(.name == $n)];
'

# sym_value OBJECT SYMBOL: the value ("0x12e0") of the function SYMBOL in $B/OBJECT's .symtab.
sym_value() {
	nm "$B/$1" | awk -v s="$2" '$3 == s && ($2 == "t" || $2 == "T") {
		v = $1; sub(/^0+/, "", v); print "0x" v; exit }'
}

# placed FUNCTION OBJECT: FUNCTION's entry names OBJECT (a lib*.so of $B, or the program
# OBJECT) and its offset is FUNCTION's value in OBJECT's .symtab.
placed() {
	local f=$1 obj=$2 v test
	v=$(sym_value "$obj" "$f")
	[ -n "$v" ] || fail_because "test setup: no function $f in $obj's symbol table" || return 1
	case $obj in
	lib*.so) test="endswith(\"/$obj\")" ;;
	*) test="is_prog(\"$obj\")" ;;
	esac
	ck "$f: object is $obj, offset == \"$v\" (its value in the symbol table)" \
		"fn(\"$f\") | (.object | $test) and (.offset | hexnum) == $((v))" \
		"fn(\"$f\") | {name, object, offset, symbol, hook}"
}

# hooked HOOK FUNCTION...: each FUNCTION's entry has "hook": HOOK.
hooked() {
	local hook=$1 f
	shift
	for f in "$@"; do
		ck "$f: hook == $hook" "fn(\"$f\").hook == \"$hook\"" "fn(\"$f\") | {name, hook}" ||
			return 1
	done
}

# direct_call OBJECT CALLER CALLEE: CALLER calls CALLEE with a plain `call` (not its PLT entry;
# gcc may name the target by a local alias, CALLEE.localalias).
direct_call() {
	objdump -d --no-show-raw-insn "$B/$1" |
		awk -v f="<$2>:" '$2 == f { p = 1; next } p && /^$/ { p = 0 } p' |
		grep -qE "call[[:space:]]+[0-9a-f]+ <$3(\.localalias)?>$" ||
		fail_because "test setup: $2 in $1 does not call $3 directly (without the PLT)"
}

# ipa_ra_hint: after a failed run_pair, point a stdout difference at the -fipa-ra note above;
# returns 1.
ipa_ra_hint() {
	case $WHY in
	"stdout differs"*)
		WHY="$WHY [callers keep values in call-clobbered registers across these direct calls (-fipa-ra): see the note in cases_inline.sh]" ;;
	esac
	return 1
}

# ---- early pointers

# early_fn (libearly.so) called through pointers captured by libearly's constructor (before
# the shim's), by a .preinit_array entry and by the program's constructor, and through the
# PLT: 6500 calls, all counted by the inline hook, and every pointer is still &early_fn
# ("identity ok" on stdout, compared with the untraced run's).
early_case() {
	plt_call t_early main early_fn || return 1
	run_pair "$1" early_fn "$B/t_early" || return 1
	grep -qx 'identity ok' "$T/u.out" ||
		fail_because "test setup: untraced: $(grep -v '^expect' "$T/u.out" | tr '\n' ' ')" || return 1
	one_report && check_expects "$T/t.out" || return 1
	hooked inline early_fn && placed early_fn libearly.so
}
test_early_inline() {
	XENV+=(TSC_HOOK=inline)
	early_case early_inline
}
# TSC_HOOK unset (auto) whatever HOOK_ALL says.
test_early_auto() {
	local HOOK_ALL=""
	early_case early_auto
}

# ---- direct calls

direct_setup() {
	local syms
	syms=$(nm "$B/t_static" | awk '$3 ~ /^static_step/ { print $2, $3 }')
	[ "$syms" = "t static_step" ] ||
		fail_because "test setup: t_static must have exactly one local function static_step (no clone): $(echo "$syms" | tr '\n' ' ')" ||
		return 1
	[ -z "$(nm -D "$B/libdirect.so" | awk '$3 == "hidden_leaf"')" ] ||
		fail_because "test setup: hidden_leaf is exported by libdirect.so" || return 1
	direct_call libdirect.so direct_run direct_leaf &&
		direct_call libdirect.so direct_run hidden_leaf &&
		plt_call t_static main direct_run
}

# static_step (t_static's own static function, 10,000 calls), direct_leaf (exported by
# libdirect.so but called directly by direct_run inside it) and hidden_leaf (hidden), 7000
# each, and direct_run (1 call through the PLT): every call counted, all four hooked inline.
direct_case() {
	direct_setup || return 1
	run_pair "$1" static_step,direct_leaf,hidden_leaf,direct_run "$B/t_static" || ipa_ra_hint ||
		return 1
	one_report && check_expects "$T/t.out" || return 1
	hooked inline static_step direct_leaf hidden_leaf direct_run &&
		placed static_step t_static && placed direct_leaf libdirect.so &&
		placed hidden_leaf libdirect.so && placed direct_run libdirect.so
}
test_direct_inline() {
	XENV+=(TSC_HOOK=inline)
	direct_case direct_inline
}
test_direct_auto() {
	local HOOK_ALL=""
	direct_case direct_auto
}

# Globs reach functions that are not exported too (with inline hooks): 'static_*' finds
# t_static's static_step, '*_leaf' libdirect.so's exported direct_leaf and hidden hidden_leaf
# (and any exported *_leaf of libc, never called here). Counts exact, all inline.
test_glob_statics() {
	direct_setup || return 1
	XENV+=(TSC_HOOK=inline)
	run_pair glob_statics 'static_*,*_leaf' "$B/t_static" || ipa_ra_hint || return 1
	one_report || return 1
	ck "static_step 10000, direct_leaf 7000, hidden_leaf 7000 calls" \
		'fn("static_step").calls == 10000 and fn("direct_leaf").calls == 7000 and fn("hidden_leaf").calls == 7000' \
		'[fn("static_step"), fn("direct_leaf"), fn("hidden_leaf") | counts]' || return 1
	hooked inline static_step direct_leaf hidden_leaf &&
		placed static_step t_static && placed hidden_leaf libdirect.so
}

# TSC_HOOK=got: direct calls are invisible to GOT hooks. direct_run is counted (1, through the
# PLT), direct_leaf is listed with 0 calls; static_step and hidden_leaf have no GOT slot
# anywhere: a `tsctrace: ` line names each, and they are not in the report (or listed with 0
# calls). The program is unharmed (stdout, stderr and status compared by run_pair).
test_direct_got() {
	local f
	XENV+=(TSC_HOOK=got)
	direct_setup || return 1
	run_pair direct_got static_step,direct_leaf,hidden_leaf,direct_run "$B/t_static" || return 1
	one_report || return 1
	ck "calls == timed + unwound + migrated + dropped for every function" \
		'all(.functions[]; .calls == .timed + .unwound + .migrated + .dropped)' \
		'[.functions[] | counts]' || return 1
	ck "direct_run: calls == 1 (through the PLT)" 'fn("direct_run").calls == 1' \
		'fn("direct_run") | counts' || return 1
	ck "direct_leaf: calls == 0 (called only directly, inside libdirect.so)" \
		'fn("direct_leaf").calls == 0' 'fn("direct_leaf") | counts' || return 1
	hooked got direct_run direct_leaf && placed direct_run libdirect.so &&
		placed direct_leaf libdirect.so || return 1
	for f in static_step hidden_leaf; do
		grep -qw -- "$f" "$T/t.shim" ||
			fail_because "TSC_HOOK=got: no 'tsctrace: ' line naming $f (not traceable through the GOT): $(head -3 "$T/t.shim")" ||
			return 1
		ck "$f: not in the report, or with 0 calls" "fn(\"$f\") == null or fn(\"$f\").calls == 0" \
			"fn(\"$f\") | {name, hook, calls}" || return 1
	done
}

# ---- static functions sharing a name

# ambig_want: the `step <object> <offset> <calls>` lines of the untraced run, as a JSON array
# of {lib, offset, calls} (lib: in libdirect.so rather than the program).
ambig_want() {
	local k obj off calls sep="" out="["
	while read -r k obj off calls; do
		[ "$k" = step ] || continue
		out+="$sep{\"lib\": $([ "$obj" = libdirect.so ] && echo true || echo false), \"offset\": $((off)), \"calls\": $calls}"
		sep=", "
	done <"$T/u.out"
	echo "$out]"
}

# TSC_FUNCS=step: t_ambig's two static step (300 and 700 calls) and libdirect.so's (111): three
# entries named step, each with its own object and offset (those the program prints) and
# count, all inline. Then TSC_FUNCS=libdirect.so:step: only libdirect.so's, 111 calls.
test_ambig_inline() {
	local want printed syms libv
	XENV+=(TSC_HOOK=inline)
	run_pair ambig_inline step "$B/t_ambig" || ipa_ra_hint || return 1
	# The offsets the program printed are those of the symbol tables.
	printed=$(awk '$1 == "step" { print $2, $3 }' "$T/u.out" | sort | tr '\n' ' ')
	libv=$(sym_value libdirect.so step)
	syms=$( (nm "$B/t_ambig" | awk '$2 == "t" && $3 == "step" { sub(/^0+/, "", $1); print "t_ambig 0x" $1 }'
		echo "libdirect.so $libv") | sort | tr '\n' ' ')
	[ "$printed" = "$syms" ] && [ "$(echo "$printed" | wc -w)" -eq 6 ] ||
		fail_because "test setup: t_ambig printed the steps at [$printed], the symbol tables say [$syms]" ||
		return 1
	want=$(ambig_want)
	one_report || return 1
	ck "calls == timed + unwound + migrated + dropped for every function" \
		'all(.functions[]; .calls == .timed + .unwound + .migrated + .dropped)' \
		'[.functions[] | counts]' || return 1
	ck "three entries named step" 'named("step") | length == 3' \
		'named("step") | map({object, offset, calls, hook})' || return 1
	ck "step entries: objects t_ambig (twice) and libdirect.so" \
		'all(named("step")[]; .object | endswith("/libdirect.so") or is_prog("t_ambig"))' \
		'named("step") | map({object, offset})' || return 1
	ck "step entries: {in libdirect.so, offset, calls} == $want" \
		"[named(\"step\")[] | {lib: (.object | endswith(\"/libdirect.so\")), offset: (.offset | hexnum), calls}] | sort == ($want | sort)" \
		'named("step") | map({object, offset, calls})' || return 1
	ck "step entries: all hooked inline" 'all(named("step")[]; .hook == "inline")' \
		'named("step") | map({object, offset, hook})' || return 1

	rm -f "$T"/r.*
	run_pair ambig_inline libdirect.so:step "$B/t_ambig" || ipa_ra_hint || sub_failed \
		"TSC_FUNCS=libdirect.so:step" || return 1
	one_report || sub_failed "TSC_FUNCS=libdirect.so:step" || return 1
	ck "TSC_FUNCS=libdirect.so:step: one entry, libdirect.so's step, offset $libv, 111 calls, inline" \
		".functions | length == 1 and (.[0] | (.name == \"step\" or .name == \"libdirect.so:step\") and
		 (.object | endswith(\"/libdirect.so\")) and (.offset | hexnum) == $((libv)) and
		 .calls == 111 and .hook == \"inline\")" \
		'.functions | map({name, object, offset, calls, hook})'
}

# ---- refusals

# librefuse.so's ret_only (a lone ret, 1 byte) and loop_back (loops back to offset 2, inside
# the 5 displaced bytes) cannot be patched: one `tsctrace: ` line each saying so, both traced
# through the GOT with every call counted, the program unharmed.
# ret_only is 1 byte followed by nop padding: patched inline over the padding. line_end starts
# on the last byte of a cache line: patched inline at start-up (one thread). ret_tight is 1
# byte with tight_next right after it, and loop_back loops back into its first bytes: both
# refused, traced through the GOT, with one line each. Counts exact either way.
test_refuse_inline() {
	local f n sizes
	XENV+=(TSC_HOOK=inline)
	sizes=$(readelf -sW "$B/librefuse.so" |
		awk '$8 ~ /^(ret_only|ret_tight|tight_next|loop_back|line_end)$/ { print $8, $3 }' |
		sort -u | tr '\n' ' ')
	[ "$sizes" = "line_end 8 loop_back 10 ret_only 1 ret_tight 1 tight_next 6 " ] ||
		fail_because "test setup: symbol sizes in librefuse.so: $sizes" || return 1
	[ $(($(sym_value librefuse.so tight_next) - $(sym_value librefuse.so ret_tight))) -eq 1 ] ||
		fail_because "test setup: tight_next does not follow ret_tight directly" || return 1
	[ $(($(sym_value librefuse.so line_end) % 64)) -eq 63 ] ||
		fail_because "test setup: line_end does not start on a cache line's last byte" || return 1
	for f in ret_only ret_tight tight_next line_end loop_back tight_caller; do
		plt_call t_refuse main $f || return 1
	done
	run_pair refuse_inline ret_only,ret_tight,tight_next,line_end,loop_back "$B/t_refuse" || return 1
	grep -q '^loop_back sum 11994, 0 wrong results$' "$T/u.out" ||
		fail_because "test setup: untraced: $(head -1 "$T/u.out")" || return 1
	one_report && check_expects "$T/t.out" || return 1
	hooked inline ret_only tight_next line_end || return 1
	n=$(grep -w -- loop_back "$T/t.shim" | grep -c 'not patched inline')
	[ "$n" -eq 1 ] ||
		fail_because "expected one 'tsctrace: ' line naming loop_back with 'not patched inline', got $n: $(grep -w -- loop_back "$T/t.shim" | head -2)$([ "$n" -eq 0 ] && echo "; shim said: $(head -3 "$T/t.shim")")" ||
		return 1
	trap_said ret_tight || return 1
	hooked got loop_back && hooked trap ret_tight && placed ret_only librefuse.so &&
		placed loop_back librefuse.so
}

# trap_said FUNCTION...: one 'tsctrace: ' line for each, saying it is traced through a trap.
trap_said() {
	local f n
	for f in "$@"; do
		n=$(grep -w -- "$f" "$T/t.shim" | grep -c 'traced through a trap')
		[ "$n" -eq 1 ] ||
			fail_because "expected one 'tsctrace: ' line naming $f with 'traced through a trap', got $n; shim said: $(head -3 "$T/t.shim")" ||
			return 1
	done
}

# ---- the trap route: t_trap's short statics (trapfn.S), called directly, reached by nothing
# but their int3; under TSC_HOOK=got (or before the trap route) they were not traced at all.
TRAP_FUNCS=tiny_ret,tiny_endbr,tiny_inc

# 2000 calls each: counted exactly, stdout identical. t_trap (-O2) and t_trap0 (-O0).
trap_static_case() {
	XENV+=(TSC_HOOK=inline)
	run_pair trap_static "$TRAP_FUNCS" "$B/$1" calls || return 1
	grep -q '^sum 2000$' "$T/u.out" || fail_because "test setup: untraced: $(head -1 "$T/u.out")" ||
		return 1
	one_report && check_expects "$T/t.out" && hooked trap tiny_ret tiny_endbr tiny_inc &&
		trap_said tiny_ret tiny_endbr tiny_inc && placed tiny_ret "$1"
}
test_trap_static() { trap_static_case t_trap; }
test_trap_static_O0() { trap_static_case t_trap0; }

# The program's own SIGTRAP handler (SA_SIGINFO, then signal()'s plain one) runs for each of
# its 400 int3s and raises, traced or not, and sigaction/signal report it back (stdout
# compared); the traced calls among them are counted exactly.
test_trap_own() {
	XENV+=(TSC_HOOK=auto)
	run_pair trap_own "$TRAP_FUNCS" "$B/t_trap" own || return 1
	grep -q '^info handler ran 300 times; sum 600; sigaction shows it, SA_SIGINFO set$' "$T/u.out" &&
		grep -q '^plain handler ran 100 times; sum 700; sigaction shows it$' "$T/u.out" ||
		fail_because "test setup: untraced: $(head -3 "$T/u.out")" || return 1
	one_report && check_expects "$T/t.out" && hooked trap tiny_ret tiny_inc
}

# SIGTRAP at its default (raise, an int3 of the program's) or ignored (a raise is ignored, an
# int3 is not): the process dies of SIGTRAP traced as untraced, after the same output.
test_trap_die() {
	local mode
	XENV+=(TSC_HOOK=inline)
	WANT_STATUS=$((128 + 5)) # SIGTRAP
	for mode in die-raise die-int3 ign; do
		rm -f "$T"/r.*
		run_pair trap_die "$TRAP_FUNCS" "$B/t_trap" "$mode" || return 1
		trap_said tiny_ret || return 1
	done
	grep -q '^raise ignored; sum 10$' "$T/u.out" ||
		fail_because "test setup: untraced: $(head -3 "$T/u.out")"
}

# Trap-hooked functions called where the program blocked every signal (pthread_sigmask in
# main, sigprocmask in a thread, a thread started so, a handler with a full sa_mask): an int3
# met with SIGTRAP blocked would kill the process, so the shim keeps SIGTRAP out of those
# masks (wrap/sigmask.c) while telling the program its masks are what it asked (stdout
# compared, each says "SIGTRAP blocked"). 400 calls of each, counted exactly. t_trap (-O2)
# and t_trap0 (-O0).
trap_blocked_case() {
	XENV+=(TSC_HOOK=inline)
	run_pair trap_blocked "$TRAP_FUNCS" "$B/$1" blocked || return 1
	[ "$(grep -c ': SIGTRAP blocked$' "$T/u.out")" = 3 ] && grep -q '^sum 400$' "$T/u.out" &&
		grep -q 'sa_mask shown with SIGTRAP: yes$' "$T/u.out" ||
		fail_because "test setup: untraced: $(head -6 "$T/u.out" | tr '\n' '|')" || return 1
	one_report && check_expects "$T/t.out" && hooked trap tiny_ret tiny_inc
}
# A handler run inside each call that sets a full mask for its duration (sigsuspend, pselect,
# ppoll, epoll_pwait, epoll_pwait2) calls trap-hooked functions: SIGTRAP is kept out of that
# mask too, while the handler is told it is blocked, as it asked; each call returns EINTR as
# untraced (stdout compared); 500 calls of each, counted exactly.
trap_masks_case() {
	XENV+=(TSC_HOOK=inline)
	run_pair trap_masks "$TRAP_FUNCS" "$B/$1" masks || return 1
	[ "$(grep -c ': returned -1, errno Interrupted system call; handler told SIGTRAP blocked$' "$T/u.out")" = 5 ] &&
		grep -q '^sum 500$' "$T/u.out" ||
		fail_because "test setup: untraced: $(head -6 "$T/u.out" | tr '\n' '|')" || return 1
	one_report && check_expects "$T/t.out" && hooked trap tiny_ret tiny_inc
}
# t_trap started with SIGTRAP blocked by a raw rt_sigprocmask before the exec (blockexec):
# no wrapper saw it, and an int3 there would end the process, so the shim arms no trap: one
# line per function saying which thread blocks SIGTRAP, the program runs untraced to the
# same output and status.
test_trap_raw_blocked() {
	local f
	XENV+=(TSC_HOOK=inline)
	run_pair trap_raw_blocked "$TRAP_FUNCS" "$B/blockexec" 5 "$B/t_trap" calls && one_report ||
		return 1
	for f in tiny_ret tiny_endbr tiny_inc; do
		[ "$(grep -c "^tsctrace: $f.*thread [0-9]* blocks SIGTRAP (set with a raw rt_sigprocmask or before an exec" "$T/t.shim")" = 1 ] ||
			fail_because "no one line refusing $f: $(head -3 "$T/t.shim")" || return 1
	done
}
test_trap_masks() { trap_masks_case t_trap; }
test_trap_masks_O0() { trap_masks_case t_trap0; }
test_trap_blocked() { trap_blocked_case t_trap; }
test_trap_blocked_O0() { trap_blocked_case t_trap0; }

# ---- functions that start with a call

# entry_call OBJECT FUNCTION: FUNCTION's first call starts within the 5 bytes the patch
# overwrites (after an endbr64, which the patch leaves alone).
entry_call() {
	local lines entry patch_at=0 addr insn
	lines=$(objdump -d --no-show-raw-insn "$B/$1" |
		awk -v f="<$2>:" '$2 == f { print $1; p = 1; next } p && /^$/ { exit }
			p { sub(/:$/, "", $1); print $1, $2 }')
	entry=$(echo "$lines" | head -1)
	[ -n "$entry" ] || fail_because "test setup: no function $2 in $1" || return 1
	while read -r addr insn; do
		[ "$insn" = endbr64 ] && [ $((0x$addr)) -eq $((0x$entry)) ] && patch_at=4
		case $insn in
		call*) [ $((0x$addr - 0x$entry)) -lt $((patch_at + 5)) ] && return 0 ;;
		esac
	done < <(echo "$lines" | tail -n +2)
	fail_because "test setup: $2 in $1 has no call among its first $((patch_at + 5)) bytes"
}

# byte_scan_refused FUNCTION: the shim refused FUNCTION because xref.c's scan of every byte
# offset found what decodes as a jump into its first bytes: at some layouts (the sanitizer
# builds) that is a byte pattern inside another instruction, not a jump of the program; the
# case cannot be staged there. Sets the skip reason; returns 1 when it did not happen.
byte_scan_refused() {
	local line
	line=$(grep -F "$1 " "$T/t.shim" | grep 'lands inside its first instructions') || return 1
	skip_because "this build's layout: $line"
}

# t_callentry: ce0_outer and ce0_leaf (-O0: a call at +4, rel32 and through the GOT) and
# ce2_first (-O2: sub, then a call at +4), 1000 calls each, with ce2_helper: all hooked inline
# (the call moved into the pool slot, no refusal line), every call counted, stdout identical,
# and the backtrace taken in each moved call's callee names the function that made it in
# every call (the program prints how often: 1000/1000 untraced, and stdout is compared).
call_entry_case() {
	local f
	for f in ce0_outer ce0_leaf ce2_first; do
		entry_call t_callentry "$f" || return 1
	done
	run_pair "$1" ce0_outer,ce0_leaf,ce2_first,ce2_helper "$B/t_callentry" || return 1
	for f in ce0_outer ce0_leaf ce2_first; do
		byte_scan_refused "$f" && return 0
	done
	grep -qxF "in the callee's backtrace: ce0_outer 1000/1000, ce0_leaf 1000/1000, ce2_first 1000/1000" \
		"$T/u.out" || fail_because "test setup: untraced: $(sed -n 2p "$T/u.out")" || return 1
	one_report && check_expects "$T/t.out" || return 1
	! grep -q 'not patched inline' "$T/t.shim" ||
		fail_because "refused: $(grep 'not patched inline' "$T/t.shim" | head -2)" || return 1
	hooked inline ce0_outer ce0_leaf ce2_first ce2_helper
}
test_call_entry_inline() {
	XENV+=(TSC_HOOK=inline)
	call_entry_case call_entry_inline
}
test_call_entry_auto() {
	local HOOK_ALL=""
	call_entry_case call_entry_auto
}

# t_callthrow (-O0): a C++ exception thrown by ct_throw through ct_mid, whose call of it was
# moved into the pool slot, reaches main's catch: counts exact, unwound calls counted, both
# hooked inline.
test_call_entry_throw() {
	XENV+=(TSC_HOOK=inline)
	entry_call t_callthrow ct_mid || return 1
	run_pair call_entry_throw ct_mid,ct_throw "$B/t_callthrow" || return 1
	byte_scan_refused ct_mid && return 0
	one_report && check_expects "$T/t.out" || return 1
	hooked inline ct_mid ct_throw
}

# liblookalike.so (lookalike.S): the e0 of call_via's `jmp *%rax` and the e9 at the start of
# magic's movabs immediate read, to a scan of every byte for branch opcodes, as a loopne into
# twice_plus_one + 2 and a jmp into imm_target + 2. Decoded, neither is a branch: both
# functions are patched inline, with no line refusing them, every call counted (twice_plus_one
# also when call_via jumps to it through %rax).
test_lookalike_inline() {
	local cv tp
	XENV+=(TSC_HOOK=inline)
	cv=$(sym_value liblookalike.so call_via) tp=$(sym_value liblookalike.so twice_plus_one)
	[ -n "$cv" ] && [ -n "$tp" ] && [ $((tp - cv)) -eq 7 ] &&
		objdump -d --start-address=$((tp - 2)) --stop-address=$((tp)) "$B/liblookalike.so" |
		grep -qE '[[:space:]]ff e0[[:space:]]+jmp[[:space:]]+\*%rax' ||
		fail_because "test setup: call_via (at $cv) does not end with ff e0 right before twice_plus_one (at $tp)" ||
		return 1
	plt_call t_lookalike main twice_plus_one && plt_call t_lookalike main imm_target || return 1
	run_pair lookalike_inline twice_plus_one,imm_target "$B/t_lookalike" || return 1
	grep -q '^sum 4000000, magic set, 0 wrong results$' "$T/u.out" ||
		fail_because "test setup: untraced: $(head -1 "$T/u.out")" || return 1
	one_report && check_expects "$T/t.out" || return 1
	! grep -qE 'twice_plus_one|imm_target' "$T/t.shim" ||
		fail_because "the shim said: $(grep -E 'twice_plus_one|imm_target' "$T/t.shim" | head -2)" ||
		return 1
	hooked inline twice_plus_one imm_target && placed twice_plus_one liblookalike.so &&
		placed imm_target liblookalike.so
}

# ---- patching at a dlopen while other threads already call

# t_dlthreads: 3 threads find hot_fn as soon as main's dlopen makes it visible and call it
# 200,000 times each, main 10,000 times after its dlopen returned. Calls made before the patch
# was complete are not counted: 10,000 <= calls <= 610,000. Three runs, to shake out races.
test_dlopen_threads_inline() {
	local i calls=""
	XENV+=(TSC_HOOK=inline)
	for i in 1 2 3; do
		rm -f "$T"/r.*
		run_pair dlopen_threads_inline hot_fn "$B/t_dlthreads" &&
			one_report && check_expects "$T/t.out" &&
			ck "hot_fn: calls <= 610000 (3 x 200,000 + 10,000)" 'fn("hot_fn").calls <= 610000' \
				'fn("hot_fn") | counts' &&
			hooked inline hot_fn && placed hot_fn libhot.so || sub_failed "run $i of 3" || return 1
		calls="$calls $(jq -r -s "$JQDEFS .[0] | fn(\"hot_fn\").calls" "$REPORT")"
	done
	NOTE="hot_fn calls counted:$calls"
}

# t_stopworld (-O2) and t_stopworld0 (-O0): 3 threads call straddle_fn (its entry on the last
# byte of a cache line, 3 instructions in its first 7 bytes) without pause from the moment
# libstraddle.so's constructor publishes it, inside main's dlopen, before the shim patches it:
# the other threads are stopped for the write (hook/stop.c), and any stopped among its first
# instructions resumes in the relocated copy. Ten runs each: never a wrong result, the same
# stdout, hooked inline, and every call made after the dlopen returned counted (>= 160,000),
# none more than were made (<= the program's own total).
stop_world_case() {
	local prog=$1 i moved=0 calls="" total refused=0
	XENV+=(TSC_HOOK=inline)
	for i in 1 2 3 4 5 6 7 8 9 10; do
		rm -f "$T"/r.* "$T/total"
		run_pair stop_world straddle_fn "$B/$prog" "$T/total" && one_report &&
			grep -q ', 0 wrong$' "$T/t.out" || sub_failed "run $i of 10" || return 1
		if tsan_refused; then
			refused=$((refused + 1))
			continue
		fi
		check_expects "$T/t.out" && hooked inline straddle_fn || sub_failed "run $i of 10" ||
			return 1
		total=$(cat "$T/total")
		ck "straddle_fn: calls <= $total (all the program made)" \
			"fn(\"straddle_fn\").calls <= $total" 'fn("straddle_fn") | counts' ||
			sub_failed "run $i of 10" || return 1
		grep -q 'resumed in its relocated copy' "$T/t.shim" && moved=$((moved + 1))
		calls="$calls $(jq -r -s "$JQDEFS .[0] | fn(\"straddle_fn\").calls" "$REPORT")"
	done
	NOTE="runs with a thread moved into the copy: $moved of 10; calls:$calls"
	[ "$refused" = 0 ] || NOTE="$NOTE; $refused runs refused under ThreadSanitizer"
}

# tsan_refused: under ThreadSanitizer, whose own background thread sleeps in a system call or
# runs with every signal blocked, straddle_fn may be refused by design (docs/inline-hooks.md):
# true when it was, with the line saying so; the run must still be correct.
tsan_refused() {
	case ${SANITIZE:-} in *thread*) ;; *) return 1 ;; esac
	grep -q 'straddle_fn: not patched inline (.*\(could wake while it is written\|blocks signal\)' \
		"$T/t.shim"
}
test_stop_world_inline() { stop_world_case t_stopworld; }
test_stop_world_inline_O0() { stop_world_case t_stopworld0; }

# The same threads blocking every signal with pthread_sigmask (as server threads do): they
# cannot be stopped (the stop's signal is left blocked: the program could be waiting for it
# with sigwait), so straddle_fn is not patched, with one line saying why, and never sent the
# signal; each thread is still told its mask holds every signal it asked for, SIGTRAP too,
# which the shim keeps unblocked (stdout compared).
test_stop_world_sigmask() {
	XENV+=(TSC_HOOK=inline)
	run_pair stop_world_sigmask straddle_fn "$B/t_stopworld" "$T/total" sigmask && one_report &&
		grep -q ', 0 wrong$' "$T/t.out" && grep -q 'are not: 0$' "$T/t.out" || return 1
	grep -q 'straddle_fn: not patched inline (the other threads could not be stopped to write it: thread [0-9]* blocks signal' "$T/t.shim" ||
		fail_because "no line saying a thread blocks the stop's signal: $(head -3 "$T/t.shim")"
}

# ... and with a raw rt_sigprocmask, which no wrapper sees: those threads cannot be stopped,
# so straddle_fn is not patched, with one line saying why; the program runs on with the same
# stdout (its calls through a pointer reach no GOT slot: none counted).
test_stop_world_blocked() {
	XENV+=(TSC_HOOK=inline)
	run_pair stop_world_blocked straddle_fn "$B/t_stopworld" "$T/total" raw && one_report &&
		grep -q ', 0 wrong$' "$T/t.out" || return 1
	grep -q 'straddle_fn: not patched inline (the other threads could not be stopped to write it: thread [0-9]* blocks signal' "$T/t.shim" ||
		fail_because "no line saying a thread blocks the stop's signal: $(head -3 "$T/t.shim")"
}

# The same while 8 more threads sleep in system calls a signal interrupts (read on a pipe,
# pthread_cond_wait and _timedwait, poll, epoll_wait and select without timeout,
# clock_nanosleep to an absolute time, sigwaitinfo): they are stopped too (hook/stop.c,
# sleep_wakes.c), so straddle_fn is patched inline, with no line refusing it; each sleeper's
# call returns what it returns untraced (stdout compared: an EINTR would show), every call
# made after the dlopen returned is counted. t_stopworld (-O2) and t_stopworld0 (-O0).
stop_world_sleepers_case() {
	XENV+=(TSC_HOOK=inline)
	run_pair stop_world_sleepers straddle_fn "$B/$1" "$T/total" sleepers && one_report &&
		grep -q ', 0 wrong$' "$T/t.out" || return 1
	[ "$(grep -c '^asleep in .*errno 0 ' "$T/u.out")" = 8 ] ||
		fail_because "test setup: untraced: $(grep '^asleep' "$T/u.out" | tr '\n' '|')" || return 1
	tsan_refused && return 0
	! grep -q 'not patched inline' "$T/t.shim" ||
		fail_because "refused: $(grep 'not patched inline' "$T/t.shim" | head -2)" || return 1
	check_expects "$T/t.out" && hooked inline straddle_fn &&
		ck "straddle_fn: calls <= $(cat "$T/total") (all the program made)" \
			"fn(\"straddle_fn\").calls <= $(cat "$T/total")" 'fn("straddle_fn") | counts'
}
test_stop_world_sleepers() { stop_world_sleepers_case t_stopworld; }
test_stop_world_sleepers_O0() { stop_world_sleepers_case t_stopworld0; }

# A sleeper in poll with a 60 s timeout would have its time start again if interrupted, and
# one that blocks every signal cannot be stopped: either is left asleep, so straddle_fn is not
# patched, with one line saying why; the program's output is unchanged (poll and read return
# what they return untraced).
stop_world_unstoppable_case() {
	XENV+=(TSC_HOOK=inline)
	run_pair "stop_world_$1" straddle_fn "$B/t_stopworld" "$T/total" "$1" && one_report &&
		grep -q ', 0 wrong$' "$T/t.out" && grep -q '^asleep in .*errno 0 ' "$T/t.out" || return 1
	[ "$(grep -c 'straddle_fn: not patched inline' "$T/t.shim")" = 1 ] ||
		fail_because "no one line refusing straddle_fn: $(head -3 "$T/t.shim")" || return 1
	tsan_refused && return 0 # its own thread blocks every signal: refused for that first
	grep -q 'straddle_fn: not patched inline (its entry straddles a cache line, and a thread asleep in a system call with a timeout, or blocking the stop.s signal, could wake while it is written)' "$T/t.shim" ||
		fail_because "refused for another reason: $(grep 'not patched inline' "$T/t.shim")"
}
# A thread waits in sigsuspend (SIGUSR1 blocked outside it) while another sends it SIGUSR1
# without pause through the dlopen: each run of its handler (every signal in its sa_mask)
# must end one sigsuspend with EINTR, stop or no stop (stdout compared) - the stop's handler,
# delivered right after the program's at the same return, must not issue the call again
# (a program waiting for that signal would wait on). An EINTR the stop's signal causes when
# it reaches the waiter as it enters sigsuspend (docs/inline-hooks.md, *The signal*) is
# counted, not failed. The waiter is often inside its handler, blocking the stop's signal:
# then the entry is refused, with one line, which is right too (under ThreadSanitizer, its
# own sleeping thread may be the line's reason). Ten runs.
test_stop_world_usr1() {
	local i patched=0 extra=0
	XENV+=(TSC_HOOK=inline)
	CMP_STDERR=0
	for i in 1 2 3 4 5 6 7 8 9 10; do
		rm -f "$T"/r.* "$T/total"
		run_pair stop_world_usr1 straddle_fn "$B/t_stopworld" "$T/total" usr1 && one_report &&
			grep -q ', 0 wrong$' "$T/t.out" || sub_failed "run $i of 10" || return 1
		[ ! -s "$T/u.err" ] || fail_because "test setup: untraced: $(head -1 "$T/u.err")" ||
			return 1
		extra=$((extra + $(awk '/^EINTR returns without a handler run:/ { n += $NF } END { print n + 0 }' "$T/t.err")))
		grep -q '^every SIGUSR1 handler run ended a sigsuspend: yes; some ran: yes$' "$T/u.out" ||
			fail_because "test setup: untraced: $(head -1 "$T/u.out")" || return 1
		if grep -q 'straddle_fn: not patched inline' "$T/t.shim"; then
			# under ThreadSanitizer its own sleeping thread is a reason first
			tsan_refused || [ "$(grep -c 'straddle_fn: not patched inline (the other threads could not be stopped to write it: thread [0-9]* blocks signal' "$T/t.shim")" = 1 ] ||
				fail_because "run $i: refused for another reason: $(grep 'not patched' "$T/t.shim")" ||
				return 1
		else
			hooked inline straddle_fn || sub_failed "run $i of 10" || return 1
			patched=$((patched + 1))
		fi
	done
	NOTE="patched inline in $patched of 10 runs (else refused: the waiter was in its handler); EINTR caused by the stop: $extra"
}
test_stop_world_sleep_timeout() { stop_world_unstoppable_case timeout; }
test_stop_world_sleep_blocked() { stop_world_unstoppable_case sleep-blocked; }

# ---- the foreign-jump check's answers kept between runs (hook/xref_cache.c)

# Run 1 with an empty $XDG_CACHE_HOME writes libwork.so's answers (a 0700 directory, a 0600
# file, and the 0600 key); run 2 reads them: same routes. Then every kept answer is forged
# into "a jump lands inside" and signed with the key (cases/kept_mac.py; without the key, a
# forgery is cases/cache_forged.sh's): run 3 must refuse work_add and work_leaf on the cache's
# word alone (proof that the scan was skipped), and a file that does not read back whole is
# ignored (run 4: inline again).
test_xref_cache() {
	local c=$T/cache f mode
	XENV+=(TSC_HOOK=inline "XDG_CACHE_HOME=$c")
	run_pair xref_cache work_add,work_leaf "$B/t_basic" && one_report && hooked inline work_add ||
		sub_failed "run 1" || return 1
	f=$(find "$c/tsctrace" -name '*.xref' -newer "$B/libwork.so" 2>/dev/null | head -1)
	[ -n "$f" ] || fail_because "no answers kept in $c/tsctrace: $(ls -R "$c" 2>&1 | head -3)" ||
		return 1
	mode=$(stat -c %a "$c/tsctrace")/$(stat -c %a "$f")/$(stat -c %a:%s "$c/tsctrace/key")
	[ "$mode" = 700/600/600:32 ] || fail_because "cache modes $mode, expected 700/600/600:32" ||
		return 1
	rm -f "$T"/r.*
	run_pair xref_cache work_add,work_leaf "$B/t_basic" && one_report && hooked inline work_add ||
		sub_failed "run 2, answers from the cache" || return 1
	# The functions' own scans are kept too (lo's top bit set): forged alone into "a jump at
	# +0x3 goes back into its first bytes", they refuse work_add with that very reason.
	for f in "$c"/tsctrace/*.xref; do
		python3 - "$f" <<'PY' || fail_because "test setup: cannot forge $f" || return 1
import struct, sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
n, rec, key, per, first = struct.unpack_from("<IIIII", b, 32)
for i in range(n):
    at = first + i // per * 4096 + i % per * rec   # pages of records (base/kept_file.h)
    if struct.unpack_from("<Q", b, at)[0] >> 63:
        struct.pack_into("<QI", b, at + 32, 3, 1)   # from = +0x3, hit = a jump
open(p, "wb").write(b)
PY
	done
	python3 "${BASH_SOURCE[0]%/*}/cases/kept_mac.py" "$c"/tsctrace/*.xref ||
		fail_because "test setup: cannot sign the forged answers" || return 1
	rm -f "$T"/r.*
	run_pair xref_cache work_add,work_leaf "$B/t_basic" && one_report || return 1
	hooked got work_add ||
		fail_because "a forged own-scan answer was not used: $(jq -c '[.functions[] | {name, hook}]' "$REPORT")" ||
		return 1
	ck "the refusal quotes the kept own-scan answer" \
		'any(.warnings[]; contains("work_add") and contains("a jump at +0x3 goes back"))' \
		'.warnings' || return 1
	for f in "$c"/tsctrace/*.xref; do
		python3 - "$f" <<'PY' || fail_because "test setup: cannot forge $f" || return 1
import struct, sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
n, rec, key, per, first = struct.unpack_from("<IIIII", b, 32)
for i in range(n):
    at = first + i // per * 4096 + i % per * rec   # pages of records (base/kept_file.h)
    lo = struct.unpack_from("<Q", b, at)[0]
    struct.pack_into("<QI", b, at + 32, lo, 1)   # from = lo, hit = 1
open(p, "wb").write(b)
PY
	done
	python3 "${BASH_SOURCE[0]%/*}/cases/kept_mac.py" "$c"/tsctrace/*.xref ||
		fail_because "test setup: cannot sign the forged answers" || return 1
	rm -f "$T"/r.*
	run_pair xref_cache work_add,work_leaf "$B/t_basic" && one_report || return 1
	hooked got work_add ||
		fail_because "a forged answer was not used: $(jq -c '[.functions[] | {name, hook}]' "$REPORT")" ||
		return 1
	for f in "$c"/tsctrace/*.xref; do
		head -c 60 "$f" >"$f.cut" && mv "$f.cut" "$f"
	done
	rm -f "$T"/r.*
	run_pair xref_cache work_add,work_leaf "$B/t_basic" && one_report && hooked inline work_add ||
		sub_failed "run 4, a cut file ignored"
}

# ---- relocation plans kept between runs (hook/plan_cache.c) ---------------------------------

# plan_forge FILE bytes|copy: in every record of a kept .plan file, change the first kept byte
# of the function and make the record's unkeyed FNV-1a hash (what the MAC replaced) agree (a
# whole record for other code, forged without the key), or change a byte of the copy alone (a
# damaged record). Both fail the MAC. Offsets: src/x86/reloc_keep.c's asserts.
plan_forge() {
	python3 - "$1" "$2" <<'PY'
import struct, sys
p, how = sys.argv[1], sys.argv[2]
b = bytearray(open(p, "rb").read())
n, rec, key, per, first = struct.unpack_from("<IIIII", b, 32)
for i in range(n):
    at = first + i // per * 4096 + i % per * rec   # pages of records (base/kept_file.h)
    if how == "bytes":
        b[at + 48] ^= 1
        h = 0xcbf29ce484222325
        for c in b[at:at + rec - 8]:
            h = ((h ^ c) * 0x100000001b3) & 0xffffffffffffffff
        struct.pack_into("<Q", b, at + rec - 8, h)
    else:
        b[at + 80] ^= 0x40
open(p, "wb").write(b)
PY
}

# plan_run WHAT yes|no PROG [ARG...]: a traced run of PROG with $PLAN_FUNCS (LD_DEBUG=files in
# its stderr), unchanged, with exact counts, each function hooked as $PLAN_HOOKS says
# (name=hook ...), libc's _exit detoured, and libZydis loaded (yes) or not (no).
plan_run() {
	local what=$1 want=$2 got=no fh
	shift 2
	rm -f "$T"/r.*
	run_pair plan_cache "$PLAN_FUNCS" "$@" && one_report && check_expects "$T/t.out" ||
		sub_failed "$what" || return 1
	for fh in $PLAN_HOOKS; do
		hooked "${fh#*=}" "${fh%=*}" || sub_failed "$what" || return 1
	done
	! grep -q "_exit: no detour" "$T/t.shim" ||
		fail_because "$what: $(grep '_exit: no detour' "$T/t.shim")" || return 1
	grep -q 'file=libZydis' "$T/t.err" && got=yes
	[ "$got" = "$want" ] ||
		fail_because "$what: libZydis loaded: $got, expected $want" || return 1
}

# Run 1 with an empty $XDG_CACHE_HOME loads the decoder and keeps the plans of libwork.so's
# functions (work_empty's covers the padding after it), of libc's _exit and of the
# calibration's function: run 2 hooks the same functions with the same counts without
# loading libZydis; so do t_trap's functions too short for the jump, traced through traps. A record whose
# function bytes differ (hash made to agree), a damaged record, a cut file: the decoder
# again, the plans rewritten (the run after is without it), and one line says that kept
# records failed their check. TSC_CACHE=0 loads it and keeps
# nothing; a cache directory that cannot be made costs the decoder and no line.
test_plan_cache() {
	local c=$T/cache f how n1 side=$T/side
	local PLAN_FUNCS=work_spin,work_add,work_empty,work_never
	local PLAN_HOOKS="work_spin=inline work_add=inline work_empty=inline work_never=inline"
	XENV+=(TSC_HOOK=inline "XDG_CACHE_HOME=$c" LD_DEBUG=files)
	CMP_STDERR=0
	plan_run "run 1, nothing kept" yes "$B/t_report" "$side" || return 1
	n1=$(grep -vc 'report written' "$T/t.shim")
	f=$(find "$c/tsctrace" -name '*.plan' -newer "$B/libwork.so" 2>/dev/null | head -1)
	[ -n "$f" ] || fail_because "no plans kept in $c/tsctrace: $(ls "$c/tsctrace" 2>&1)" ||
		return 1
	[ "$(stat -c %a "$f")" = 600 ] || fail_because "plan file mode $(stat -c %a "$f")" || return 1
	plan_run "run 2, plans kept" no "$B/t_report" "$side" || return 1
	for how in bytes copy; do
		for f in "$c"/tsctrace/*.plan; do
			plan_forge "$f" "$how" || fail_because "test setup: cannot forge $f" || return 1
		done
		plan_run "$how forged" yes "$B/t_report" "$side" || return 1
		[ "$(grep -c 'failed their check' "$T/t.shim")" = 1 ] ||
			fail_because "$how forged: not one line: $(head -c 300 "$T/t.shim")" || return 1
		plan_run "after $how forged, rewritten" no "$B/t_report" "$side" || return 1
	done
	for f in "$c"/tsctrace/*.plan; do
		head -c 100 "$f" >"$f.cut" && mv "$f.cut" "$f"
	done
	plan_run "a cut file" yes "$B/t_report" "$side" || return 1
	plan_run "after a cut file, rewritten" no "$B/t_report" "$side" || return 1
	cat "$c"/tsctrace/*.plan >"$T/kept"
	XENV+=(TSC_CACHE=0)
	plan_run "TSC_CACHE=0" yes "$B/t_report" "$side" || return 1
	cat "$c"/tsctrace/*.plan | cmp -s - "$T/kept" ||
		fail_because "TSC_CACHE=0 changed the kept plans" || return 1
	unset 'XENV[${#XENV[@]}-1]'
	: >"$T/notadir"
	XENV+=("XDG_CACHE_HOME=$T/notadir/x")
	plan_run "a cache directory that cannot be made" yes "$B/t_report" "$side" || return 1
	[ "$(grep -vc 'report written' "$T/t.shim")" = "$n1" ] ||
		fail_because "the shim said more without a cache directory: $(head -3 "$T/t.shim")" ||
		return 1
	PLAN_FUNCS=tiny_ret,tiny_endbr,tiny_inc
	PLAN_HOOKS="tiny_ret=trap tiny_endbr=trap tiny_inc=trap"
	XENV+=("XDG_CACHE_HOME=$T/cache2")
	plan_run "traps, nothing kept" yes "$B/t_trap" calls &&
		plan_run "traps, plans kept" no "$B/t_trap" calls
}

# Plans kept by a run without sampling, used by one with TSC_SAMPLE, whose slots start with a
# counting head and so hold the copy further in (hook/slot_code.h): the copies are made again
# at their new place, without the decoder, and every call is still counted (exact counts,
# check_expects); and the other way round.
test_plan_cache_sampled() {
	local c=$T/cache side=$T/side
	local PLAN_FUNCS=work_spin,work_add,work_empty,work_never
	local PLAN_HOOKS="work_spin=inline work_add=inline work_empty=inline work_never=inline"
	XENV+=(TSC_HOOK=inline "XDG_CACHE_HOME=$c" LD_DEBUG=files)
	CMP_STDERR=0
	plan_run "plain slots, nothing kept" yes "$B/t_report" "$side" || return 1
	XENV+=(TSC_SAMPLE=7)
	plan_run "counting slots, plain slots' plans kept" no "$B/t_report" "$side" || return 1
	rm -rf "$c"
	plan_run "counting slots, nothing kept" yes "$B/t_report" "$side" || return 1
	unset 'XENV[${#XENV[@]}-1]'
	plan_run "plain slots, counting slots' plans kept" no "$B/t_report" "$side"
}

# libsameid.so rebuilt with another body and the same build ID (tests/prog/Makefile): its
# kept plan, for the same offset and length, is not used (its first bytes differ); the
# decoder plans it again, and that plan is kept instead.
test_plan_cache_rebuilt() {
	local c=$T/cache sum_a st
	local PLAN_FUNCS=sameid_fn PLAN_HOOKS=sameid_fn=inline
	XENV+=(TSC_HOOK=inline "XDG_CACHE_HOME=$c" LD_DEBUG=files)
	CMP_STDERR=0
	plan_run "build a, nothing kept" yes "$B/t_sameid" || return 1
	sum_a=$(cat "$T/u.out")
	plan_run "build a, its plan kept" no "$B/t_sameid" || return 1
	export LD_LIBRARY_PATH=$B/sameid_b
	plan_run "build b, build a's plan kept" yes "$B/t_sameid" &&
		plan_run "build b, its plan kept" no "$B/t_sameid"
	st=$?
	unset LD_LIBRARY_PATH
	[ $st -eq 0 ] || return 1
	[ "$(cat "$T/u.out")" != "$sum_a" ] ||
		fail_because "test setup: build b was not loaded (same output as build a)"
}
