# attach.sh - `tsctrace attach PID` (docs/attach.md): the shim loaded into a running
# t_attach, the report of exactly the calls made while attached, and on detach every hooked
# byte as it was, the process going on and ending as one never attached. Also the refusals
# that come before ptrace is tried (Yama's ptrace_scope, another user), with the target
# untouched.
# shellcheck shell=bash disable=SC2034,SC2015
# (`a && b || fail` as in run.sh)

ATTACH_WAIT=30 # seconds for a line the program or tsctrace is to print (a bound, not a time)

# ATTACH_CLI: the tsctrace command beside the shim, which it finds by TSCTRACE_LIB (run as
# a simple command, so that a background one's $! is tsctrace itself).
ATTACH_CLI=$(dirname "$LIB")/tsctrace

# attach_wait FILE REGEX: until FILE has a line matching REGEX (ATTACH_WAIT at most).
attach_wait() {
	local i
	for ((i = 0; i < ATTACH_WAIT * 20; i++)); do
		grep -qE "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	fail_because "no line /$2/ in $(basename "$1") within ${ATTACH_WAIT}s: $(tail -c 300 "$1" 2>/dev/null)"
}

# attach_start: t_attach reading commands from the FIFO $T/in (fd 3), printing to $T/p.out;
# its pid in AP.
attach_start() {
	rm -f "$T/in"
	mkfifo "$T/in" || return 1
	(cd "$T" && exec timeout -k 5 "$TIMEOUT" "$B/t_attach") <"$T/in" >"$T/p.out" 2>"$T/p.err" &
	AP=$!
	exec 3>"$T/in"
	# timeout is the process run.sh waits for; t_attach is its child.
	local i
	for ((i = 0; i < 200; i++)); do
		APP=$(pgrep -P "$AP" -x t_attach) && break
		sleep 0.05
	done
	[ -n "$APP" ] || fail_because "t_attach did not start" || return 1
}

# attach_say CMD REGEX: send CMD, wait for its answer; the answer's last word in SAID.
attach_say() {
	local n
	n=$(wc -l <"$T/p.out")
	echo "$1" >&3
	local i
	for ((i = 0; i < ATTACH_WAIT * 20; i++)); do
		SAID=$(tail -n +$((n + 1)) "$T/p.out" | grep -E "$2" | head -1)
		[ -n "$SAID" ] && SAID=${SAID##* } && return 0
		sleep 0.05
	done
	fail_because "t_attach did not answer '$1' within ${ATTACH_WAIT}s: $(tail -c 200 "$T/p.out")"
}

# attach_end: quit, and the program's status must be 0.
attach_end() {
	local st
	echo quit >&3
	exec 3>&-
	wait "$AP"
	st=$?
	[ $st -eq 0 ] || fail_because "t_attach ended with status $st: $(head -c 300 "$T/p.err")"
}

# attach_bytes ADDR: 16 bytes of t_attach's memory at hex ADDR, as hex.
attach_bytes() {
	dd if="/proc/$APP/mem" bs=4096 iflag=skip_bytes,count_bytes skip=$((16#$1)) count=16 \
		2>/dev/null | od -An -tx1 | tr -d ' \n'
}

# attach_attach [ARGS...]: tsctrace attach in the background (its pid in AC), until it said
# it is attached.
attach_attach() {
	# An earlier attach's lines must not be taken for this one's (the file is truncated only
	# once the background command starts).
	rm -f "$T/a.out" "$T/a.err"
	TSCTRACE_LIB=$LIB "$ATTACH_CLI" attach -f attach_work -o "$T/r.json" "$@" "$APP" \
		>"$T/a.out" 2>"$T/a.err" &
	AC=$!
	attach_wait "$T/a.err" '^tsctrace: (attached to|attach:)' || return 1
	grep -q '^tsctrace: attached to' "$T/a.err" ||
		fail_because "attach failed: $(head -c 300 "$T/a.err")"
}

# attach_detach SIGNAL: end the attach with SIGNAL; its status must be 0.
attach_detach() {
	local st
	kill "-$1" "$AC"
	wait "$AC"
	st=$?
	[ $st -eq 0 ] || fail_because "tsctrace attach ended with status $st: $(head -c 300 "$T/a.err")"
}

attach_skip_no_ptrace() {
	local scope
	scope=$(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null || echo 0)
	if [ "$scope" -ge 2 ] && [ "$(id -u)" != 0 ] || [ "$scope" = 3 ]; then
		skip_because "Yama's ptrace_scope is $scope here: no attach possible"
		return 0
	fi
	return 1
}

# Attach, "go 5000", detach at Ctrl-C: exactly 5000 calls; the entry's bytes as before; the
# program answers "go 10" and ends as a run never attached.
test_attach() {
	local addr before after
	attach_skip_no_ptrace && return 0
	printf 'go 5000\ngo 10\nquit\n' | (cd "$T" && timeout "$TIMEOUT" "$B/t_attach") >"$T/u.out" ||
		fail_because "untraced run failed" || return 1
	attach_start || return 1
	attach_say addr '^addr ' || return 1
	addr=$SAID
	before=$(attach_bytes "$addr")
	[ -n "$before" ] || fail_because "cannot read /proc/$APP/mem" || return 1
	attach_attach || return 1
	after=$(attach_bytes "$addr")
	[ "$after" != "$before" ] || fail_because "attach_work's entry is not hooked: $after" || return 1
	attach_say "go 5000" '^done 5000 ' || return 1
	attach_detach INT || return 1
	after=$(attach_bytes "$addr")
	[ "$after" = "$before" ] ||
		fail_because "attach_work's first bytes after detach: $after, before: $before" || return 1
	attach_say "go 10" '^done 10 ' || return 1
	attach_end || return 1
	grep -v '^addr ' "$T/p.out" >"$T/t.out"
	cmp -s "$T/u.out" "$T/t.out" ||
		fail_because "output differs from a run never attached: $(diff "$T/u.out" "$T/t.out" | head -4)" ||
		return 1
	grep -q '^tsctrace: detached from' "$T/a.err" || fail_because "no detach line: $(cat "$T/a.err")" ||
		return 1
	grep -q '^attach_work  *5000 ' "$T/a.out" || fail_because "summary: $(head -c 400 "$T/a.out")" ||
		return 1
	REPORT=$T/r.json
	ck "5000 calls while attached" 'fn("attach_work").calls == 5000 and fn("attach_work").hook == "inline"' \
		'fn("attach_work") | counts' || return 1
	ck "the target's pid" ".pid == $APP" '.pid' || return 1
	ck "the attach window" '.attach.start_unix_ns == .start_unix_ns and .attach.end_unix_ns > .attach.start_unix_ns' \
		'.attach' || return 1
	[ ! -s "$T/p.err" ] || fail_because "the program's stderr: $(head -c 300 "$T/p.err")" || return 1
	NOTE=$(grep -o 'held [0-9.]* ms' "$T/a.err")
}

# A second attach to the same process: the shim is loaded already, hooks again, and its
# report counts its own window only.
test_attach_again() {
	attach_skip_no_ptrace && return 0
	attach_start || return 1
	attach_attach || return 1
	attach_say "go 300" '^done 300 ' || return 1
	attach_detach TERM || return 1
	mv "$T/r.json" "$T/r1.json"
	attach_attach || return 1
	attach_say "go 700" '^done 700 ' || return 1
	attach_detach TERM || return 1
	attach_end || return 1
	REPORT=$T/r1.json
	ck "first attach: 300 calls" 'fn("attach_work").calls == 300' 'fn("attach_work") | counts' || return 1
	REPORT=$T/r.json
	ck "second attach: 700 calls" 'fn("attach_work").calls == 700' 'fn("attach_work") | counts' ||
		return 1
	# Its slowest calls are of its own window (a call kept in the first one stood above the
	# second's cycles.max, and tsctrace report refused the report).
	ck "second attach: the slowest calls kept are of its window" \
		'.attach.start_unix_ns as $s | fn("attach_work") as $f |
		 ($f.slowest | length) > 0 and all($f.slowest[]; .start_ns >= $s and .cycles <= $f.cycles.max)' \
		'{attach, slowest: [fn("attach_work").slowest[] | {start_ns, cycles}]}'
}

# Attach and detach while 4 threads call attach_work in a loop: no crash, and the report's
# calls lie between the program's own counts: at least those made between two pauses while
# attached, at most those made from before the attach to after the detach.
test_attach_threads() {
	local c0 p1 p2 p3 calls
	attach_skip_no_ptrace && return 0
	attach_start || return 1
	attach_say "threads 4" '^started ' || return 1
	attach_say count '^count ' || return 1
	c0=$SAID
	attach_attach || return 1
	attach_say pause '^paused ' || return 1
	p1=$SAID
	attach_say resume '^resumed' || return 1
	attach_say "go 1000" '^done 1000 ' || return 1
	attach_say pause '^paused ' || return 1
	p2=$SAID
	attach_say resume '^resumed' || return 1
	attach_say "go 1000" '^done 1000 ' || return 1
	attach_detach TERM || return 1
	attach_say pause '^paused ' || return 1
	p3=$SAID
	attach_say resume '^resumed' || return 1
	attach_end || return 1
	REPORT=$T/r.json
	calls=$(jq "$JQDEFS"' fn("attach_work").calls' "$REPORT") || fail_because "no report" || return 1
	# the main thread's "go 1000" twice: 2000 calls, all while attached
	[ "$calls" -ge $((p2 - p1 + 2000)) ] && [ "$calls" -le $((p3 - c0 + 2000)) ] ||
		fail_because "report: $calls calls; the threads made $((p2 - p1)) between two pauses while attached, $((p3 - c0)) from before the attach to after the detach (+2000 by main)" ||
		return 1
	NOTE="$calls calls, within [$((p2 - p1 + 2000)), $((p3 - c0 + 2000))]"
}

# Attach while 4 threads call attach_work: the shim is loaded by the main thread alone (asleep
# in read), the 4 threads running on meanwhile; they are held only while the entries are
# written, and the held time printed is that alone.
test_attach_light() {
	local calls
	attach_skip_no_ptrace && return 0
	attach_start || return 1
	attach_say "threads 4" '^started ' || return 1
	attach_attach || return 1
	grep -q "held \([0-9.]*\) ms: 0.00 ms to load the shim (thread $APP alone was borrowed" "$T/a.err" ||
		fail_because "the threads were held to load the shim: $(head -c 300 "$T/a.err")" || return 1
	attach_say "go 1000" '^done 1000 ' || return 1
	attach_detach TERM || return 1
	attach_end || return 1
	REPORT=$T/r.json
	calls=$(jq "$JQDEFS"' fn("attach_work").calls' "$REPORT") || fail_because "no report" || return 1
	[ "$calls" -ge 1000 ] || fail_because "report: $calls calls, fewer than main's 1000" || return 1
	NOTE=$(grep -o 'held [0-9.]* ms' "$T/a.err")
}

# A target whose own environment names functions (TSC_FUNCS, without the shim preloaded): the
# shim's constructor must not start on it inside the dlopen, so every thread is held and
# environ emptied meanwhile (the light way is not taken); the report counts the attach alone.
test_attach_env_tsc() {
	attach_skip_no_ptrace && return 0
	TSC_FUNCS=attach_work TSC_OUTPUT=$T/ctor.json attach_start || return 1
	tr '\0' '\n' <"/proc/$APP/environ" | grep -q '^TSC_FUNCS=attach_work$' ||
		fail_because "t_attach's environment lacks TSC_FUNCS" || return 1
	attach_say "threads 2" '^started ' || return 1
	attach_say "go 100" '^done 100 ' || return 1
	attach_attach || return 1
	! grep -q 'alone was borrowed' "$T/a.err" ||
		fail_because "the light way was taken: $(head -c 300 "$T/a.err")" || return 1
	attach_say "go 300" '^done 300 ' || return 1
	attach_detach TERM || return 1
	attach_end || return 1
	[ ! -e "$T/ctor.json" ] || fail_because "the shim started on the target's TSC_FUNCS" || return 1
	REPORT=$T/r.json
	ck "the calls while attached" 'fn("attach_work").calls >= 300' 'fn("attach_work") | counts' ||
		return 1
}

# A function whose entry cannot be hooked inline (a jump lands inside its first bytes): attach
# rewrites no GOT slot, so it is not traced; one line says so at attach, and the report marks
# it hook "none" (the text report: "not traced"), not a silent "got" with 0 calls.
test_attach_not_traced() {
	attach_skip_no_ptrace && return 0
	attach_start || return 1
	attach_attach -f attach_work,attach_jumped || return 1
	grep -q '^tsctrace: attach: not traced while attached .*: attach_jumped$' "$T/a.err" ||
		fail_because "no line naming attach_jumped: $(head -c 400 "$T/a.err")" || return 1
	attach_say "go 100" '^done 100 ' || return 1
	attach_detach TERM || return 1
	attach_end || return 1
	grep -q '^attach_jumped: not traced' "$T/a.out" ||
		fail_because "the text report does not say so: $(head -c 600 "$T/a.out")" || return 1
	REPORT=$T/r.json
	ck "attach_jumped not traced" 'fn("attach_jumped").hook == "none" and fn("attach_work").hook == "inline" and fn("attach_work").calls == 100' \
		'[fn("attach_jumped").hook, fn("attach_work").hook, fn("attach_work").calls]' || return 1
}

# --interval 0.2: a table every interval; the interval rows' calls of attach_work add up to
# the 1000 calls made while attached, as the report counts them.
test_attach_interval() {
	local sum i
	attach_skip_no_ptrace && return 0
	attach_start || return 1
	attach_attach --interval 0.2 || return 1
	attach_say "go 1000" '^done 1000 ' || return 1
	for ((i = 0; i < ATTACH_WAIT * 20; i++)); do
		sum=$(awk '$2 == "attach_work" { s += $3 } END { print s + 0 }' "$T/a.out")
		[ "$sum" -ge 1000 ] && break
		sleep 0.05
	done
	attach_detach TERM || return 1
	attach_end || return 1
	grep -q '^seconds  *function  *calls  *median' "$T/a.out" ||
		fail_because "no table heading: $(head -c 300 "$T/a.out")" || return 1
	[ "$sum" -eq 1000 ] || fail_because "the intervals' calls add up to $sum, not 1000" || return 1
	REPORT=$T/r.json
	ck "1000 calls" 'fn("attach_work").calls == 1000' 'fn("attach_work") | counts' || return 1
	NOTE="$(grep -c '^[0-9.]* *attach_work' "$T/a.out") interval rows"
}

# attach_untouched: the shim is not mapped in t_attach, which goes on.
attach_untouched() {
	! grep -q libtsctrace "/proc/$APP/maps" || fail_because "the shim was loaded all the same" ||
		return 1
	attach_say "go 10" '^done 10 ' || return 1
	attach_end
}

# Yama's ptrace_scope=3 (faked: a real 3 stays until reboot) is refused with its reason,
# before ptrace is tried.
test_attach_refused_scope() {
	local st
	attach_start || return 1
	TSCTRACE_LIB=$LIB TSCTRACE_TEST_PTRACE_SCOPE=3 "$ATTACH_CLI" attach -f attach_work "$APP" \
		>"$T/a.out" 2>"$T/a.err"
	st=$?
	[ $st -eq 1 ] || fail_because "status $st, expected 1" || return 1
	grep -q "^tsctrace: attach: Yama's kernel.yama.ptrace_scope is 3: .*until the machine reboots" \
		"$T/a.err" || fail_because "message: $(cat "$T/a.err")" || return 1
	[ "$(wc -l <"$T/a.err")" -eq 1 ] || fail_because "more than one line: $(cat "$T/a.err")" || return 1
	attach_untouched
}

# Another user's process (here root's, attached from uid 65534): refused, with whose it is.
test_attach_refused_user() {
	local st
	[ "$(id -u)" = 0 ] || { skip_because "needs root, to run tsctrace as another user"; return 0; }
	command -v setpriv >/dev/null || { skip_because "setpriv is not installed"; return 0; }
	attach_start || return 1
	setpriv --reuid=65534 --regid=65534 --clear-groups env TSCTRACE_LIB="$LIB" \
		"$ATTACH_CLI" attach -f attach_work "$APP" >"$T/a.out" 2>"$T/a.err"
	st=$?
	if grep -q 'Permission denied' "$T/a.err"; then
		skip_because "uid 65534 cannot run $ATTACH_CLI: $(head -c 200 "$T/a.err")"
		attach_end
		return 0
	fi
	[ $st -eq 1 ] || fail_because "status $st, expected 1: $(cat "$T/a.err")" || return 1
	grep -q "^tsctrace: attach: process $APP belongs to user 0, tsctrace runs as user 65534" \
		"$T/a.err" || fail_because "message: $(cat "$T/a.err")" || return 1
	attach_untouched
}

# A statically linked program (no libc.so mapped, no dlopen; every Go program without cgo is
# one): refused with the reason, and it goes on.
test_attach_refused_static() {
	local pid st i
	printf '#include <unistd.h>\nint main(void) { char c; return read(0, &c, 1) == 1 ? 0 : 3; }\n' \
		>"$T/s.c"
	${CC:-gcc} -static -O2 -o "$T/static_c" "$T/s.c" 2>"$T/build.log" ||
		{ skip_because "no static libc to link with: $(head -c 200 "$T/build.log")"; return 0; }
	mkfifo "$T/in" || return 1
	"$T/static_c" <"$T/in" &
	pid=$!
	exec 3>"$T/in"
	# The FIFO's open returns only now: until the exec, $pid is still a shell, with a libc.
	for ((i = 0; i < 200; i++)); do
		[ "$(readlink "/proc/$pid/exe")" = "$T/static_c" ] && break
		sleep 0.05
	done
	TSCTRACE_LIB=$LIB "$ATTACH_CLI" attach -f main "$pid" >"$T/a.out" 2>"$T/a.err"
	st=$?
	echo x >&3
	exec 3>&-
	wait "$pid" || fail_because "the static program ended with status $?" || return 1
	[ $st -eq 1 ] || fail_because "status $st, expected 1: $(cat "$T/a.err")" || return 1
	grep -q "^tsctrace: attach: process $pid has no libc.so mapped: a statically linked program" \
		"$T/a.err" || fail_because "message: $(cat "$T/a.err")"
}

run_test attach_again test_attach_again
run_test attach_refused_static test_attach_refused_static
run_test attach_interval test_attach_interval
run_test attach_threads test_attach_threads
run_test attach_light test_attach_light
run_test attach_env_tsc test_attach_env_tsc
run_test attach_not_traced test_attach_not_traced
run_test attach_refused_scope test_attach_refused_scope
run_test attach_refused_user test_attach_refused_user
