# cases_more.sh - program tests sourced by run.sh (which has the helpers and the run_test
# lines): longjmp in bulk, signal contexts, fatal and dump signals, the ways out of a process,
# vfork, the shim's own dependencies traced, real multi-process runs.
# shellcheck shell=bash disable=SC2016,SC2012,SC2034,SC2015
# (jq programs single-quoted on purpose; ls of our own files; WANT_STATUS, TIMEOUT... are read
# by run.sh's helpers; `a && b || fail` as in run.sh)

# 10,000 longjmps out of ljm_jump straight back to main, each followed by a call of ljm_tick;
# then setjmp inside a live traced frame (ljm_live) with nested traced calls (ljm_nested)
# jumped out of, back into it: 1000 x 3 jumps, then 3 x 5000 (the shadow stack fills under
# the live frame). Frames left behind are dropped when an enclosing traced call returns, when
# the shadow stack fills, and at the report: every count exact, the returning calls timed.
test_longjmp_many() {
	plt_call libljm.so ljm_live ljm_nested || return 1
	run_pair longjmp_many ljm_jump,ljm_tick,ljm_live,ljm_nested "$B/t_ljmany" || return 1
	grep -q '^phase 1: 10000 jumps' "$T/u.out" ||
		fail_because "test setup: the untraced run did not jump 10000 times: $(head -1 "$T/u.out")" ||
		return 1
	one_report && check_expects "$T/t.out" || return 1
	ck "ljm_tick: dropped == 1, unwound == 0, timed + migrated == 9999 (all timed but the first)" \
		'fn("ljm_tick") | .dropped == 1 and .unwound == 0 and .timed + .migrated == 9999' \
		'fn("ljm_tick") | counts' || return 1
	ck "ljm_live (returns normally after jumps back into it): dropped == 1, timed + migrated == 1002" \
		'fn("ljm_live") | .dropped == 1 and .unwound == 0 and .timed + .migrated == 1002' \
		'fn("ljm_live") | counts' || return 1
	ck "ljm_jump and ljm_nested: every call unwound (none timed, none dropped)" \
		'all(fn("ljm_jump"), fn("ljm_nested"); .timed == 0 and .dropped == 0 and .migrated == 0)' \
		'[fn("ljm_jump"), fn("ljm_nested") | counts]'
}

# SA_SIGINFO handlers interrupting traced calls read the interrupted %rip/%rsp (exactly the
# callee's: int3 at a known address; a timer inside a known loop), on the normal stack and on
# a sigaltstack, and make traced calls; then handlers siglongjmp out of traced calls, 4000
# times (8000 abandoned frames). t_sigmore checks the contexts itself (stdout compared).
test_signals_more() {
	run_pair signals_more sgm_trap,sgm_spin,sgm_leaf,sgm_jump,sgm_after "$B/t_sigmore" "$T/side" ||
		return 1
	[ "$(grep -c ', 0 bad contexts' "$T/u.out")" -eq 6 ] &&
		[ "$(grep -c 'each ended by a signal inside its loop' "$T/u.out")" -eq 2 ] ||
		fail_because "test setup: the untraced run fails its own checks: $(grep -v ', 0 bad' "$T/u.out" | head -2)" ||
		return 1
	one_report && check_expects "$T/side" || return 1
	ck "sgm_jump: every call unwound" \
		'fn("sgm_jump") | .timed == 0 and .dropped == 0 and .migrated == 0' \
		'fn("sgm_jump") | counts' || return 1
	ck "sgm_after (after 4000 siglongjmps): dropped == 1, timed + migrated == 999" \
		'fn("sgm_after") | .dropped == 1 and .unwound == 0 and .timed + .migrated == 999' \
		'fn("sgm_after") | counts'
}

# sig_number NAME: 15 for TERM, ...
sig_number() {
	case $1 in TERM) echo 15 ;; INT) echo 2 ;; HUP) echo 1 ;; ABRT) echo 6 ;; esac
}

# fatal_fresh: a clean scratch directory and status for the next sub-run.
fatal_fresh() {
	rm -f "$T"/r.* "$T/side"
	WANT_STATUS=0
	WHY=""
}

# Raised from inside a traced call: $? is 128 + the signal in both runs, report written.
fatal_raise() {
	WANT_STATUS=$((128 + $(sig_number "$1")))
	run_pair fatal_signals px_add,px_raise "$B/t_fatal" raise "$1" &&
		one_report && check_expects "$T/t.out" || return 1
	grep -q "^start: sigaction(SIG$1, NULL, &old): SIG_DFL, flags 0$" "$T/u.out" ||
		fail_because "test setup: SIG$1 is not at its default action: $(grep "SIG$1" "$T/u.out" | head -1)"
}

# The same in a fork child, whose parent says exactly how it died (WIFSIGNALED, WTERMSIG);
# or (victim) killed by its parent while calling a traced function in a loop.
fatal_wait() {
	run_pair fatal_signals px_add,px_raise "$B/t_fatal" wait "$T/side" "$1" "$2" || return 1
	grep -qx "child: killed by SIG$2" "$T/u.out" ||
		fail_because "test setup: untraced child: $(grep '^child:' "$T/u.out")" || return 1
	fatal_child_reports
}

# The program's own SIGTERM handler replaces the shim's: it runs, nothing is written until
# the program returns from main.
fatal_own() {
	run_pair fatal_signals px_add,px_raise "$B/t_fatal" own &&
		one_report && check_expects "$T/t.out" || return 1
	grep -qx 'after px_raise: handler ran 2 times, 0 report files' "$T/u.out" ||
		fail_because "test setup: untraced: $(grep '^after' "$T/u.out" | tr '\n' ' ')"
}

# The program ignores the signal a while, then puts back the action it saved (SIG_DFL, as it
# was told): the default action again, so a report, then death.
fatal_restore() {
	WANT_STATUS=$((128 + $(sig_number "$1")))
	run_pair fatal_signals px_add,px_raise "$B/t_fatal" restore "$1" || return 1
	[ -n "$REPORT" ] || fail_because "died of SIG$1 without a report" || return 1
	one_report && check_expects "$T/t.out"
}

# The program sets SIGHUP to SIG_DFL itself (signal, then sigaction): still the default
# action, so a report, then death; the old actions it is told are those it set.
fatal_reset() {
	WANT_STATUS=129
	run_pair fatal_signals px_add,px_raise "$B/t_fatal" reset &&
		one_report && check_expects "$T/t.out"
}

# SIGTERM, SIGINT, SIGHUP, SIGABRT at their default action: the report is written, then the process
# dies of the signal (same status as untraced); sigaction queries answer SIG_DFL in both runs.
# Every sub-run runs; the reasons of all that failed are reported.
test_fatal_signals() {
	local s sub
	local -a why=()
	for sub in "raise TERM" "raise INT" "raise HUP" "raise ABRT" "wait raise TERM" \
		"wait raise INT" "wait raise HUP" "wait raise ABRT" "wait victim TERM" "own" \
		"restore INT" "restore TERM" "reset"; do
		fatal_fresh
		# shellcheck disable=SC2086	# sub is "name [args]"
		set -- $sub
		s=$1
		shift
		"fatal_$s" "$@" || why+=("$sub: ${WHY:-failed}")
	done
	fatal_fresh
	[ ${#why[@]} -eq 0 ] || fail_because "$(printf '%s; ' "${why[@]}")"
}

# fatal_child_reports: after `t_fatal wait`, the child's report (pid from the side file)
# matches the expectations on stdout, the parent's those in the side file.
fatal_child_reports() {
	local child others
	child=$(side child)
	REPORT=$T/r.$child.json
	[ -n "$child" ] && [ -f "$REPORT" ] ||
		fail_because "no report r.$child.json from the child; files: $(cd "$T" && ls r.* 2>/dev/null | tr '\n' ' ')" ||
		return 1
	is_json "$REPORT" || fail_because "r.$child.json is not one JSON object" || return 1
	ck "child: pid == $child" ".pid == $child" '.pid' || return 1
	check_expects "$T/t.out" || sub_failed "the child's report" || return 1
	others=$(find "$T" -maxdepth 1 -name 'r.*' ! -name "r.$child.json")
	[ "$(echo "$others" | wc -w)" -eq 1 ] ||
		fail_because "expected the parent's report beside the child's, found: $others" || return 1
	REPORT=$others
	check_expects "$T/side" || sub_failed "the parent's report"
}

# TSC_DUMP_SIGNAL=USR2: t_dump raises it after 1000 and 1500 calls, in a fork child after its
# own 300 calls, and from inside a traced call; it waits for each report and moves it aside
# (dump1, dump2, dump_child, dump3 .json): the program goes on, each dump has the counts of
# that moment and the pid of its process, the final reports all of them.
test_dump_signal() {
	local d want pid child n
	XENV+=(TSC_DUMP_SIGNAL=USR2)
	run_pair dump_signal px_add,px_call "$B/t_dump" "$T" "$T/side" || return 1
	grep -qx 'sigaction(SIGUSR2, NULL, &old): SIG_DFL' "$T/t.out" ||
		fail_because "the dump signal's handler shows: $(head -1 "$T/t.out")" || return 1
	pid=$(side pid) child=$(side child)
	n=$(find "$T" -maxdepth 1 -name 'r.*' | wc -l)
	[ "$n" -eq 2 ] && [ -f "$T/r.$pid.json" ] && [ -f "$T/r.$child.json" ] ||
		fail_because "expected the final reports r.$pid.json and r.$child.json (fork child), found: $(cd "$T" && ls r.* 2>/dev/null | tr '\n' ' ')" ||
		return 1
	REPORT=$T/r.$pid.json
	is_json "$REPORT" && check_expects "$T/t.out" || sub_failed "final report" || return 1
	REPORT=$T/r.$child.json
	is_json "$REPORT" || fail_because "r.$child.json is not one JSON object" || return 1
	ck "the fork child's final report: px_add calls == 300" 'fn("px_add").calls == 300' \
		'fn("px_add") | counts' || return 1
	for d in 1 2 _child 3; do
		grep -qx "dump$d ok" "$T/side" ||
			fail_because "dump$d: $(grep "^dump$d " "$T/side" || echo "not attempted")" || return 1
		REPORT=$T/dump$d.json
		is_json "$REPORT" || fail_because "dump$d.json is not one JSON object" || return 1
		want=$(side "dump${d}_px_add")
		n=$pid
		[ $d = _child ] && n=$child
		ck "dump$d: schema 1, pid $n" ".schema == 1 and .pid == $n" '{schema, pid}' &&
			ck "dump$d: px_add calls == $want (the calls made before it)" \
				"fn(\"px_add\").calls == $want" 'fn("px_add") | counts' &&
			ck "dump$d: calls == timed + unwound + migrated + dropped for every function" \
				'all(.functions[]; .calls == .timed + .unwound + .migrated + .dropped)' \
				'[.functions[] | counts]' || return 1
	done
	ck "dump3, taken inside px_call: px_call calls == 1" 'fn("px_call").calls == 1' \
		'fn("px_call") | counts'
}

# _Exit, exit and _exit from inside a traced call, abort, exit and _exit from a thread while
# the others are inside traced calls.
test_exit_paths() {
	local m st n f
	for m in Exit:7 exit_in_call:4 _exit_in_call:6 thread_exit:9 thread__exit:8; do
		st=${m#*:} m=${m%:*}
		rm -f "$T"/r.*
		WANT_STATUS=$st
		run_pair exit_paths px_add,px_leaf,px_call,px_forever "$B/t_exitp" "$m" &&
			one_report && check_expects "$T/t.out" || sub_failed "$m (status $st)" || return 1
	done
	# _Exit and _exit themselves traced (through the shim's wrappers): counted, and unwound,
	# since they are still running when they write the report.
	for m in Exit:7:_Exit _exit_in_call:6:_exit; do
		rm -f "$T"/r.*
		WANT_STATUS=$(echo "$m" | cut -d: -f2)
		f=${m##*:} m=${m%%:*}
		run_pair exit_paths px_add,px_leaf,px_call,px_forever,_exit,_Exit "$B/t_exitp" "$m" &&
			one_report && check_expects "$T/t.out" &&
			ck "$f: calls == 1, unwound == 1" "fn(\"$f\") | .calls == 1 and .unwound == 1" \
				"fn(\"$f\") | counts" || sub_failed "$m with _exit and _Exit traced" || return 1
	done
	# abort(): dies of SIGABRT in both runs; a report may or may not have been written.
	for m in abort abort_in_call; do
		rm -f "$T"/r.*
		WANT_STATUS=134
		run_pair exit_paths px_add,px_leaf,px_call,px_forever "$B/t_exitp" "$m" ||
			sub_failed "$m" || return 1
		n=$(find "$T" -maxdepth 1 -name 'r.*' | wc -l)
		if [ "$n" -eq 1 ]; then
			is_json "$REPORT" || fail_because "$m: the report written is not JSON" || return 1
			check_expects "$T/t.out" || sub_failed "$m: the report written" || return 1
		else
			[ "$n" -eq 0 ] || fail_because "$m: $n report files" || return 1
		fi
	done
}

# vfork: the children's traced calls are not the parent's; statuses as untraced; the exec'd
# /bin/true writes its own report when a traced function is found in it (with px_add alone,
# nothing is: no report, TSC_EMPTY); nothing else writes one. Then the same with vfork, execl
# and _exit traced too (through the shim's wrappers): the parent made 3 vfork calls, its
# children's execl and _exit calls pass through uncounted.
test_vfork() {
	run_pair vfork px_add "$B/t_vfork" "$T/side" && vfork_reports 0 || return 1
	rm -f "$T"/r.* "$T/side"
	run_pair vfork px_add,vfork,execl,_exit "$B/t_vfork" "$T/side" && vfork_reports 1 ||
		sub_failed "vfork, execl, _exit traced too" || return 1
	REPORT=$T/r.$(side pid).json
	ck "vfork: calls == 3 (the parent's; each returns twice, in the child and in the parent)" \
		'fn("vfork").calls == 3' 'fn("vfork") | counts' &&
		ck "execl and _exit: calls == 0 (only the vfork children call them)" \
			'fn("execl").calls == 0 and fn("_exit").calls == 0' \
			'[fn("execl"), fn("_exit") | counts]' ||
		sub_failed "vfork, execl, _exit traced too"
}

# vfork_reports TRUE: the parent's report, and /bin/true's when TRUE is 1.
vfork_reports() {
	local pid tpid n want=$(($1 + 1))
	grep -q '^child 1 (_exit): exited with status 3$' "$T/u.out" &&
		grep -q '^child 2 (exec /bin/true): exited with status 0$' "$T/u.out" &&
		grep -q '^child 3 (failed exec): exited with status 126$' "$T/u.out" ||
		fail_because "test setup: untraced statuses: $(grep '^child' "$T/u.out" | tr '\n' ' ')" ||
		return 1
	pid=$(side pid) tpid=$(side true)
	n=$(find "$T" -maxdepth 1 -name 'r.*' | wc -l)
	[ "$n" -eq "$want" ] && [ -f "$T/r.$pid.json" ] && { [ "$1" = 0 ] || [ -f "$T/r.$tpid.json" ]; } ||
		fail_because "expected $want report(s), r.$pid.json (parent)$([ "$1" = 0 ] || echo " and r.$tpid.json (/bin/true)"); found: $(cd "$T" && ls r.* 2>/dev/null | tr '\n' ' ')" ||
		return 1
	REPORT=$T/r.$pid.json
	is_json "$REPORT" && check_expects "$T/t.out" || sub_failed "the parent's report" || return 1
	[ "$1" = 1 ] || return 0
	REPORT=$T/r.$tpid.json
	is_json "$REPORT" || fail_because "r.$tpid.json is not one JSON object" || return 1
	ck "/bin/true's report: pid $tpid, schema 1, program true" \
		".pid == $tpid and .schema == 1 and .program == \"true\" and (.exe | endswith(\"/true\"))" \
		'{pid, schema, program, exe}'
}

OWN_DEPS=malloc,free,calloc,realloc,memcpy,memmove,memset,strlen,write,open,close,snprintf
OWN_DEPS=$OWN_DEPS,pthread_mutex_lock,pthread_mutex_unlock,pthread_getspecific,clock_gettime
OWN_DEPS=$OWN_DEPS,mprotect,sched_setaffinity,atexit,sigaction,dlsym,dlopen,pthread_create
OWN_DEPS=$OWN_DEPS,environ,stdout,__tls_get_addr,_dl_find_object,tsctrace_dump

# jq_true EXPR: EXPR is true on $REPORT (a question, not a check: no failure recorded).
jq_true() {
	jq -e -s "$JQDEFS .[0] | ($1)" "$REPORT" >/dev/null 2>&1
}

# The functions the shim itself depends on, all traced, in a program that calls them itself
# (threads, a dlopen'd plugin, a signal handler, atexit functions, tsctrace_dump half-way).
# Through GOT slots, where only the program's own calls are counted, so counts are exact;
# atexit (linked into the program from libc_nonshared.a, hidden) is then untraceable.
test_own_deps() {
	local TIMEOUT=30 c
	local -a why=()
	XENV+=(TSC_HOOK=got)
	run_pair own_deps "$OWN_DEPS" "$B/t_owndeps" "$T/side" || return 1
	one_report || return 1
	# Independent checks: all run, the reasons of every one that failed are reported.
	for c in own_deps_counts own_deps_skipped own_deps_listed own_deps_wrapped own_deps_memcpy; do
		WHY=""
		"$c" || why+=("${WHY:-$c failed}")
	done
	WHY=""
	[ ${#why[@]} -eq 0 ] || fail_because "$(printf '%s; ' "${why[@]}")"
}

own_deps_counts() {
	check_expects "$T/side"
}

# The same functions patched inline (TSC_HOOK=auto): libc's internal calls count too, and
# the shim's own calls of them go through the patched entries, guarded. The program must run
# unharmed, and every function be counted at least as often as the program called it.
test_own_deps_inline() {
	local TIMEOUT=30 kind fn n
	run_pair own_deps_inline "${OWN_DEPS/,atexit/}" "$B/t_owndeps" "$T/side" || return 1
	one_report || return 1
	ck "some functions hooked inline" 'any(.functions[]; .hook == "inline")' \
		'[.functions[] | {name, hook}]' || return 1
	while read -r kind fn n; do
		ck "$fn: calls >= $n" "fn(\"$fn\").calls >= $n" "fn(\"$fn\") | counts" || return 1
	done < <(grep -E '^expect(_min)? ' "$T/side")
}

# Names that are not traceable functions: one line each, not in the report. (atexit is not
# in libc.so.6 at all: libc_nonshared.a links it into the program, which calls __cxa_atexit.)
own_deps_skipped() {
	local f n
	for f in environ stdout __tls_get_addr tsctrace_dump atexit; do
		if [ "$f" = __tls_get_addr ] && [ "$ASAN" = 1 ] &&
			jq_true 'fn("__tls_get_addr").object // "" | test("libasan")'; then
			continue	# libasan defines its own (an interceptor): a plain function
		fi
		n=$(grep -cw -- "$f" "$T/t.shim")
		[ "$n" -eq 1 ] ||
			fail_because "expected one 'tsctrace: ' line naming $f, got $n: $(grep -w -- "$f" "$T/t.shim" | head -2)" ||
			return 1
		ck "$f is not in the report" "fn(\"$f\") == null" "fn(\"$f\")" || return 1
	done
}

# Every other name is in the report; _dl_find_object is in libc.so.6 (traced) or in ld.so
# (one line, skipped), by glibc version.
own_deps_listed() {
	local f
	ck "_dl_find_object listed, or else named by one 'tsctrace: ' line" \
		"fn(\"_dl_find_object\") != null or $(grep -cw _dl_find_object "$T/t.shim") == 1" \
		'[.functions[].name]' || return 1
	for f in ${OWN_DEPS//,/ }; do
		case $f in environ | stdout | __tls_get_addr | tsctrace_dump | atexit | _dl_find_object) continue ;; esac
		ck "$f is in the report" "fn(\"$f\") != null" '[.functions[].name]' || return 1
	done
}

own_deps_wrapped() {
	local f
	for f in sigaction dlsym dlopen pthread_create; do
		# Under ASan the program's calls reach libasan's interceptor first: that is traced.
		[ "$ASAN" = 1 ] && jq_true "fn(\"$f\").object // \"\" | test(\"libasan\")" && continue
		grep -w -- "$f" "$T/t.shim" | grep -q wrap ||
			fail_because "no 'tsctrace: ' line saying $f is traced through the shim's wrapper" ||
			return 1
	done
}

# memcpy and memmove may be one function (one entry): then it has the calls of both names.
own_deps_memcpy() {
	local both
	both=$(awk '$1 == "expect_min" && ($2 == "memcpy" || $2 == "memmove") { s += $3 } END { print s + 0 }' "$T/side")
	ck "memcpy and memmove: one entry with >= $both calls (the program's memcpy and memmove calls), or two entries" \
		"fn(\"memcpy\") != fn(\"memmove\") or fn(\"memcpy\").calls >= $both" \
		'[fn("memcpy"), fn("memmove") | counts]'
}

# mp_check WHAT PROGRAM...: after a traced multi-process run with libpidlog.so: reports from
# every process (the pids libpidlog logged), each valid, named by its pid (r.P.json, and
# r.P.P.json for the image a process exec'd after writing r.P.json); PROGRAMs among them.
mp_check() {
	local what=$1 want got pid p progs f
	shift
	want=$(sort -un "$T/pids" 2>/dev/null | tr '\n' ' ')
	got=$(cd "$T" && ls r.*.json 2>/dev/null | sed -E 's/^r\.([0-9]+)(\.[0-9]+)?\.json$/\1/' |
		sort -un | tr '\n' ' ')
	[ "$(echo "$want" | wc -w)" -ge 3 ] ||
		fail_because "$what: test setup: libpidlog logged fewer than 3 processes: $want" || return 1
	[ "$want" = "$got" ] ||
		fail_because "$what: reports for pids [$got], processes were [$want]" || return 1
	progs=""
	for f in $(cd "$T" && ls r.*.json); do
		pid=${f#r.}
		pid=${pid%%.*}
		REPORT=$T/$f
		is_json "$REPORT" || fail_because "$what: $f is not one JSON object" || return 1
		ck "$what: $f: schema 1, pid $pid" ".schema == 1 and .pid == $pid" '{schema, pid, program}' &&
			ck "$what: $f: strlen and malloc listed, calls == timed + unwound + migrated + dropped" \
				'fn("strlen") != null and fn("malloc") != null and
				 all(.functions[]; .calls == .timed + .unwound + .migrated + .dropped)' \
				'{program, f: [.functions[] | counts]}' || return 1
		progs="$progs $(jq -r '(.exe // .program) | split("/") | last' "$REPORT")" # the file run
	done
	for p in "$@"; do
		[[ " $progs " == *" $p "* ]] ||
			fail_because "$what: no report from $p among: $progs" || return 1
	done
	NOTE="${NOTE:+$NOTE; }$what: $(echo "$got" | wc -w) processes"
}

# A shell pipeline and make, traced with strlen,malloc: every process writes its own report.
test_multiprocess() {
	local sh
	sh=$(basename "$(readlink -f /bin/sh)")
	# TSC_OUTPUT is $T/r.%p.json: an exec'd image keeps the report its process wrote before
	# the exec and writes beside it (r.P.P.json), so each process has one file or two.
	[ "$ASAN" = 1 ] && XENV+=(ASAN_OPTIONS=detect_leaks=0)	# LSan would judge sort, not us
	XENV+=("LD_PRELOAD=$PRELOAD $B/libpidlog.so" "PIDLOG=$T/pids")
	run_pair multiprocess strlen,malloc sh -c 'seq 1 2000 | sort -r | tail -n 5' &&
		mp_check "sh pipeline" "$sh" seq sort tail || return 1

	rm -f "$T"/r.* "$T/pids"
	printf '%s\n' '.PHONY: all a b' 'all: a b' 'a:' '	seq 1 300 | sort -rn | tail -n 3' \
		'b:' '	printf "%s\n" b1 b2 | tr a-z A-Z' >"$T/two.mk"
	run_pair multiprocess strlen,malloc env -u MAKEFLAGS -u MAKELEVEL -u MFLAGS make -f two.mk &&
		mp_check "make" make "$sh" seq sort tail tr
}

# Functions no trampoline can bracket, counted only (t_countonly): _setjmp and __sigsetjmp
# return twice (longjmp / siglongjmp back), getcontext twice (setcontext back), swapcontext
# switches to a coroutine on its own stack and back. Every call counted at entry and sent on
# without a frame: exact counts, none timed, the reason in count_only, no call sites with
# TSC_CALLERS, no sampling periods with TSC_SAMPLE; getppid between them stays timed.
CO_FUNCS=_setjmp,__sigsetjmp,getcontext,swapcontext,getppid
countonly_case() {
	local hook=$1
	shift
	XENV+=("TSC_HOOK=$hook" "$@")
	# ASan warns about makecontext on stderr, with the pid: stdout and status still compared.
	[ "$ASAN" = 1 ] && CMP_STDERR=0
	run_pair countonly "$CO_FUNCS" "$B/t_countonly" || return 1
	one_report && check_expects "$T/t.out" || return 1
	ck "every function traced with the hook asked for ($hook)" \
		"all(.functions[]; .hook == \"$hook\") and (.functions | length) == 5" \
		'[.functions[] | {name, hook}]' || return 1
	ck "counted only: none timed, all dropped, no sampling, no call sites" \
		'all(fn("_setjmp"), fn("__sigsetjmp"), fn("getcontext"), fn("swapcontext");
		 .timed == 0 and .dropped == .calls and (.skipped // 0) == 0 and
		 ((.callers // []) | length) == 0 and .first == null)' \
		'[.functions[] | counts + {count_only, skipped, callers: (.callers | length)}]' ||
		return 1
	ck "the reasons" \
		'[fn("_setjmp"), fn("__sigsetjmp"), fn("getcontext"), fn("swapcontext") | .count_only] ==
		 ["returns twice", "returns twice", "returns twice", "returns on another stack"] and
		 fn("getppid").count_only == null' '[.functions[] | {name, count_only}]' || return 1
	ck "getppid timed" 'fn("getppid").timed > 0' 'fn("getppid") | counts' || return 1
	# GOT hooks see only the program's calls: exactly N. Inline ones see libc's own too.
	if [ "$hook" = got ]; then
		ck "_setjmp and __sigsetjmp: exactly 1000 calls each (GOT)" \
			'fn("_setjmp").calls == 1000 and fn("__sigsetjmp").calls == 1000' \
			'[fn("_setjmp"), fn("__sigsetjmp") | counts]' || return 1
	fi
	# The text report says it in one line per function; no percentiles of nothing. The CLI
	# is built beside the shim.
	local cli
	cli=$(dirname "$LIB")/tsctrace
	[ -x "$cli" ] || { NOTE="no $cli: CLI not checked"; return 0; }
	"$cli" report "$REPORT" >"$T/text" 2>&1 || fail_because "tsctrace report failed" || return 1
	[ "$(grep -c ': counted only, never timed: it returns' "$T/text")" -eq 4 ] ||
		fail_because "the text report does not say counted only for each: $(grep -c counted "$T/text")" ||
		return 1
	grep -Eq '^_setjmp +1000?[0-9]* +- +- +- +- +- +- ' "$T/text" ||
		fail_because "_setjmp's row has figures: $(grep '^_setjmp' "$T/text" | head -1)" || return 1
	# Prometheus: a count, no histogram.
	"$cli" export --format prometheus "$REPORT" >"$T/prom" 2>&1 ||
		fail_because "export --format prometheus failed" || return 1
	grep -q '^tsctrace_calls_total{function="swapcontext",[^}]*} 2000$' "$T/prom" &&
		! grep -q 'tsctrace_call_cycles[a-z_]*{function="swapcontext"' "$T/prom" ||
		fail_because "prometheus: swapcontext not a count without a histogram" || return 1
}
test_countonly_got() { countonly_case got; }
test_countonly_inline() { countonly_case inline; }
test_countonly_callers() { countonly_case got TSC_CALLERS=1; }
test_countonly_callers_inline() { countonly_case inline TSC_CALLERS=1; }
test_countonly_sampled() { countonly_case inline TSC_SAMPLE=4; }
test_countonly_sampled_callers() { countonly_case got TSC_CALLERS=1 TSC_SAMPLE=4; }
