#!/bin/sh
# run.sh BUILD_DIR LIB [TEST...] - the program tests (tests/prog/*.c, built by the Makefile
# beside this file into BUILD_DIR), run untraced and traced with LIB (libtsctrace.so).
#
# Each test appends exactly one line `PASS <name>` or `FAIL <name>: <why>` to $RESULTS
# (default /dev/null) and prints one line to stdout; the run ends with "N passed, N failed"
# and fails when anything failed. TEST names (or shell globs) select a subset.
# SANITIZE (from make) containing "address" ("thread") preloads libasan (libtsan) ahead of LIB in
# traced runs.
# HOOK_ALL=inline|auto|got sets TSC_HOOK in every traced run, except where a test sets its own
# (or tests the default on purpose). CPU_ALL=amd-vm|intel-vm|... sets TSC_CPU likewise: the
# shim then behaves as on that CPU family (src/config/cpu_persona.h), and so do the tests' bounds,
# which come from what the shim measured.
# KEEP=1 keeps the scratch directory (it is always kept when a test failed).
#
# A traced run is compared with the untraced one: stdout byte for byte, exit status, and
# stderr with the shim's `tsctrace: ` lines removed. The JSON report is read with jq.

# Re-run under bash when started as `sh run.sh` (arrays, [[ ]], local).
# shellcheck shell=bash source-path=SCRIPTDIR disable=SC2016,SC2012	# jq programs are single-quoted on purpose; ls of our own files
if [ -z "${BASH_VERSION:-}" ]; then
	exec bash "$0" "$@"
fi
set -u

usage="usage: run.sh BUILD_DIR LIB [TEST...]"
B=${1:?$usage}
LIB=${2:?$usage}
shift 2
# The programs run in scratch directories: make both paths absolute.
case $B in /*) ;; *) B=$PWD/$B ;; esac
case $LIB in /*) ;; *) LIB=$PWD/$LIB ;; esac
ONLY=("$@")
RESULTS=${RESULTS:-/dev/null}
SANITIZE=${SANITIZE:-}
HOOK_ALL=${HOOK_ALL:-}
CPU_ALL=${CPU_ALL:-}
TIMEOUT=${TIMEOUT:-60}

# Start both runs from the same clean environment: no shim, no TSC_* settings of the caller.
unset LD_PRELOAD LD_LIBRARY_PATH
for v in $(compgen -e); do
	case $v in TSC_*) unset "$v" ;; esac
done

PRELOAD=$LIB
ASAN=0
case ",$SANITIZE," in
*,address,*)
	ASAN=1
	PRELOAD="$(${CC:-gcc} -print-file-name=libasan.so) $LIB"
	;;
*,thread,*)	# the same for ThreadSanitizer (make check-tsan)
	PRELOAD="$(${CC:-gcc} -print-file-name=libtsan.so) $LIB"
	;;
esac

WORK=$(mktemp -d "${TMPDIR:-/tmp}/tsctrace-prog.XXXXXX") || exit 1
# The shim keeps answers between runs in $XDG_CACHE_HOME/tsctrace: the tests' own, never the
# user's (and exercised by every test after the first).
export XDG_CACHE_HOME=$WORK/cache
NPASS=0
NFAIL=0
NSKIP=0

# jq helpers. fn(n): the report entry whose name is n or contains n among `a|b` aliases.
JQDEFS='
def fn($n): first(.functions[] | select(.name | split("|") | any(. == $n))) // null;
def counts: {name, calls, timed, unwound, migrated, dropped};
def ordered: .min <= .median and .median <= .p90 and .p90 <= .p99 and .p99 <= .max;
'

# ---- helpers --------------------------------------------------------------------------------

# fail_because WHY...: record why the current test fails (first reason wins); returns 1.
fail_because() {
	[ -n "$WHY" ] || WHY=$(printf '%s' "$*" | tr '\n\t' '  ' | cut -c1-400)
	return 1
}

# ck DESCRIPTION CONDITION [SHOW]: the jq CONDITION must be true on $REPORT; on failure the
# reason quotes the jq expression SHOW evaluated on the report.
ck() {
	local got err
	[ -n "$REPORT" ] && [ -f "$REPORT" ] || fail_because "$1: no report to check" || return 1
	# -s: the file must hold exactly one JSON document (jq -e alone accepts an empty file).
	if jq -e -s "$JQDEFS length == 1 and (.[0] | ($2))" "$REPORT" >/dev/null 2>"$T/jq.err"; then
		return 0
	fi
	got=""
	[ $# -ge 3 ] && got=$(jq -c -s "$JQDEFS .[0] | ($3)" "$REPORT" 2>&1 | head -c 300)
	err=$(head -c 200 "$T/jq.err")
	fail_because "$1${got:+ (got $got)}${err:+ [jq: $err]}"
}

# The lines of the CPU in every traced process: the clock choice's on a CPU whose CPUID does
# not announce rdtscp (AMD EPYC VMs), and TSC_CPU's persona (CPU_ALL): facts of the machine,
# not of the scenario a test stages. t.said is t.shim without them, for tests that check
# everything the shim said (they run in both personae: Makefile's CPU_TESTS).
CPU_NOTE_RE='^tsctrace: (rdtscp is not announced by CPUID: serializing with |TSC_CPU=[a-z0-9=,-]+: )'

# run_pair NAME FUNCS CMD [ARG...]: run CMD untraced, then traced, in the directory $T (made
# fresh by run_test; CMD's cwd). The traced run gets LD_PRELOAD=$PRELOAD TSC_FUNCS=FUNCS
# TSC_FORMAT=$FORMAT TSC_OUTPUT=$OUTTPL TSC_HOOK=$HOOK_ALL (each only when non-empty), then
# "${XENV[@]}" (later assignments win). Compares stdout, status (the untraced one must be
# $WANT_STATUS) and, when CMP_STDERR=1, stderr minus `tsctrace: ` lines. Leaves u.out u.err t.out t.err t.shim t.said in $T;
# REPORT is set to the single file matching $T/r.* when there is exactly one.
run_pair() {
	local name=$1 funcs=$2 ust tst n
	local -a tenv
	shift 2
	tenv=("LD_PRELOAD=$PRELOAD")
	[ -n "$funcs" ] && tenv+=("TSC_FUNCS=$funcs")
	[ -n "$FORMAT" ] && tenv+=("TSC_FORMAT=$FORMAT")
	[ -n "$OUTTPL" ] && tenv+=("TSC_OUTPUT=$OUTTPL")
	[ -n "$HOOK_ALL" ] && tenv+=("TSC_HOOK=$HOOK_ALL")
	[ -n "$CPU_ALL" ] && tenv+=("TSC_CPU=$CPU_ALL")
	tenv+=("${XENV[@]}")

	# The outer 2>/dev/null silences bash's own "Segmentation fault" job notices.
	{ (cd "$T" && exec timeout -k 5 "$TIMEOUT" "$@") >"$T/u.out" 2>"$T/u.err"; } \
		2>/dev/null
	ust=$?
	{ (cd "$T" && exec timeout -k 5 "$TIMEOUT" env "${tenv[@]}" "$@") \
		>"$T/t.out" 2>"$T/t.err"; } 2>/dev/null
	tst=$?
	grep -v '^tsctrace: ' "$T/t.err" >"$T/t.err.prog"
	grep '^tsctrace: ' "$T/t.err" >"$T/t.shim"
	grep -vE "$CPU_NOTE_RE" "$T/t.shim" >"$T/t.said"

	[ $ust -ne 124 ] || fail_because "untraced run timed out (${TIMEOUT}s)" || return 1
	[ $ust -eq "$WANT_STATUS" ] ||
		fail_because "untraced run: status $ust, expected $WANT_STATUS (test broken?): $(head -c 200 "$T/u.err")" ||
		return 1
	[ $tst -ne 124 ] && [ $tst -ne 137 ] ||
		fail_because "traced run timed out after ${TIMEOUT}s; shim said: $(head -3 "$T/t.shim")" ||
		return 1
	[ $tst -eq $ust ] ||
		fail_because "exit status $tst$(signame $tst) traced, $ust untraced; stderr: $(head -c 300 "$T/t.err")" ||
		return 1
	cmp -s "$T/u.out" "$T/t.out" ||
		fail_because "stdout differs: $(diff "$T/u.out" "$T/t.out" | head -4)" || return 1
	if [ "$CMP_STDERR" = 1 ]; then
		cmp -s "$T/u.err" "$T/t.err.prog" ||
			fail_because "stderr differs (tsctrace lines removed): $(diff "$T/u.err" "$T/t.err.prog" | head -4)" ||
			return 1
	fi
	REPORT=""
	n=$(find "$T" -maxdepth 1 -name 'r.*' | wc -l)
	[ "$n" -eq 1 ] && REPORT=$(find "$T" -maxdepth 1 -name 'r.*')
	return 0
}

# is_json FILE: FILE holds exactly one JSON object.
is_json() {
	jq -e -s 'length == 1 and (.[0] | type) == "object"' "$1" >/dev/null 2>&1
}

# signame STATUS: " (SIGSEGV)" for a status above 128, else nothing.
signame() {
	[ "$1" -gt 128 ] && [ "$1" -lt 160 ] && printf ' (SIG%s)' "$(kill -l $(($1 - 128)))"
	return 0
}

# cpu_fact rdtscp|hypervisor: 1 or 0, as the shim sees the CPU: /proc/cpuinfo, with what the
# persona CPU_ALL (TSC_CPU, src/config/cpu_persona.h) overrides; later items win, as in the shim.
cpu_fact() {
	local v hw item
	grep -qw "$1" /proc/cpuinfo && hw=1 || hw=0
	v=$hw
	for item in ${CPU_ALL//,/ }; do
		case $item in
		amd-vm) [ "$1" = rdtscp ] && v=0 || v=1 ;;
		intel-vm) v=1 ;;
		"$1"=*) v=${item#*=} ;;
		esac
	done
	# A persona never announces an rdtscp the hardware's CPUID hides.
	[ "$1" = rdtscp ] && [ "$hw" = 0 ] && v=0
	echo "$v"
}

# one_report: exactly one report was written and it is JSON.
one_report() {
	local n
	n=$(find "$T" -maxdepth 1 -name 'r.*' | wc -l)
	[ "$n" -eq 1 ] || fail_because "$n report files written, expected 1; shim said: $(head -3 "$T/t.shim")" ||
		return 1
	is_json "$REPORT" || fail_because "report $(basename "$REPORT") is not one JSON object" ||
		return 1
}

# check_expects FILE [HOOK]: the `expect`, `expect_min`, `expect_unwound` lines of FILE (see
# tp.h) against $REPORT, plus schema 1 and calls = timed + unwound + migrated + dropped
# everywhere. With HOOK, only functions whose entry has that "hook" are checked.
check_expects() {
	local kind fn n hook=${2:-}
	ck "schema is 1" '.schema == 1' '.schema' || return 1
	ck "calls == timed + skipped + unwound + migrated + dropped for every function" \
		'all(.functions[]; .calls == .timed + (.skipped // 0) + .unwound + .migrated + .dropped)' \
		'[.functions[] | counts]' || return 1
	while read -r kind fn n; do
		if [ -n "$hook" ] && ! jq -e -s ".[0] | $JQDEFS fn(\"$fn\").hook == \"$hook\"" \
			"$REPORT" >/dev/null 2>&1; then
			continue
		fi
		case $kind in
		expect)
			ck "$fn: calls == $n" "fn(\"$fn\").calls == $n" "fn(\"$fn\") | counts" || return 1 ;;
		expect_min)
			ck "$fn: calls >= $n" "fn(\"$fn\").calls >= $n" "fn(\"$fn\") | counts" || return 1 ;;
		expect_unwound)
			ck "$fn: unwound == $n" "fn(\"$fn\").unwound == $n" "fn(\"$fn\") | counts" || return 1 ;;
		esac
	done < <(grep -E '^expect(_min|_unwound)? ' "$1")
	grep -qE '^expect(_min|_unwound)? ' "$1" || fail_because "no expect lines in $(basename "$1") (test broken?)"
}

# side VALUE-NAME: a value ("pid 123") from the side file the program wrote.
side() {
	awk -v k="$1" '$1 == k { print $2 }' "$T/side"
}

# plt_call OBJECT CALLER CALLEE: the disassembly of CALLER calls CALLEE through the PLT.
plt_call() {
	objdump -d --no-show-raw-insn "$B/$1" |
		awk -v f="<$2>:" '$2 == f { p = 1; next } p && /^$/ { p = 0 } p' |
		grep -q "call.*<$3@plt>" ||
		fail_because "test setup: $2 in $1 does not call $3 through the PLT"
}

selected() {
	local pat
	[ ${#ONLY[@]} -eq 0 ] && return 0
	for pat in "${ONLY[@]}"; do
		# shellcheck disable=SC2053
		[[ $1 == $pat ]] && return 0
	done
	return 1
}

# run_test NAME FUNCTION: run one test case and record its result.
run_test() {
	local name=$1 fn=$2 t0=$SECONDS
	selected "$name" || return 0
	T=$WORK/$name
	rm -rf "$T"
	mkdir -p "$T"
	WHY="" SKIP_WHY="" REPORT="" FORMAT=json OUTTPL="$T/r.%p.json" WANT_STATUS=0 CMP_STDERR=1
	XENV=() NOTE=""
	if [ ! -f "$LIB" ]; then
		fail_because "shim $LIB not built"
	elif [ ! -x "$B/t_basic" ]; then
		fail_because "test programs not built in $B"
	elif ! "$fn"; then
		fail_because "failed without a reason (test bug)"
	fi
	if [ -z "$WHY" ] && [ -n "$SKIP_WHY" ]; then
		NSKIP=$((NSKIP + 1))
		echo "SKIP $name${HOOK_ALL:+ (TSC_HOOK=$HOOK_ALL)}${CPU_ALL:+ (TSC_CPU=$CPU_ALL)}: $SKIP_WHY" >>"$RESULTS"
		printf '  SKIP  %-22s %3ss  %s\n' "$name" $((SECONDS - t0)) "$SKIP_WHY"
	elif [ -z "$WHY" ]; then
		NPASS=$((NPASS + 1))
		echo "PASS $name${HOOK_ALL:+ (TSC_HOOK=$HOOK_ALL)}${CPU_ALL:+ (TSC_CPU=$CPU_ALL)}" >>"$RESULTS"
		printf '  PASS  %-22s %3ss%s\n' "$name" $((SECONDS - t0)) "${NOTE:+  ($NOTE)}"
	else
		NFAIL=$((NFAIL + 1))
		echo "FAIL $name${HOOK_ALL:+ (TSC_HOOK=$HOOK_ALL)}${CPU_ALL:+ (TSC_CPU=$CPU_ALL)}: $WHY" >>"$RESULTS"
		printf '  FAIL  %-22s %3ss  %s\n' "$name" $((SECONDS - t0)) "$WHY"
	fi
}

# skip_because WHY...: this machine cannot stage the scenario (say why); the test is counted
# as skipped, never passed, unless it has failed already. Returns 0: `skip_because ...; return`.
skip_because() {
	[ -n "$SKIP_WHY" ] || SKIP_WHY=$(printf '%s' "$*" | tr '\n\t' '  ' | cut -c1-300)
	return 0
}

# pending_test NAME WHY: a test of a feature not built yet. It is listed, never counted as
# passed; change the line back to run_test when the feature lands.
pending_test() {
	selected "$1" || return 0
	echo "SKIP $1: pending, $2" >>"$RESULTS"
	printf '  SKIP  %-22s       pending: %s\n' "$1" "$2"
}

# ---- test cases -----------------------------------------------------------------------------

SIG_FUNCS=t_many,t_ret40,t_ret16,t_retd2,t_mix,t_float,t_ld,t_cld,t_i128,t_big,t_fmt,t_clobber,t_rsp,t_avx,t_avx512

# Every awkward signature, 1000 calls each; checksums of all results must match.
test_signatures() {
	run_pair signatures "$SIG_FUNCS" "$B/t_signatures" || return 1
	grep -q '^callee-saved registers lost (mask rbx,rbp,r12-r15): 0$' "$T/u.out" &&
		grep -q '^t_rsp: 0 calls' "$T/u.out" ||
		fail_because "test setup: the untraced run already fails its own checks" || return 1
	one_report && check_expects "$T/t.out"
}

# The same with each hook mode forced. An inline patch may be refused for some functions
# (too short, branch into the patch): only functions the report says are inline are counted.
test_signatures_got() {
	XENV+=(TSC_HOOK=got)
	run_pair signatures_got "$SIG_FUNCS" "$B/t_signatures" || return 1
	one_report && check_expects "$T/t.out" || return 1
	ck "every function hooked through the GOT" 'all(.functions[]; .hook == "got")' \
		'[.functions[] | {name, hook}]'
}

test_signatures_inline() {
	XENV+=(TSC_HOOK=inline)
	run_pair signatures_inline "$SIG_FUNCS" "$B/t_signatures" || return 1
	one_report && check_expects "$T/t.out" inline || return 1
	# All 15 are ordinary functions of 19 bytes or more: most must be patchable.
	ck "TSC_HOOK=inline: at least 8 of the 15 functions patched inline" \
		'[.functions[] | select(.hook == "inline")] | length >= 8' \
		'[.functions[] | {name, hook}]'
}

# The same under each TSC_SERIALIZE mode: cpuid clobbers eax, ebx, ecx, edx; rdtscp ecx.
signatures_serialize() {
	local want=$1
	XENV+=("TSC_SERIALIZE=$1")
	run_pair "signatures_ser_$1" "$SIG_FUNCS" "$B/t_signatures" || return 1
	one_report && check_expects "$T/t.out" || return 1
	# rdtscp falls back to lfence where CPUID hides it (docs/clock.md).
	[ "$1" = rdtscp ] && [ "$(cpu_fact rdtscp)" = 0 ] && want=lfence
	ck "clock.serialize is $want" ".clock.serialize == \"$want\"" '.clock'
}
test_signatures_ser_rdtscp() { signatures_serialize rdtscp; }
test_signatures_ser_lfence() { signatures_serialize lfence; }
test_signatures_ser_mfence() { signatures_serialize mfence; }
test_signatures_ser_cpuid() { signatures_serialize cpuid; }
test_signatures_ser_none() { signatures_serialize none; }

# A function recursing into itself through the PLT: fib(20) + fib(15) invocations.
test_recursion() {
	plt_call librec.so rec_fib rec_fib || return 1
	run_pair recursion rec_fib "$B/t_recursion" || return 1
	one_report && check_expects "$T/t.out"
}

# The same, 10001 frames deep.
test_recursion_deep() {
	plt_call librec.so rec_depth rec_depth || return 1
	run_pair recursion_deep rec_depth "$B/t_recursion" deep || return 1
	one_report && check_expects "$T/t.out"
}

# 8 threads x 100,000 calls.
test_threads() {
	run_pair threads work_add "$B/t_threads" || return 1
	one_report && check_expects "$T/t.out" || return 1
	ck "threads.traced >= 8" '.threads.traced >= 8' '.threads' || return 1
	# libtsctrace(7), REPORT: dropped is "the first call in each thread" (8 threads call work_add).
	ck "work_add: dropped == 8 (first call of each of the 8 threads)" \
		'fn("work_add").dropped == 8' 'fn("work_add") | counts'
}

dlopen_case() {
	plt_call libplugin.so plugin_outer plugin_inner || return 1
	if [ "$1" = runpath ] && [ "$ASAN" = 1 ]; then
		# ASan's dlopen interceptor makes libasan the caller, whose RUNPATH glibc searches:
		# the plugin cannot be found even untraced. Only compare the failure.
		WANT_STATUS=1 NOTE="under ASan dlopen ignores the caller's RUNPATH: compared the failure only"
		run_pair "dlopen_$1" plugin_inner,plugin_outer,work_add "$B/t_dlopen" "$1"
		return
	fi
	run_pair "dlopen_$1" plugin_inner,plugin_outer,work_add "$B/t_dlopen" "$1" || return 1
	one_report && check_expects "$T/t.out"
}
test_dlopen_now() { dlopen_case now; }
test_dlopen_lazy() { dlopen_case lazy; }
test_dlopen_runpath() { dlopen_case runpath; }
test_dlopen_reload() { dlopen_case reload; }
test_dlopen_moved() { dlopen_case moved; }

# -fno-plt -z now: calls through read-only GLOB_DAT slots.
test_noplt() {
	readelf -rW "$B/t_noplt" | grep -q 'R_X86_64_GLOB_DAT.* work_add' &&
		! readelf -rW "$B/t_noplt" | grep -q 'R_X86_64_JUMP_SLOT.* work_add' &&
		readelf -dW "$B/t_noplt" | grep -q 'BIND_NOW' &&
		readelf -lW "$B/t_noplt" | grep -q 'GNU_RELRO' ||
		fail_because "test setup: t_noplt is not a -fno-plt, BIND_NOW, RELRO binary" || return 1
	run_pair noplt work_add,work_leaf "$B/t_noplt" || return 1
	one_report && check_expects "$T/t.out"
}

test_errno() {
	run_pair errno err_set,err_keep "$B/t_errno" || return 1
	one_report && check_expects "$T/t.out"
}

# ---- real programs
make_input() {
	awk 'BEGIN { x = 7; for (i = 0; i < 20000; i++) { x = (x * 75 + 74) % 65537;
		printf "%05d %s line %d\n", x, (x % 3 ? "alpha" : "beta"), i } }' >"$T/in.txt"
	[ "$ASAN" = 1 ] && XENV+=(ASAN_OPTIONS=detect_leaks=0)	# LSan would judge sort, not us
	return 0
}
REAL_FUNCS=strlen,memcpy,malloc,free

test_real_sort() {
	make_input
	run_pair real_sort "$REAL_FUNCS" sort -k2,2 -k1,1n in.txt || return 1
	one_report || return 1
	ck "schema is 1" '.schema == 1' '.schema' || return 1
	ck "malloc: calls > 0" 'fn("malloc").calls > 0' '[.functions[] | counts]' || return 1
	ck "strlen, memcpy, malloc, free are all listed" \
		'[.functions[].name | split("|")[]] as $n |
		 all("strlen", "memcpy", "malloc", "free"; . as $x | any($n[]; . == $x))' \
		'[.functions[].name]' || return 1
	ck "calls == timed + skipped + unwound + migrated + dropped for every function" \
		'all(.functions[]; .calls == .timed + (.skipped // 0) + .unwound + .migrated + .dropped)' \
		'[.functions[] | counts]'
}

test_real_gzip() {
	make_input
	run_pair real_gzip "$REAL_FUNCS" gzip -c -n -6 in.txt || return 1
	one_report || return 1
	ck "schema is 1" '.schema == 1' || return 1
	ck "calls == timed + skipped + unwound + migrated + dropped for every function" \
		'all(.functions[]; .calls == .timed + (.skipped // 0) + .unwound + .migrated + .dropped)' \
		'[.functions[] | counts]'
}

test_real_sed() {
	make_input
	run_pair real_sed "$REAL_FUNCS" sed -e 's/alpha/ALPHA/g; /beta/d' in.txt || return 1
	one_report || return 1
	ck "malloc: calls > 0" 'fn("malloc").calls > 0' '[.functions[] | counts]'
}

# The text report: written to the file, readable text naming the functions.
test_real_text() {
	make_input
	FORMAT=text OUTTPL="$T/r.%p.txt"
	run_pair real_text "$REAL_FUNCS" sort -r in.txt || return 1
	[ -n "$REPORT" ] && [ -s "$REPORT" ] ||
		fail_because "no text report written: $(ls "$T")" || return 1
	grep -q malloc "$REPORT" && grep -q strlen "$REPORT" ||
		fail_because "text report does not name malloc and strlen" || return 1
	! is_json "$REPORT" || fail_because "TSC_FORMAT=text wrote JSON"
}

# ---- bad input and environment handling
# shim_lines PATTERN: number of `tsctrace: ` lines of the traced run matching PATTERN (ERE).
shim_lines() {
	grep -cE "$1" "$T/t.shim"
}

test_bad_unknown_name() {
	run_pair bad_unknown_name strlen,no_such_function_xyz "$B/t_basic" || return 1
	[ "$(grep -c no_such_function_xyz "$T/t.err")" -eq 1 ] &&
		[ "$(shim_lines no_such_function_xyz)" -eq 1 ] ||
		fail_because "expected exactly one stderr line, starting 'tsctrace: ', naming no_such_function_xyz; got: $(grep no_such_function_xyz "$T/t.err" | head -3)" ||
		return 1
	one_report && check_expects "$T/t.out" || return 1
	ck "no_such_function_xyz is not in the report" 'fn("no_such_function_xyz") == null'
}

# A typo in a name: the one line about it suggests the loaded function one swap away.
test_bad_typo_func() {
	run_pair bad_typo_func strlne,work_add "$B/t_basic" || return 1
	[ "$(shim_lines 'no function strlne in the loaded objects \(did you mean strlen\?\)')" -eq 1 ] ||
		fail_because "expected one line suggesting strlen for strlne; got: $(grep strlne "$T/t.shim" | head -2)" ||
		return 1
	one_report &&
		ck "work_add traced, strlne not in the report" 'fn("work_add") != null and fn("strlne") == null' \
			'[.functions[].name]'
}

# A glob matching many functions: one line, with how many and the first four, not a line each.
test_glob_one_line() {
	run_pair glob_one_line 'libc.so.6:str*,work_add' "$B/t_basic" || return 1
	[ "$(shim_lines 'str\*')" -eq 1 ] &&
		[ "$(shim_lines '^tsctrace: libc\.so\.6:str\*: [0-9]+ functions \(str[a-z_0-9]*, str[a-z_0-9]*, str[a-z_0-9]*, str[a-z_0-9]* and [0-9]+ more\)$')" -eq 1 ] ||
		fail_because "expected one line 'libc.so.6:str*: N functions (a, b, c, d and M more)'; got: $(grep 'str\*' "$T/t.shim" | head -3)" ||
		return 1
	one_report && check_expects "$T/t.out"
}

# bad_value VAR VALUE [novalue]: a malformed value gets one line naming the variable and the
# value (libtsctrace(7), ENVIRONMENT; an unknown variable: one line naming it), output unchanged.
bad_value() {
	XENV+=("$1=$2")
	run_pair "bad_$1" strlen "$B/t_basic" || return 1
	[ "$(grep -c -w "$1" "$T/t.err")" -eq 1 ] && [ "$(shim_lines "\\b$1\\b")" -eq 1 ] ||
		fail_because "expected exactly one 'tsctrace: ' line naming $1; got: $(grep -w "$1" "$T/t.err" | head -3)" ||
		return 1
	[ "${3:-}" = novalue ] || grep -w "$1" "$T/t.shim" | grep -qF -- "$2" ||
		fail_because "the $1 line does not quote the value $2: $(grep -w "$1" "$T/t.shim")"
}

test_bad_format() {
	bad_value TSC_FORMAT xml || return 1
	# The default format (text) is used instead.
	[ -n "$REPORT" ] && [ -s "$REPORT" ] || fail_because "no report written after TSC_FORMAT=xml" ||
		return 1
	! is_json "$REPORT" ||
		fail_because "TSC_FORMAT=xml should fall back to the default text format, got JSON"
}

test_bad_serialize() {
	bad_value TSC_SERIALIZE bogus || return 1
	one_report && check_expects "$T/t.out" || return 1
	ck "clock.serialize is the default (rdtscp, or lfence where CPUID hides rdtscp)" \
		'.clock.serialize == "rdtscp" or .clock.serialize == "lfence"' '.clock'
}

test_bad_typo() {
	# TSC_FUNC (a typo of TSC_FUNCS) beside a valid TSC_FUNCS.
	bad_value TSC_FUNC strlen novalue || return 1
	one_report && check_expects "$T/t.out"
}

test_bad_output_dir() {
	OUTTPL=/nonexistent/dir/r.%p.json CMP_STDERR=0
	run_pair bad_output_dir strlen "$B/t_basic" || return 1
	[ "$(shim_lines '/nonexistent/dir')" -ge 1 ] ||
		fail_because "no 'tsctrace: ' line about /nonexistent/dir: $(head -3 "$T/t.shim")" || return 1
	REPORT=$T/stderr-report.json
	cp "$T/t.err.prog" "$REPORT"
	is_json "$REPORT" ||
		fail_because "the report on stderr is not one JSON object: $(head -c 200 "$REPORT")" || return 1
	check_expects "$T/t.out"
}

test_output_stderr() {
	OUTTPL=- CMP_STDERR=0
	run_pair output_stderr strlen "$B/t_basic" || return 1
	[ -z "$(find "$T" -maxdepth 1 \( -name 'r.*' -o -name 'tsctrace.*' -o -name '-' \))" ] ||
		fail_because "TSC_OUTPUT=- wrote a file: $(ls "$T")" || return 1
	REPORT=$T/stderr-report.json
	cp "$T/t.err.prog" "$REPORT"
	is_json "$REPORT" ||
		fail_because "the report on stderr is not one JSON object: $(head -c 200 "$REPORT")" || return 1
	check_expects "$T/t.out"
}

# Without TSC_FUNCS (unset, then empty): same output, no stderr at all, no file anywhere.
test_funcs_unset() {
	mkdir "$T/cwd"
	FORMAT="" OUTTPL=""
	(cd "$T/cwd" && exec timeout -k 5 "$TIMEOUT" "$B/t_basic") >"$T/u.out" 2>"$T/u.err"
	{ (cd "$T/cwd" && exec timeout -k 5 "$TIMEOUT" env LD_PRELOAD="$PRELOAD" "$B/t_basic") \
		>"$T/t.out" 2>"$T/t.err"; } 2>/dev/null ||
		fail_because "traced run failed, status $?$(signame $?): $(head -c 200 "$T/t.err")" ||
		return 1
	cmp -s "$T/u.out" "$T/t.out" || fail_because "stdout differs" || return 1
	[ ! -s "$T/t.err" ] || fail_because "stderr output without TSC_FUNCS: $(head -c 200 "$T/t.err")" ||
		return 1
	[ -z "$(ls -A "$T/cwd")" ] || fail_because "files written without TSC_FUNCS: $(ls -A "$T/cwd")" ||
		return 1
	# Empty TSC_FUNCS with an explicit output path and format.
	{ (cd "$T/cwd" && exec timeout -k 5 "$TIMEOUT" env LD_PRELOAD="$PRELOAD" TSC_FUNCS= \
		TSC_FORMAT=json TSC_OUTPUT="$T/cwd/r.%p.json" "$B/t_basic") >"$T/t2.out" 2>"$T/t2.err"; } \
		2>/dev/null ||
		fail_because "traced run (TSC_FUNCS empty) failed: $(head -c 200 "$T/t2.err")" || return 1
	cmp -s "$T/u.out" "$T/t2.out" || fail_because "stdout differs with TSC_FUNCS empty" || return 1
	[ ! -s "$T/t2.err" ] ||
		fail_because "stderr output with TSC_FUNCS empty: $(head -c 200 "$T/t2.err")" || return 1
	[ -z "$(ls -A "$T/cwd")" ] ||
		fail_because "files written with TSC_FUNCS empty: $(ls -A "$T/cwd")"
}

test_exit_status() {
	WANT_STATUS=3
	run_pair exit_status strlen "$B/t_basic" exit3 || return 1
	one_report && check_expects "$T/t.out"
}

# exit() from a second thread while the main thread keeps calling a traced function.
test_exit_thread() {
	WANT_STATUS=5
	run_pair exit_thread strlen,work_add "$B/t_basic" threadexit || return 1
	one_report && check_expects "$T/t.out" && return 0
	# The main thread is usually inside work_add when exit() runs: libtsctrace(7) still
	# wants calls == timed + unwound + migrated + dropped in the report.
	WHY="$WHY (main thread was calling work_add while another thread called exit)"
	return 1
}

# %e, %p, %t and %% in TSC_OUTPUT; then the default name tsctrace.%e.%p.txt in the cwd.
test_output_template() {
	local pid t0 t1 f tt
	mkdir "$T/o"
	OUTTPL="$T/o/%e-%p-%t-%%.json"
	t0=$(date +%s)
	run_pair output_template strlen "$B/t_basic" run "$T/side" || return 1
	t1=$(date +%s)
	pid=$(side pid)
	f=$(ls -A "$T/o")
	[ "$(ls -A "$T/o" | wc -l)" -eq 1 ] && [[ $f =~ ^t_basic-$pid-([0-9]+)-%\.json$ ]] ||
		fail_because "expected one file t_basic-$pid-<time>-%.json in the output dir, found: $(ls -A "$T/o" | tr '\n' ' ')" ||
		return 1
	tt=${BASH_REMATCH[1]}
	[ "$tt" -ge $((t0 - 2)) ] && [ "$tt" -le $((t1 + 2)) ] ||
		fail_because "%t expanded to $tt, not within the run ($t0..$t1)" || return 1
	REPORT=$T/o/$f
	ck "pid == $pid" ".pid == $pid" '.pid' || return 1

	FORMAT="" OUTTPL=""
	run_pair output_template strlen "$B/t_basic" run "$T/side" || return 1
	pid=$(side pid)
	[ -s "$T/tsctrace.t_basic.$pid.txt" ] ||
		fail_because "default TSC_OUTPUT: no tsctrace.t_basic.$pid.txt in the working directory: $(ls -A "$T" | tr '\n' ' ')"
}

# ---- the report
test_report() {
	local pid
	run_pair report work_spin,work_add,work_empty,work_never "$B/t_report" "$T/side" || return 1
	one_report && check_expects "$T/t.out" || return 1
	pid=$(side pid)
	ck "pid == getpid() ($pid)" ".pid == $pid" '.pid' || return 1
	ck "tool is 'tsctrace <version>'" '.tool | test("^tsctrace [0-9]")' '.tool' || return 1
	ck "program is the name run, exe the executable" \
		'.program == "t_report" and (.exe | endswith("/t_report"))' '{program, exe}' || return 1
	ck "argv as given" "(.argv | length) == 2 and (.argv[0] | endswith(\"t_report\")) and .argv[1] == \"$T/side\"" \
		'.argv' || return 1
	ck "wall_ns > 0 and start_unix_ns plausible" \
		'.wall_ns > 0 and (.start_unix_ns / 1e9 - now | fabs) < 600' '{wall_ns, start_unix_ns}' ||
		return 1
	ck "clock.granularity > 0" '.clock.granularity > 0' '.clock' || return 1
	ck "clock.tsc_hz > 0 (source tsc)" '.clock.source != "tsc" or .clock.tsc_hz > 0' '.clock' ||
		return 1
	ck "clock.source is tsc or monotonic" '.clock.source == "tsc" or .clock.source == "monotonic"' \
		'.clock' || return 1
	ck "overhead.subtracted is a number" '(.overhead.subtracted | type) == "number"' '.overhead' ||
		return 1
	ck "functions sorted by cycles.total, largest first" \
		'[.functions[] | .cycles.total // 0] | . == (sort | reverse)' \
		'[.functions[] | {name, total: .cycles.total}]' || return 1
	# By the median, not the total: on a busy machine one preempted call of work_empty can
	# hold milliseconds, more than all of work_spin's calls (seen with make -j2 beside).
	ck "work_spin has the largest cycles.median" \
		'[.functions[] | select(.timed > 0)] | max_by(.cycles.median).name == "work_spin"' \
		'[.functions[] | {name, median: .cycles.median}]' || return 1
	ck "never-called work_never listed with calls 0" \
		'fn("work_never") != null and fn("work_never").calls == 0 and fn("work_never").timed == 0' \
		'fn("work_never")' || return 1
	ck "each called function: dropped == 1 (first call of the one thread)" \
		'all(.functions[] | select(.calls > 0); .dropped == 1)' '[.functions[] | counts]' || return 1
	ck "histogram of cycles, bucket counts sum to timed" \
		'all(.functions[] | select(.timed > 0); .histogram.of == "cycles" and ([.histogram.buckets[][2]] | add) == .timed)' \
		'[.functions[] | {name, timed, sum: ([.histogram.buckets[]?[2]] | add)}]' || return 1
	ck "histogram buckets non-empty, low <= high, ascending, disjoint" \
		'all(.functions[] | .histogram.buckets // [];
			all(.[]; .[2] > 0 and .[0] <= .[1]) and
			([range(1; length) as $i | .[$i - 1][1] < .[$i][0]] | all))' \
		'[.functions[] | {name, b: .histogram.buckets[:6]}]' || return 1
	ck "cycles and raw: min <= median <= p90 <= p99 <= max" \
		'all(.functions[] | select(.timed > 0); (.cycles | ordered) and (.raw | ordered))' \
		'[.functions[] | {name, cycles, raw}]' || return 1
	ck "min and max lie in the first and last histogram bucket" \
		'all(.functions[] | select(.timed > 0); .histogram.buckets as $b |
			.cycles.min >= $b[0][0] and .cycles.min <= $b[0][1] and
			.cycles.max >= $b[-1][0] and .cycles.max <= $b[-1][1])' \
		'[.functions[] | {name, c: .cycles, first: .histogram.buckets[0], last: .histogram.buckets[-1]}]' ||
		return 1
	# Percentiles come from the histogram: each lies in the bucket holding its rank (allowing
	# the neighbouring rank for rounding conventions).
	ck "median, p90, p99 lie in the histogram bucket of their rank" \
		'def cum: reduce .[] as $x ([]; . + [((.[-1][3] // 0) + $x[2]) as $c | $x + [$c]]);
		 def bucket_of($r): first(.[] | select(.[3] >= $r));
		 all(.functions[] | select(.timed > 0); . as $f | (.histogram.buckets | cum) as $c |
			all([0.5, "median"], [0.9, "p90"], [0.99, "p99"];
				.[0] as $p | $f.cycles[.[1]] as $v |
				([($p * $f.timed | floor), 1] | max) as $lo |
				([($p * $f.timed | ceil) + 1, $f.timed] | min) as $hi |
				$v >= ($c | bucket_of($lo))[0] and $v <= ($c | bucket_of($hi))[1]))' \
		'[.functions[] | {name, timed, cycles}]' || return 1
	ck "raw.min - cycles.min == overhead.subtracted (cycles.min == 0 when raw.min is below it)" \
		'.overhead.subtracted as $s | all(.functions[] | select(.timed > 0);
			if .raw.min >= $s then .raw.min - .cycles.min == $s else .cycles.min == 0 end)' \
		'{subtracted: .overhead.subtracted, f: [.functions[] | {name, raw: .raw.min, cycles: .cycles.min}]}' ||
		return 1
	ck "mean between min and max, and mean * timed ~= total" \
		'all(.functions[] | select(.timed > 0); .cycles as $c |
			$c.mean >= $c.min and $c.mean <= $c.max and
			(($c.mean * .timed - $c.total) | fabs) <= 0.05 * .timed + 1)' \
		'[.functions[] | {name, timed, cycles}]' || return 1
	ck "ns = cycles converted with tsc_hz" \
		'.clock.source != "tsc" or (.clock.tsc_hz as $hz | all(.functions[] | select(.timed > 0);
			. as $f | all("min", "median", "max";
				(($f.ns[.] - $f.cycles[.] * 1e9 / $hz) | fabs) <= 0.06 + 0.01 * $f.ns[.])))' \
		'{hz: .clock.tsc_hz, f: [.functions[] | {name, cycles, ns}]}' || return 1
	ck "work_spin slower than work_add (median)" \
		'fn("work_spin").cycles.median > fn("work_add").cycles.median' \
		'[fn("work_spin", "work_add") | {name, median: .cycles.median}]' || return 1
	ck "first is reported for called functions" \
		'all(.functions[] | select(.calls > 0); (.first | type) == "number")' \
		'[.functions[] | {name, first}]'
}

# An empty function: after overhead subtraction, within 4 ticks (or one clock step) of zero.
test_empty() {
	run_pair empty work_empty "$B/t_empty" || return 1
	one_report && check_expects "$T/t.out" || return 1
	ck "work_empty: cycles.min <= max(4, granularity)" \
		'.clock.granularity as $g | fn("work_empty").cycles.min <= ([4, $g] | max)' \
		'{granularity: .clock.granularity, overhead, cycles: fn("work_empty").cycles}' || return 1
	ck "work_empty: cycles.median <= 2 * granularity + 4 + overhead spread (median - min)" \
		'.clock.granularity as $g | fn("work_empty").cycles.median <=
		 2 * $g + 4 + (.overhead.median - .overhead.min)' \
		'{granularity: .clock.granularity, overhead, cycles: fn("work_empty").cycles}'
}

# Functions of known duration: spin_1k/10k/100k busy-wait 1,000/10,000/100,000 TSC ticks,
# spin_empty does nothing (libspin.so). t_accuracy times each itself in the same run, with
# inline serialized reads around calls of the same target (its reference medians, minus its
# own calibrated overhead, go to the side file); the shim's cycles.median must agree within
# max(10 ticks, 2%, 2 * clock.granularity, the spreads (median - min) of the shim's overhead
# calibration and of the program's: how far each subtraction may be off where the bracket's
# cost has two modes, one iteration of the spin loop: a spin's length varies by one, so two
# medians of it may sit one apart). The shim's figures are taken less its own spin_empty median:
# the overhead its subtraction left in this run's empty calls, timed interleaved with the
# spins (a busy machine makes the bracket dearer than at calibration; the reference, an
# interleaved difference too, is unmoved by that). spin_empty as in test_empty, its spread also
# the program's own of the empty call in this run (its brackets hold the shim's readings).
# Calls exact.
# libspin.so and t_accuracy are built as every other test program, also under SANITIZE: the
# timed code (the spin loops, the inline brackets) has no memory access to instrument.
test_accuracy() {
	local f ref shim empty
	# The reference is in TSC ticks: keep the shim on the TSC where auto would fall back to
	# nanoseconds (a TSC that is not invariant).
	XENV+=(TSC_CLOCK=tsc)
	run_pair accuracy spin_1k,spin_10k,spin_100k,spin_empty "$B/t_accuracy" "$T/side" || return 1
	one_report && check_expects "$T/t.out" || return 1
	ck "clock.source is tsc" '.clock.source == "tsc"' '.clock' || return 1
	empty=$(jq -r -s "$JQDEFS .[0] | fn(\"spin_empty\").cycles.median" "$REPORT")
	NOTE="ticks, reference/shim less its spin_empty median $empty:"
	for f in spin_1k spin_10k spin_100k; do
		ref=$(side "ref_$f")
		[ -n "$ref" ] || fail_because "test setup: no ref_$f in the side file" || return 1
		shim=$(jq -r -s "$JQDEFS .[0] | fn(\"$f\").cycles.median - $empty" "$REPORT")
		NOTE="$NOTE $f $ref/$shim"
		# Under load the calls spread out and two medians of the same spin drift apart by
		# chance: about (p90 - median) / sqrt(timed) each, so 4.5 of those (3 standard errors
		# of their difference) is allowed too; on a quiet machine that term is small.
		ck "$f: cycles.median less spin_empty's ($empty) within max(10, 2%, 2 * granularity, overhead spreads, spin iteration, 4.5 (p90 - median) / sqrt(timed)) of the reference $ref" \
			".clock.granularity as \$g |
			 (.overhead.median - .overhead.min + $(side overhead_empty_call_spread)) as \$spread |
			 fn(\"$f\") as \$fn |
			 (4.5 * (\$fn.cycles.p90 - \$fn.cycles.median) / ([\$fn.timed, 1] | max | sqrt)) as \$chance |
			 (\$fn.cycles.median - $empty) as \$m |
			 (\$m - $ref | fabs) <= ([10, 0.02 * $ref, 2 * \$g, \$spread, $(side spin_iteration), \$chance] | max)" \
			"{granularity: .clock.granularity, overhead, reference: $ref, spin_iteration: $(side spin_iteration),
			  timed: fn(\"$f\").timed, cycles: fn(\"$f\").cycles}" || return 1
	done
	NOTE="$NOTE; granularity $(jq -r .clock.granularity "$REPORT"), spin iteration $(side spin_iteration)"
	ck "spin_empty: cycles.min <= max(4, granularity)" \
		'.clock.granularity as $g | fn("spin_empty").cycles.min <= ([4, $g] | max)' \
		'{granularity: .clock.granularity, overhead, cycles: fn("spin_empty").cycles}' || return 1
	# The overhead subtracted is the calibration's minimum; where the calibration itself was
	# spread (two modes of the bracket's cost, e.g. while another thread loads the core's
	# sibling), calls in the upper mode keep that spread; where the run was busier than the
	# calibration, the spread of the program's own brackets of the same empty calls.
	ck "spin_empty: cycles.median <= 2 * granularity + 4 + overhead spread (the shim's or the program's)" \
		".clock.granularity as \$g | fn(\"spin_empty\").cycles.median <=
		 2 * \$g + 4 + ([.overhead.median - .overhead.min, $(side overhead_empty_call_spread)] | max)" \
		"{granularity: .clock.granularity, overhead, program_spread: $(side overhead_empty_call_spread),
		  cycles: fn(\"spin_empty\").cycles}"
}

# TSC_CALLERS=1: work_add's calls by call site, exact and adding up; =3: the site in leaf()
# splits into the path through p1 and the one through p2.
test_callers() {
	XENV+=(TSC_CALLERS=1)
	run_pair callers work_add,spin_1k "$B/t_callers" || return 1
	one_report && check_expects "$T/t.out" || return 1
	ck "work_add callers: sites with 250, 100, 90+60 (leaf), 40 calls" \
		'[fn("work_add").callers[].calls] == [250, 150, 100, 40]' \
		'[fn("work_add").callers[] | {site, calls}]' || return 1
	ck "sites named after the calling functions" \
		'[fn("work_add").callers[].site | split("+")[0] | split(".")[0]] ==
		 ["b", "leaf", "a", "main"]' \
		'[fn("work_add").callers[].site]' || return 1
	ck "every field of the sites adds up to the function's" \
		'fn("work_add") as $f | all(["calls","timed","unwound","migrated","dropped"][];
		 . as $k | ([$f.callers[][$k]] | add) == $f[$k])' \
		'fn("work_add") | {calls, timed, dropped, callers: [.callers[] | {calls, timed, dropped}]}' ||
		return 1
	ck "each site's histogram (for merge) holds its timed calls, between its min and max" \
		'all(fn("work_add").callers[] | select(.cycles.max > 0); .timed as $t | .cycles as $c
		 | ((.histogram.buckets // []) | map(.[2]) | add // 0) == $t
		 and ($t == 0 or (.histogram.buckets[0][1] >= $c.min
		      and .histogram.buckets[-1][0] <= $c.max)))' \
		'[fn("work_add").callers[] | {timed, cycles, histogram}]'
}

# callers_spin_run: t_callers traced under XENV; M is spin_1k's median in its report.
callers_spin_run() {
	rm -f "$T"/r.*
	run_pair callers_paths work_add,spin_1k "$B/t_callers" && one_report || return 1
	M=$(jq -r '.functions[] | select(.name == "spin_1k") | .cycles.median' "$REPORT")
}

test_callers_paths() {
	local plain plain2 lo hi M
	# A run without paths before the one with and another after: how far the machine's load
	# moves the median from one run to the next is their spread, measured here, and the
	# run with paths is judged against both.
	callers_spin_run || return 1
	plain=$M
	XENV=(TSC_CALLERS=8)
	callers_spin_run || return 1
	mv "$REPORT" "$T/paths.json"
	XENV=()
	callers_spin_run || return 1
	plain2=$M
	rm -f "$T"/r.*
	REPORT=$T/paths.json
	lo=$((plain < plain2 ? plain : plain2)) hi=$((plain > plain2 ? plain : plain2))
	check_expects "$T/t.out" || return 1
	ck "leaf's site splits into two paths: 90 via p2, 60 via p1" \
		'[fn("work_add").callers[] | select(.site | startswith("leaf+")) |
		  {calls, via: .frames[1] | split("+")[0]}] == [{calls: 90, via: "p2"}, {calls: 60, via: "p1"}]' \
		'[fn("work_add").callers[] | {site, calls}]' || return 1
	ck "paths have up to 8 frames, innermost first" \
		'all(fn("work_add").callers[]; (.frames | length) <= 8 and (.frames | length) >= 1)' \
		'[fn("work_add").callers[].frames | length]' || return 1
	NOTE="spin_1k median $plain and $plain2 ticks without TSC_CALLERS, $(jq -r '.functions[] | select(.name == "spin_1k") | .cycles.median' "$REPORT") with 8 between them"
	# The unwind (hundreds of ticks a call) runs after the second read: it must not show in
	# the interval. It does leave caches and predictors colder for the next call, which is the
	# program's real cost then; bounded by 5% or what the shim measured of its own bracket,
	# beyond the range of the two runs without paths.
	ck "TSC_CALLERS=8 leaves spin_1k's median within max(5%, 2 granularity + overhead) of the runs without ($lo..$hi)" \
		".clock.granularity as \$g | ([0.05 * $lo, 2 * \$g + .overhead.median] | max) as \$b |
		 fn(\"spin_1k\").cycles.median as \$m | \$m >= $lo - \$b and \$m <= $hi + \$b" \
		'{cycles: fn("spin_1k").cycles, granularity: .clock.granularity, overhead}' || return 1
}

# ---- unwinding, signals, processes
test_longjmp() {
	plt_call liblj.so lj_outer lj_inner || return 1
	run_pair longjmp lj_outer,lj_inner,lj_raise "$B/t_longjmp" || return 1
	one_report && check_expects "$T/t.out"
}

test_cxx_exceptions() {
	plt_call libcx.so cx_outer cx_thrower || return 1
	run_pair cxx_exceptions cx_thrower,cx_outer,cx_catcher "$B/t_cxx" || return 1
	one_report && check_expects "$T/t.out"
}

test_signals() {
	run_pair signals work_add,work_leaf "$B/t_signals" "$T/side" || return 1
	one_report && check_expects "$T/side"
}

# fork (exit and _exit), exec: one report per process image, each counting only its own calls.
test_fork_exec() {
	local p c1 c2 f n missing=""
	local -a reports
	OUTTPL="$T/%e.%p.json"
	run_pair fork_exec work_add "$B/t_fork" parent "$T/side" || return 1
	p=$(side pid) c1=$(side child1) c2=$(side child2)
	# file, calls, pid, what wrote it
	reports=("t_fork.$p.json 1000 $p parent-before-exec" "t_fork.$c1.json 300 $c1 child-exit"
		"t_fork.$c2.json 200 $c2 child-_exit" "t_fork_exec.$p.json 700 $p exec'd-image")
	for f in "${reports[@]}"; do
		# shellcheck disable=SC2086
		set -- $f
		[ -f "$T/$1" ] || missing="$missing $1 ($4)"
	done
	[ -z "$missing" ] ||
		fail_because "missing reports:$missing; present: $(cd "$T" && ls -- *.json 2>/dev/null | tr '\n' ' ')" ||
		return 1
	for f in "${reports[@]}"; do
		# shellcheck disable=SC2086
		set -- $f
		REPORT=$T/$1
		ck "$4: work_add calls == $2" "fn(\"work_add\").calls == $2" 'fn("work_add") | counts' ||
			return 1
		ck "$4: pid == $3" ".pid == $3" '.pid' || return 1
	done
	n=$(cd "$T" && ls -- *.json | wc -l)
	[ "$n" -eq 4 ] || fail_because "$n report files, expected 4: $(cd "$T" && ls -- *.json | tr '\n' ' ')"
}

# ---- pinning, migration, serialization, clock fallback (t_pin, t_pinkids, t_migrate,
# t_clock, t_notsc with libschedw.so; CPU masks are plain lists "0,1,5" from tp_cpu.h)

# allowed_cpus: the CPUs this script may run on, as a list "0,1".
allowed_cpus() {
	"$B/t_pinmask" - cpus | sed 's/^cpus: //'
}

# in_list CPU LIST: CPU is one of the comma list LIST.
in_list() {
	[[ ",$2," == *",$1,"* ]]
}

# single_in CPU-LIST ORIG: CPU-LIST is exactly one CPU, and one of ORIG.
single_in() {
	[[ $1 =~ ^[0-9]+$ ]] && in_list "$1" "$2"
}

# sub_failed WHAT: prefix the failure reason with the sub-run that failed; returns 1.
sub_failed() {
	WHY="$1: ${WHY:-failed without a reason}"
	return 1
}

# pin_case MODE NT: t_pin with NT workers under TSC_PIN=MODE ("default": unset), then the
# checks every mode shares. Sets orig, ncpu for the caller.
pin_case() {
	local mode=$1 nt=$2 i
	rm -f "$T"/r.* "$T/side"
	XENV=()
	[ "$mode" = default ] || XENV+=("TSC_PIN=$mode")
	run_pair pin_first sw_add "$B/t_pin" "$nt" "$T/side" || return 1
	one_report && check_expects "$T/t.out" || return 1
	orig=$(side orig) ncpu=$(side ncpu)
	[ -n "$orig" ] && [ -n "$ncpu" ] || fail_because "no orig/ncpu in the side file" || return 1
	ck "threads.traced >= $nt (the workers)" ".threads.traced >= $nt" '.threads' || return 1
	for ((i = 0; i < nt; i++)); do
		[ "$(side "t${i}_before")" = "$orig" ] ||
			fail_because "worker $i started with mask $(side "t${i}_before"), not main's $orig (main makes no traced call: it must not be pinned)" ||
			return 1
	done
	[ "$(side idle_after)" = "$orig" ] ||
		fail_because "a thread that made no traced call was pinned: mask $(side idle_after), original $orig" ||
		return 1
	[ "$(side main_after)" = "$orig" ] ||
		fail_because "the main thread made no traced call but its mask is $(side main_after), original $orig" ||
		return 1
}

# pin_workers_single NT [CPU]: every worker ended pinned to one allowed CPU (CPU, if given)
# and runs there.
pin_workers_single() {
	local nt=$1 want=${2:-} i a
	for ((i = 0; i < nt; i++)); do
		a=$(side "t${i}_after")
		single_in "$a" "$orig" ||
			fail_because "worker $i: mask after its traced calls is $a, expected one CPU of $orig" ||
			return 1
		[ -z "$want" ] || [ "$a" = "$want" ] ||
			fail_because "worker $i pinned to CPU $a, expected $want" || return 1
		[ "$(side "t${i}_cpu")" = "$a" ] ||
			fail_because "worker $i pinned to CPU $a but runs on $(side "t${i}_cpu")" || return 1
		# The pin stays invisible: sched_getaffinity shows the mask from before it.
		[ "$(side "t${i}_seen")" = "$orig" ] ||
			fail_because "worker $i: sched_getaffinity shows $(side "t${i}_seen") while pinned, not its own $orig" ||
			return 1
	done
}

# TSC_PIN unset (exclusive), first, none, spread and a CPU list, on t_pin's workers: the report's
# threads.pinned and the masks each thread sees (side file).
test_pin_first() {
	local nt=3 orig ncpu i distinct last other allowed
	allowed=$(allowed_cpus)
	# default (exclusive): min(nt, ncpu) workers pinned, nobody else (where: pin_exclusive).
	pin_case default "$nt" || sub_failed "TSC_PIN unset (exclusive)" || return 1
	if [ "$ncpu" -lt 2 ]; then
		# Pinning to the only allowed CPU changes nothing: whether it is counted is moot.
		NOTE="1 CPU allowed ($orig): pin assertions skipped"
		pin_case none "$nt" || sub_failed "TSC_PIN=none" || return 1
		ck "TSC_PIN=none: threads.pinned == 0" '.threads.pinned == 0' '.threads' ||
			sub_failed "TSC_PIN=none" || return 1
		return 0
	fi
	ck "threads.pinned == $((nt < ncpu ? nt : ncpu)) (workers that made traced calls, one a CPU)" \
		".threads.pinned == $((nt < ncpu ? nt : ncpu))" '.threads' ||
		sub_failed "TSC_PIN unset (exclusive)" || return 1

	# first: each worker pinned to the CPU it ran on.
	pin_case first "$nt" || sub_failed "TSC_PIN=first" || return 1
	ck "threads.pinned == $nt" ".threads.pinned == $nt" '.threads' &&
		pin_workers_single "$nt" || sub_failed "TSC_PIN=first" || return 1

	# none: nobody pinned, masks unchanged.
	pin_case none "$nt" || sub_failed "TSC_PIN=none" || return 1
	ck "threads.pinned == 0" '.threads.pinned == 0' '.threads' ||
		sub_failed "TSC_PIN=none" || return 1
	for ((i = 0; i < nt; i++)); do
		[ "$(side "t${i}_after")" = "$orig" ] ||
			fail_because "worker $i: mask $(side "t${i}_after") after its calls, original $orig" ||
			sub_failed "TSC_PIN=none" || return 1
	done

	# spread: round-robin over the allowed CPUs, so min(nt, ncpu) distinct CPUs (with 2 CPUs
	# the first two workers to call are on different ones).
	pin_case spread "$nt" || sub_failed "TSC_PIN=spread" || return 1
	ck "threads.pinned == $nt" ".threads.pinned == $nt" '.threads' &&
		pin_workers_single "$nt" || sub_failed "TSC_PIN=spread" || return 1
	distinct=$(for ((i = 0; i < nt; i++)); do side "t${i}_after"; done | sort -u | wc -l)
	[ "$distinct" -eq $((nt < ncpu ? nt : ncpu)) ] ||
		fail_because "$nt workers over $ncpu allowed CPUs ended on $distinct distinct CPUs ($(for ((i = 0; i < nt; i++)); do side "t${i}_after"; done | tr '\n' ' ')), expected $((nt < ncpu ? nt : ncpu))" ||
		sub_failed "TSC_PIN=spread" || return 1

	# A list: a CPU outside the allowed mask first (ignored), then the last allowed CPU.
	last=${orig##*,}
	other=$((last + 1))
	in_list "$other" "$allowed" && other=$((last + 2))
	if [ "$other" -le 1023 ]; then
		pin_case "$other,$last" "$nt" || sub_failed "TSC_PIN=$other,$last" || return 1
		ck "threads.pinned == $nt" ".threads.pinned == $nt" '.threads' &&
			pin_workers_single "$nt" "$last" ||
			sub_failed "TSC_PIN=$other,$last (CPU $other is not allowed)" || return 1
	fi
	return 0
}

# A pinned thread's children (fork, posix_spawn, system, popen, exec) and the threads it creates
# start with its original mask: t_pinkids prints each child's mask to stdout, compared with
# the untraced run's (all original); the side file shows the pinned threads stayed pinned.
test_pin_children() {
	local pid orig ncpu
	OUTTPL="$T/r.%e.%p.json"
	run_pair pin_children sw_add "$B/t_pinkids" "$T/side" || return 1
	[ "$(grep -c '(original)$' "$T/u.out")" -eq 6 ] ||
		fail_because "test setup: the untraced run does not show 6 original masks: $(grep -v '(original)$' "$T/u.out" | head -3)" ||
		return 1
	pid=$(side pid) orig=$(side orig) ncpu=$(side ncpu)
	REPORT=$T/r.t_pinkids.$pid.json
	[ -f "$REPORT" ] ||
		fail_because "no report r.t_pinkids.$pid.json (the image before exec): $(cd "$T" && ls r.* 2>/dev/null | tr '\n' ' ')" ||
		return 1
	is_json "$REPORT" || fail_because "$(basename "$REPORT") is not one JSON object" || return 1
	check_expects "$T/t.out" || return 1
	if [ "$ncpu" -lt 2 ]; then
		NOTE="1 CPU allowed ($orig): nothing to pin, children compared only"
		return 0
	fi
	single_in "$(side main_pinned)" "$orig" ||
		fail_because "the main thread was not pinned by its traced calls (mask $(side main_pinned), original $orig): the children test nothing" ||
		return 1
	[ "$(side main_end)" = "$(side main_pinned)" ] ||
		fail_because "the main thread lost its pin while starting children: $(side main_pinned) before, $(side main_end) after" ||
		return 1
	single_in "$(side thread_pinned)" "$orig" ||
		fail_because "the pthread was not pinned at its own first traced call (mask $(side thread_pinned))" ||
		return 1
	ck "threads.pinned == 2 (main and its pthread)" '.threads.pinned == 2' '.threads'
}

# migration_case PIN: t_migrate (sw_hop moves the thread to the other CPU inside every second
# call) under TSC_PIN=PIN ("default": unset).
migration_case() {
	local moved
	rm -f "$T"/r.* "$T/side"
	XENV=()
	[ "$1" = default ] || XENV+=("TSC_PIN=$1")
	run_pair migration sw_hop "$B/t_migrate" "$T/side" || return 1
	one_report && check_expects "$T/t.out" || return 1
	moved=$(side moved)
	[ "${moved:-0}" -ge 1 ] ||
		fail_because "sw_hop never moved the thread (moved ${moved:-?} of 20 hops; did a pin block sched_setaffinity?)" ||
		return 1
	ck "sw_hop: migrated >= 1" 'fn("sw_hop").migrated >= 1' 'fn("sw_hop") | counts' || return 1
	# Each call that moved started and ended on different CPUs (the thread's mask was a
	# single CPU at both reads); the others could not move: migrated is exactly that count.
	ck "sw_hop: migrated == $moved (calls that changed CPU)" "fn(\"sw_hop\").migrated == $moved" \
		'fn("sw_hop") | counts' || return 1
	ck "threads.migrations >= 1" '.threads.migrations >= 1' '.threads'
}

test_migration() {
	if [ "$(allowed_cpus | tr ',' '\n' | wc -l)" -lt 2 ]; then
		skip_because "1 CPU allowed: a thread cannot migrate"
		return 0
	fi
	migration_case none || sub_failed "TSC_PIN=none" || return 1
	migration_case default || sub_failed "TSC_PIN unset (exclusive)" || return 1
}

# t_empty under each TSC_SERIALIZE mode (and unset): clock.serialize names it (rdtscp only
# where CPUID announces it, in the persona CPU_ALL too), the measured overhead is positive, and
# in the cpuid mode each call costs the program at least one more `cpuid` than under lfence
# (it executes two per call; the program measures the cheapest cpuid and its own loop), with a
# warning under a hypervisor, where each cpuid exits to it. What the *overhead* does under
# cpuid is the CPU's business: on Intel the exits fall outside the timed interval.
test_serialize_modes() {
	local m want rdtscp hyper loop_lfence="" loop_cpuid="" cpuid_ticks n
	rdtscp=$(cpu_fact rdtscp) hyper=$(cpu_fact hypervisor)
	for m in default rdtscp lfence mfence cpuid none; do
		rm -f "$T"/r.* "$T/side"
		XENV=()
		[ "$m" = default ] || XENV+=("TSC_SERIALIZE=$m")
		run_pair serialize_modes work_empty "$B/t_empty" "$T/side" &&
			one_report && check_expects "$T/t.out" || sub_failed "TSC_SERIALIZE=$m" || return 1
		case $m in
		default)
			if [ "$rdtscp" = 1 ]; then
				ck "clock.serialize == rdtscp (rdtscp announced)" '.clock.serialize == "rdtscp"' '.clock'
			else
				n=$(grep -ci 'rdtscp is not announced' "$T/t.shim")
				ck "clock.serialize == lfence (rdtscp not announced)" \
					'.clock.serialize == "lfence"' '.clock' &&
					{ [ "$n" -eq 1 ] ||
					fail_because "expected one 'tsctrace: ' line about rdtscp not announced, got $n: $(head -3 "$T/t.shim")"; }
			fi || sub_failed "TSC_SERIALIZE unset" || return 1
			;;
		rdtscp)
			# Set explicitly on a CPU that hides it: lfence, with one warning; never the
			# instruction CPUID does not announce.
			if [ "$rdtscp" = 1 ]; then
				ck "clock.serialize == rdtscp (announced)" '.clock.serialize == "rdtscp"' '.clock'
			else
				ck "clock.serialize == lfence (rdtscp not announced)" \
					'.clock.serialize == "lfence"' '.clock' &&
					{ [ "$(shim_lines 'TSC_SERIALIZE=rdtscp: CPUID does not announce rdtscp')" -eq 1 ] ||
					fail_because "expected one line saying TSC_SERIALIZE=rdtscp falls back: $(head -3 "$T/t.shim")"; }
			fi || sub_failed "TSC_SERIALIZE=rdtscp" || return 1
			;;
		*)
			ck "clock.serialize == $m" ".clock.serialize == \"$m\"" '.clock' ||
				sub_failed "TSC_SERIALIZE=$m" || return 1
			;;
		esac
		# none: the bare rdtsc pair may cost less than one clock step.
		want='.overhead.min > 0'
		[ "$m" = none ] && want='.overhead.min >= 0'
		ck "${want#.}" "$want" '.overhead' &&
			ck "overhead.median >= overhead.min" '.overhead.median >= .overhead.min' '.overhead' ||
			sub_failed "TSC_SERIALIZE=$m" || return 1
		case $m in
		lfence) loop_lfence=$(side loop_ticks) ;;
		cpuid)
			loop_cpuid=$(side loop_ticks) cpuid_ticks=$(side cpuid_ticks)
			if [ "$hyper" = 1 ]; then
				sed 's/^tsctrace: //' "$T/t.shim" | grep -i cpuid |
					grep -qiE 'hypervisor|virtuali|guest' ||
					fail_because "TSC_SERIALIZE=cpuid under a hypervisor: no 'tsctrace: ' warning about cpuid and the hypervisor: $(head -3 "$T/t.shim")" ||
					return 1
			fi
			;;
		esac
	done
	NOTE="per call: lfence $((loop_lfence / 100000)), cpuid $((loop_cpuid / 100000)) ticks; one cpuid $cpuid_ticks"
	# Half a cpuid of margin: the program's cheapest cpuid against two per traced call.
	awk -v c="$loop_cpuid" -v l="$loop_lfence" -v one="$cpuid_ticks" \
		'BEGIN { exit !((c - l) / 100000 >= one / 2) }' ||
		fail_because "a traced call under cpuid costs the program $(((loop_cpuid - loop_lfence) / 100000)) ticks more than under lfence, less than half of one cpuid ($cpuid_ticks): are the cpuids executed?"
}

# mono_checks: $REPORT of t_clock was measured with CLOCK_MONOTONIC_RAW in nanoseconds.
mono_checks() {
	local nap
	check_expects "$T/t.out" || return 1
	ck "clock.source == monotonic" '.clock.source == "monotonic"' '.clock' || return 1
	ck "clock.tsc_hz == 0" '.clock.tsc_hz == 0' '.clock' || return 1
	ck "no function has an ns block (cycles are already ns)" \
		'all(.functions[]; has("ns") | not)' '[.functions[] | {name, ns}]' || return 1
	# nanosleep sleeps at least its 1 ms; how much longer is the machine's business (a busy
	# one wakes the thread late), held to the program's own figure of the same calls below.
	ck "sw_nap (1 ms nanosleep): cycles.median at least 0.9e6 ns" \
		'fn("sw_nap").cycles.median >= 900000' 'fn("sw_nap").cycles' || return 1
	# Ticks of a ~2-3 GHz TSC would be 2-3 times the program's own clock_gettime figure.
	nap=$(side nap_ns)
	ck "sw_nap cycles.median within 0.8..1.25 x the program's own measure ($nap ns)" \
		"fn(\"sw_nap\").cycles.median >= 0.8 * $nap and fn(\"sw_nap\").cycles.median <= 1.25 * $nap" \
		'fn("sw_nap").cycles'
}

# fallback_line: a `tsctrace: ` line says the monotonic clock is used, once (not repeated).
fallback_line() {
	local re='monotonic|clock_gettime|nanosec'
	sed 's/^tsctrace: //' "$T/t.shim" | grep -qiE "$re" ||
		fail_because "no 'tsctrace: ' line about falling back to the monotonic clock: $(head -3 "$T/t.shim")" ||
		return 1
	[ -z "$(grep -iE "$re" "$T/t.shim" | sort | uniq -d)" ] ||
		fail_because "the fallback line is repeated: $(grep -iE "$re" "$T/t.shim" | sort | uniq -d | head -1)"
}

# TSC_CLOCK=monotonic: nanoseconds from the kernel, whatever the CPU.
# tsc_hz without waiting: two short runs measure the same TSC rate against CLOCK_MONOTONIC_RAW
# (NTP does not steer it), so their figures must agree within the sum of the error bounds
# each report gives (tsc_hz_error_ppm, from its own read windows and run length).
test_clock_hz_bound() {
	local f hz=() ppm=() src
	XENV+=(TSC_CLOCK=tsc)
	for f in 1 2; do
		rm -f "$T"/r.*
		run_pair clock_hz_bound work_add "$B/t_basic" && one_report || return 1
		src=$(jq -r .clock.tsc_hz_source "$REPORT")
		[ "$src" = calibrated ] || {
			skip_because "tsc_hz comes from $src here, not measured over the run"
			return 0
		}
		hz+=("$(jq -r .clock.tsc_hz "$REPORT")")
		ppm+=("$(jq -r '.clock.tsc_hz_error_ppm // -1' "$REPORT")")
	done
	[ "${ppm[0]}" -ge 1 ] && [ "${ppm[1]}" -ge 1 ] ||
		fail_because "tsc_hz_error_ppm missing with a calibrated rate: ${ppm[*]}" || return 1
	awk -v a="${hz[0]}" -v b="${hz[1]}" -v ea="${ppm[0]}" -v eb="${ppm[1]}" \
		'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= (ea + eb) * 1e-6 * (a > b ? a : b) + 2) }' ||
		fail_because "two runs' tsc_hz ${hz[0]} (±${ppm[0]} ppm) and ${hz[1]} (±${ppm[1]} ppm) disagree beyond their bounds" ||
		return 1
	NOTE="tsc_hz ${hz[0]} ±${ppm[0]} ppm, ${hz[1]} ±${ppm[1]} ppm"
}

test_clock_monotonic() {
	XENV=(TSC_CLOCK=monotonic)
	run_pair clock_monotonic sw_nap,sw_add "$B/t_clock" "$T/side" &&
		one_report && mono_checks || sub_failed "TSC_CLOCK=monotonic" || return 1
	# A TSC without the invariant bit (TSC_CPU hides it): auto falls back, saying so once.
	rm -f "$T"/r.* "$T/side"
	XENV=("TSC_CPU=${CPU_ALL:+$CPU_ALL,}invariant=0")
	run_pair clock_monotonic sw_nap,sw_add "$B/t_clock" "$T/side" &&
		one_report && mono_checks && fallback_line || sub_failed "TSC not invariant" || return 1
	grep -q 'not invariant' "$T/t.shim" ||
		fail_because "no 'tsctrace: ' line saying the TSC is not invariant: $(head -3 "$T/t.shim")"
}

# notsc_starts: can a dynamically linked program start at all with the TSC forbidden before
# exec? Not where the dynamic loader (glibc's _dl_start) or the vDSO reads it, which is where
# the kernel's clocksource is the TSC: then the scenario cannot be staged (skipped).
notsc_starts() {
	local st
	{ "$B/t_notsc" /bin/true >/dev/null 2>&1; } 2>/dev/null	# bash's own crash notice too
	st=$?
	[ $st -eq 0 ] && return 0
	skip_because "with rdtsc forbidden before exec (PR_TSC_SIGSEGV) no dynamically linked program starts here (/bin/true: status $st$(signame $st)): the dynamic loader reads the TSC (clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null))"
	return 1
}

# The TSC forbidden with prctl(PR_SET_TSC, PR_TSC_SIGSEGV) by the launcher t_notsc
# (untraced: TP_PRELOAD hands the shim to the exec'd t_clock only), with TSC_CLOCK unset and
# forced to tsc.
test_clock_fallback() {
	local shim=$PRELOAD
	local PRELOAD=""
	notsc_starts || return 0
	XENV=("TP_PRELOAD=$shim")
	run_pair clock_fallback sw_nap,sw_add "$B/t_notsc" "$B/t_clock" "$T/side" &&
		one_report && mono_checks && fallback_line ||
		sub_failed "rdtsc forbidden (PR_TSC_SIGSEGV), TSC_CLOCK unset" || return 1

	rm -f "$T"/r.* "$T/side"
	XENV=("TP_PRELOAD=$shim" TSC_CLOCK=tsc)
	run_pair clock_fallback sw_nap,sw_add "$B/t_notsc" "$B/t_clock" "$T/side" &&
		one_report && mono_checks && fallback_line ||
		sub_failed "rdtsc forbidden (PR_TSC_SIGSEGV), TSC_CLOCK=tsc" || return 1
	grep -q 'TSC_CLOCK' "$T/t.shim" ||
		fail_because "TSC_CLOCK=tsc with rdtsc forbidden: no 'tsctrace: ' line naming TSC_CLOCK: $(head -3 "$T/t.shim")"
}

# The same with the launcher traced too: it forbids rdtsc while the shim is running in it, then
# execs (the shim writes the launcher's report before the exec without faulting).
test_clock_prctl_traced() {
	local f n
	notsc_starts || return 0
	OUTTPL="$T/r.%e.%p.json"
	run_pair clock_prctl_traced sw_nap,sw_add "$B/t_notsc" "$B/t_clock" "$T/side" || return 1
	n=$(find "$T" -maxdepth 1 -name 'r.t_notsc.*.json' | wc -l)
	f=$(find "$T" -maxdepth 1 -name 'r.t_notsc.*.json' | head -1)
	[ "$n" -eq 1 ] && is_json "$f" ||
		fail_because "the launcher's report before exec: $n file(s) r.t_notsc.*.json$([ -n "$f" ] && echo ", not JSON")" ||
		return 1
	n=$(find "$T" -maxdepth 1 -name 'r.t_clock.*.json' | wc -l)
	REPORT=$(find "$T" -maxdepth 1 -name 'r.t_clock.*.json' | head -1)
	[ "$n" -eq 1 ] && is_json "$REPORT" ||
		fail_because "t_clock's report: $n file(s) r.t_clock.*.json" || return 1
	mono_checks && fallback_line
}

# Thread churn under CPU contention (two spinning threads on the CPUs): 1,250 short threads,
# one traced call each. Counts exact, and the churn takes at most 6 times as long as untraced
# (the program times it itself): thread start and exit take the shim's list lock, and a lock
# whose waiters spin made it 12-60 times as long, a preempted holder starved by the spinners.
# Two pairs, untraced and traced alternated: on a busy machine one run's churn can take
# several times another's for reasons of the machine alone, so the fastest traced run is
# held against the slowest untraced one, which brackets what the load did meanwhile.
test_thread_churn() {
	local u t i
	for i in 1 2; do
		run_pair thread_churn work_add "$B/t_churn" "$T/side" || return 1
		one_report && check_expects "$T/t.out" || return 1
		rm -f "$T"/r.*
	done
	# The side file holds untraced, traced, untraced, traced.
	u=$(awk '$1 == "churn_ns" && NR % 2 == 1 { print $2 }' "$T/side" | sort -n | tail -1)
	t=$(awk '$1 == "churn_ns" && NR % 2 == 0 { print $2 }' "$T/side" | sort -n | head -1)
	NOTE="churn ms untraced, traced, untraced, traced: $(awk '$1 == "churn_ns" { printf "%d ", $2 / 1000000 }' "$T/side")"
	[ "$(grep -c '^churn_ns ' "$T/side")" -eq 4 ] && [ -n "$u" ] && [ -n "$t" ] ||
		fail_because "test setup: not 4 churn_ns lines in the side file" || return 1
	awk -v t="$t" -v u="$u" 'BEGIN { exit !(t <= 6 * u) }' ||
		fail_because "thread churn took at least $((t / 1000000)) ms traced, more than 6 x the $((u / 1000000)) ms untraced at most"
}

# Functions no bracket can time (setjmp returns twice, _start has no return address, clone
# returns on another stack): by name one line each, the entry points refused, the others
# counted only; globs skip the entry points silently and count the others; the program runs
# as without the shim (the trampoline under _setjmp smashed the stack). (cases_more.sh
# countonly_* count such calls.)
test_unbracketable() {
	local n
	WANT_STATUS=4
	run_pair unbracketable _setjmp,__sigsetjmp,_start,clone,getcontext sh -c 'exit 4' || return 1
	n=$(grep -c 'cannot be timed' "$T/t.shim")
	[ "$n" -eq 5 ] || fail_because "expected 5 'cannot be timed' lines, got $n: $(head -3 "$T/t.shim")" ||
		return 1
	n=$(grep -c 'cannot be timed: .*; counted only$' "$T/t.shim")
	[ "$n" -eq 4 ] && grep -q '_start cannot be timed: .*; not traced$' "$T/t.shim" ||
		fail_because "expected 4 counted only and _start not traced: $(head -5 "$T/t.shim")" ||
		return 1
	rm -f "$T"/r.*
	WANT_STATUS=0
	run_pair unbracketable '*setjmp*,_st*,lj_*' "$B/t_longjmp" || return 1
	one_report && check_expects "$T/t.out" || return 1
	! grep -q 'cannot be timed' "$T/t.shim" ||
		fail_because "a glob named an unbracketable function: $(grep 'cannot be timed' "$T/t.shim" | head -1)" ||
		return 1
	ck "globs: no _start; the setjmp-like entries counted only, none timed" \
		'all(.functions[]; .name != "_start") and
		 all(.functions[] | select(.name | test("setjmp")); .count_only == "returns twice" and .timed == 0)' \
		'[.functions[] | {name, count_only, timed}]'
}

# A program that forbids itself the TSC in main, inside two traced calls, then goes on calling
# traced functions that do not read it, from the banned thread, from a thread it starts after
# (which inherits the ban) and from one started before (which keeps the TSC): nothing dies, the
# counts are exact, calls on banned threads are counted as dropped and not timed, the other
# thread's are timed, a line says so, and the TSC rate is still calibrated (up to the ban).
test_prctl_inprocess() {
	if [ "$ASAN" = 1 ] && ! { (cd "$T" && exec "$B/t_prctl") >/dev/null 2>&1; } 2>/dev/null; then
		skip_because "the sanitizer runtime itself reads the clock through the vDSO, which reads the TSC, after the ban: the program dies untraced"
		return 0
	fi
	run_pair prctl_inprocess sw_add,sw_apply,sw_forbid "$B/t_prctl" || return 1
	one_report && check_expects "$T/t.out" || return 1
	grep -q '^prctl 0,' "$T/u.out" || fail_because "test setup: prctl(PR_SET_TSC) failed untraced" ||
		return 1
	ck "clock.source is tsc" '.clock.source == "tsc"' '.clock' || return 1
	ck "sw_add: 99 + 99 timed (first calls of the two threads with the TSC dropped), 1052 dropped" \
		'fn("sw_add") | .timed == 198 and .dropped == 1052' 'fn("sw_add") | counts' || return 1
	ck "sw_apply: the call in flight at the ban is counted, not timed" \
		'fn("sw_apply") | .timed == 1 and .dropped == 2 and .unwound == 0' \
		'fn("sw_apply") | counts' || return 1
	ck "sw_forbid: counted, not timed" 'fn("sw_forbid") | .calls == 1 and .timed == 0' \
		'fn("sw_forbid") | counts' || return 1
	ck "a warning says the thread forbade itself the TSC" \
		'any(.warnings[]; test("forbade itself the TSC"))' '.warnings' || return 1
	[ "$(grep -c 'forbade itself the TSC' "$T/t.shim")" -eq 1 ] ||
		fail_because "expected one 'tsctrace: ' line about the ban: $(head -3 "$T/t.shim")" ||
		return 1
	ck "clock.tsc_hz calibrated up to the ban (0.5-10 GHz)" \
		'.clock.tsc_hz > 5e8 and .clock.tsc_hz < 1e10' '.clock'
}

# longjmp in bulk, signal contexts, fatal and dump signals, exits, vfork, own dependencies,
# multi-process runs.
# shellcheck source=cases_more.sh
. "${BASH_SOURCE[0]%/*}/cases_more.sh"

# Signals that arrive while the shim's own code runs.
# shellcheck source=cases_hardening.sh
. "${BASH_SOURCE[0]%/*}/cases_hardening.sh"

# Inline hooks: early pointers, direct calls, static functions sharing a name, refusals,
# patching at a dlopen while threads call.
# shellcheck source=cases_inline.sh
. "${BASH_SOURCE[0]%/*}/cases_inline.sh"

# The report always reaches the user: a private stderr, the "written to" line, one fixed
# TSC_OUTPUT for the processes of a run, files kept, $TMPDIR as the last resort, TSC_FOLLOW.
# shellcheck source=cases_delivery.sh
. "${BASH_SOURCE[0]%/*}/cases_delivery.sh"

# Names sharing one address: one entry, found by each name (JSON "names", text rows).
# shellcheck source=cases_names.sh
. "${BASH_SOURCE[0]%/*}/cases_names.sh"

# Function-pointer identity: GOT slots read as data keep the real address (OpenSSL).
# shellcheck source=cases_identity.sh
. "${BASH_SOURCE[0]%/*}/cases_identity.sh"

# Threads loading, calling and unloading libraries of traced functions at once.
# shellcheck source=cases_dlstress.sh
. "${BASH_SOURCE[0]%/*}/cases_dlstress.sh"

# Self time and per-thread rows.
# shellcheck source=cases_self.sh
. "${BASH_SOURCE[0]%/*}/cases_self.sh"

# Whole libraries traced (libsqlite3, libc): no cap on the number of functions.
# shellcheck source=cases_whole.sh
. "${BASH_SOURCE[0]%/*}/cases_whole.sh"

# TSC_SAMPLE and TSC_BUDGET: counts exact under sampling, no aliasing, the budget held.
# shellcheck source=cases_sampling.sh
. "${BASH_SOURCE[0]%/*}/cases_sampling.sh"
# TSC_EXPORT: metrics written while the program runs and at its end.
# shellcheck source=cases_export.sh
. "${BASH_SOURCE[0]%/*}/cases_export.sh"
# shellcheck source=cases_startup.sh
. "${BASH_SOURCE[0]%/*}/cases_startup.sh"

# ---- main -----------------------------------------------------------------------------------

echo "program tests: $B with $LIB${SANITIZE:+ (SANITIZE=$SANITIZE)}${HOOK_ALL:+ (TSC_HOOK=$HOOK_ALL unless a test sets its own)}${CPU_ALL:+ (TSC_CPU=$CPU_ALL: emulating that CPU)}"
run_test signatures test_signatures
run_test signatures_got test_signatures_got
run_test signatures_inline test_signatures_inline
for m in rdtscp lfence mfence cpuid none; do
	run_test "signatures_ser_$m" "test_signatures_ser_$m"
done
run_test recursion test_recursion
run_test recursion_deep test_recursion_deep
run_test threads test_threads
run_test dlopen_now test_dlopen_now
run_test dlopen_lazy test_dlopen_lazy
run_test dlopen_runpath test_dlopen_runpath
run_test dlopen_reload test_dlopen_reload
run_test dlopen_moved test_dlopen_moved
run_test noplt test_noplt
run_test errno test_errno
run_test real_sort test_real_sort
run_test real_gzip test_real_gzip
run_test real_sed test_real_sed
run_test real_text test_real_text
run_test bad_unknown_name test_bad_unknown_name
run_test bad_typo_func test_bad_typo_func
run_test glob_one_line test_glob_one_line
run_test bad_format test_bad_format
run_test bad_serialize test_bad_serialize
run_test bad_typo test_bad_typo
run_test bad_output_dir test_bad_output_dir
run_test output_stderr test_output_stderr
run_test funcs_unset test_funcs_unset
run_test exit_status test_exit_status
run_test exit_thread test_exit_thread
run_test output_template test_output_template
run_test report test_report
run_test empty test_empty
run_test accuracy test_accuracy
run_test callers test_callers
run_test callers_paths test_callers_paths
run_test longjmp test_longjmp
run_test cxx_exceptions test_cxx_exceptions
run_test signals test_signals
run_test fork_exec test_fork_exec
run_test pin_first test_pin_first
run_test pin_children test_pin_children
run_test migration test_migration
run_test serialize_modes test_serialize_modes
run_test clock_hz_bound test_clock_hz_bound
run_test clock_monotonic test_clock_monotonic
run_test clock_fallback test_clock_fallback
run_test clock_prctl_traced test_clock_prctl_traced
run_test prctl_inprocess test_prctl_inprocess
run_test thread_churn test_thread_churn
run_test unbracketable test_unbracketable
run_test fatal_callers test_fatal_callers
run_test signal_storm test_signal_storm
run_test refusal_once test_refusal_once
run_test report_name_attacks test_report_name_attacks
run_test longjmp_many test_longjmp_many
run_test signals_more test_signals_more
run_test fatal_signals test_fatal_signals
run_test dump_signal test_dump_signal
run_test export_exit test_export_exit
run_test export__exit test_export__exit
run_test export_bad_interval test_export_bad_interval
run_test export_per_process test_export_per_process
run_test export_fatal test_export_fatal
run_test exit_paths test_exit_paths
run_test vfork test_vfork
run_test own_deps test_own_deps
run_test own_deps_inline test_own_deps_inline
run_test countonly_got test_countonly_got
run_test countonly_inline test_countonly_inline
run_test countonly_callers test_countonly_callers
run_test countonly_callers_inline test_countonly_callers_inline
run_test countonly_sampled test_countonly_sampled
run_test countonly_sampled_callers test_countonly_sampled_callers
run_test multiprocess test_multiprocess
run_test early_inline test_early_inline
run_test early_auto test_early_auto
run_test direct_inline test_direct_inline
run_test direct_auto test_direct_auto
run_test direct_got test_direct_got
run_test glob_statics test_glob_statics
run_test ambig_inline test_ambig_inline
run_test refuse_inline test_refuse_inline
run_test trap_static test_trap_static
run_test trap_own test_trap_own
run_test trap_die test_trap_die
run_test trap_blocked test_trap_blocked
run_test trap_static_O0 test_trap_static_O0
run_test trap_blocked_O0 test_trap_blocked_O0
run_test trap_masks test_trap_masks
run_test trap_masks_O0 test_trap_masks_O0
run_test trap_raw_blocked test_trap_raw_blocked
run_test call_entry_inline test_call_entry_inline
run_test call_entry_auto test_call_entry_auto
run_test call_entry_throw test_call_entry_throw
run_test lookalike_inline test_lookalike_inline
run_test xref_cache test_xref_cache
run_test plan_cache test_plan_cache
run_test plan_cache_rebuilt test_plan_cache_rebuilt
run_test plan_cache_sampled test_plan_cache_sampled
run_test debug_startup test_debug_startup
run_test decoder_lazy test_decoder_lazy
run_test calib_cache test_calib_cache
run_test cpu_cache test_cpu_cache
run_test dlopen_threads_inline test_dlopen_threads_inline
run_test stop_world_inline test_stop_world_inline
run_test stop_world_inline_O0 test_stop_world_inline_O0
run_test stop_world_sigmask test_stop_world_sigmask
run_test stop_world_blocked test_stop_world_blocked
run_test stop_world_sleepers test_stop_world_sleepers
run_test stop_world_sleepers_O0 test_stop_world_sleepers_O0
run_test stop_world_sleep_timeout test_stop_world_sleep_timeout
run_test stop_world_sleep_blocked test_stop_world_sleep_blocked
run_test stop_world_usr1 test_stop_world_usr1
run_test names_alias test_names_alias
run_test names_glob test_names_glob
run_test names_memcpy test_names_memcpy
run_test cxx_names test_cxx_names
run_test cxx_small_stack test_cxx_small_stack
run_test delivery_stderr_sort test_delivery_stderr_sort
run_test delivery_stderr_grep test_delivery_stderr_grep
run_test delivery_bad_dir test_delivery_bad_dir
run_test delivery_written_line test_delivery_written_line
run_test delivery_fixed_shell test_delivery_fixed_shell
run_test delivery_not_report test_delivery_not_report
run_test delivery_closeall test_delivery_closeall
run_test delivery_follow test_delivery_follow
run_test delivery_daemon test_delivery_daemon
run_test delivery_daemon_got test_delivery_daemon_got
run_test delivery_daemon_inline test_delivery_daemon_inline
run_test identity_got test_identity_got
run_test identity_auto test_identity_auto
run_test identity_memcpy test_identity_memcpy
run_test identity_noplt_got test_identity_noplt_got
run_test identity_openssl test_identity_openssl
run_test identity_dlopen test_identity_dlopen
run_test dlstress_diff test_dlstress_diff
run_test dlstress_same test_dlstress_same
run_test dlstress_same_got test_dlstress_same_got
run_test dlstress_diff_got test_dlstress_diff_got
run_test whole_sqlite test_whole_sqlite
run_test whole_libc test_whole_libc
run_test whole_many test_whole_many
run_test sample_threads test_sample_threads
run_test sample_signals test_sample_signals
run_test sample_recursion test_sample_recursion
run_test sample_longjmp test_sample_longjmp
run_test sample_signatures test_sample_signatures
run_test sample_callers test_sample_callers
run_test sample_callers_paths test_sample_callers_paths
run_test sample_serialize_modes test_sample_serialize_modes
run_test sample_countpath test_sample_countpath
run_test sample_alternating test_sample_alternating
run_test sample_budget test_sample_budget
run_test sample_budget_counting test_sample_budget_counting
run_test sample_budget_weighted test_sample_budget_weighted
run_test sample_budget_merge test_sample_budget_merge
run_test sample_budget_export test_sample_budget_export
run_test sample_budget_callers test_sample_budget_callers
run_test sample_budget_threads test_sample_budget_threads
run_test sample_self_fixed test_sample_self_fixed
run_test sample_fixed_views test_sample_fixed_views
run_test sample_self_budget test_sample_self_budget
run_test sample_values test_sample_values
run_test sample_fork_exec test_sample_fork_exec
run_test self_nested test_self_nested
run_test self_callers test_self_callers
run_test self_callers_deep test_self_callers_deep
run_test self_sampled test_self_sampled
run_test self_text test_self_text
run_test self_leaf_floor test_self_leaf_floor
run_test self_rows_floor test_self_rows_floor
run_test threads_rows test_threads_rows

# One file a test (tests/README.md): tests/prog/cases/NAME.sh defines test_NAME (and may call
# run_test itself for variants); its program, if any, is cases/t_NAME.c, built by the Makefile.
for f in "${BASH_SOURCE[0]%/*}"/cases/*.sh; do
	[ -f "$f" ] || continue
	# shellcheck source=/dev/null
	. "$f"
	name=${f##*/}
	name=${name%.sh}
	if declare -F "test_$name" >/dev/null; then
		run_test "$name" "test_$name"
	fi
done

# Every JSON report the tests left must match docs/report.schema.json: one check over all of
# them (one Python start), a FAIL line naming each test whose report does not match. Debian's
# python3, where make check-deps installed python3-jsonschema.
check_schema() {
	local here schema out line test n
	here=$(cd "$(dirname "$0")/../.." && pwd)
	schema=$here/docs/report.schema.json
	# JSON reports: regular files (a test leaves a FIFO too) that begin as JSON does; a text
	# report or a file that is not a report, under a .json name on purpose, is not one.
	mapfile -t files < <(find "$WORK" -type f -name '*.json' -exec grep -l -m1 '^{' {} + | sort)
	n=${#files[@]}
	[ "$n" -gt 0 ] || return 0
	PY=/usr/bin/python3
	[ -x "$PY" ] || PY=python3
	# The schema must be able to say no: a report whose first count is a string is refused.
	jq '.functions[0].calls = "1"' "${files[0]}" >"$WORK/broken.json.bad" 2>/dev/null
	if "$PY" "$here/tests/report-schema.py" "$schema" "$WORK/broken.json.bad" >/dev/null 2>&1; then
		NFAIL=$((NFAIL + 1))
		echo "FAIL report_schema: a report with a count as a string passes the schema" >>"$RESULTS"
		echo "  FAIL  report_schema: a report with a count as a string passes the schema"
		return 0
	fi
	if out=$("$PY" "$here/tests/report-schema.py" "$schema" "${files[@]}" 2>&1); then
		NPASS=$((NPASS + 1))
		echo "PASS report_schema${HOOK_ALL:+ (TSC_HOOK=$HOOK_ALL)}${CPU_ALL:+ (TSC_CPU=$CPU_ALL)}" >>"$RESULTS"
		printf '  PASS  %-22s       (%d JSON reports match docs/report.schema.json)\n' report_schema "$n"
		return 0
	fi
	while IFS= read -r line; do
		test=${line#"$WORK"/}
		test=${test%%/*}
		NFAIL=$((NFAIL + 1))
		echo "FAIL report_schema/$test${HOOK_ALL:+ (TSC_HOOK=$HOOK_ALL)}${CPU_ALL:+ (TSC_CPU=$CPU_ALL)}: $line" >>"$RESULTS"
		printf '  FAIL  report_schema  %s\n' "$line"
	done <<<"$out"
}
check_schema

echo "program tests: $NPASS passed, $NFAIL failed, $NSKIP skipped"
if [ "$NFAIL" -gt 0 ] || [ "${KEEP:-0}" = 1 ]; then
	echo "program tests: outputs kept in $WORK"
else
	rm -rf "$WORK"
fi
[ "$NFAIL" -eq 0 ] && [ "$NPASS" -gt 0 ]
