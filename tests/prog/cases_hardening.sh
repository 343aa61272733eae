# cases_hardening.sh - sourced by run.sh: hostile timing around the shim's own code (signals
# that arrive while it runs).
# shellcheck shell=bash disable=SC2016	# jq programs are single-quoted on purpose

# SIGTERM from the parent while the child calls a traced function in a loop with
# TSC_CALLERS=8, which spends most of each call taking the call path in libunwind, inside the
# shim: the signal must be finished when the shim's code leaves, not dropped. Ten times: the
# report must be there every time, and the child dies of SIGTERM as untraced.
test_fatal_callers() {
	local i
	local -a lost=()
	for i in 1 2 3 4 5 6 7 8 9 10; do
		fatal_fresh
		XENV=(TSC_CALLERS=8)
		fatal_wait victim TERM || lost+=("run $i: ${WHY:-failed}")
	done
	fatal_fresh
	[ ${#lost[@]} -eq 0 ] || fail_because "${#lost[@]} of 10: $(printf '%s; ' "${lost[@]}")"
}

# A 10 kHz timer's handler makes a traced call while the main thread calls another in a loop
# with TSC_CALLERS=4 (most of each call inside the shim, taking its call path): every call of
# both is counted, the handler's too when it interrupted the shim (then counted, not timed).
test_signal_storm() {
	local n
	XENV=(TSC_CALLERS=4)
	run_pair signal_storm work_add,work_leaf "$B/t_sigstorm" "$T/side" || return 1
	grep -qx 'timer stopped; handler ran: yes' "$T/u.out" ||
		fail_because "test setup: the timer hardly fired untraced" || return 1
	one_report && check_expects "$T/side" || return 1
	n=$(side handler_calls)
	NOTE="$n handler calls, $(jq -r -s "$JQDEFS .[0] | fn(\"work_leaf\").timed" "$REPORT") timed"
	ck "work_leaf: calls and sites add up" \
		'fn("work_leaf") as $f | ([$f.callers[].calls] | add) == $f.calls' \
		'fn("work_leaf") | {calls, timed, dropped, callers: [.callers[] | {site, calls}]}'
}

# A library loaded, closed and loaded again holds a function too short for the jump, traced
# through a trap at every load: the line saying so comes once, not at every load.
test_refusal_once() {
	local n
	XENV=(TSC_HOOK=inline)
	run_pair refusal_once plugin_inner,plugin_tiny "$B/t_dlopen" reload || return 1
	# plugin_tiny is shorter than the jump: traced through a trap, said once all the same.
	n=$(grep -c 'plugin_tiny: shorter than the 5-byte jump: traced through a trap' "$T/t.shim")
	[ "$n" -eq 1 ] || fail_because "the trap of plugin_tiny was said $n times: $(head -3 "$T/t.shim")"
}

# The report name as an attacker would prepare it. A symbolic link at the name that another
# user swaps between /dev/null (a device: written to) and a file of root's must never get
# that file written, however the swaps fall (20 runs against a swapping loop); a FIFO at the
# name with no reader must not hold the exit; entries pre-created at every temporary name the
# next pids could use must not deny the report.
test_report_name_attacks() {
	local i pid swapper secret=$T/secret.txt
	printf 'root only\n' >"$secret"
	chmod 600 "$secret"
	OUTTPL="$T/link.json"
	CMP_STDERR=0	# where the link was refused, the report goes to stderr, as it should
	(while :; do ln -sfn /dev/null "$T/link.json"; ln -sfn "$secret" "$T/link.json"; done) &
	swapper=$!
	for i in $(seq 20); do
		run_pair report_name_attacks strlen "$B/t_basic" || break
	done
	kill "$swapper" 2>/dev/null
	wait "$swapper" 2>/dev/null
	[ -z "$WHY" ] || return 1
	[ "$(cat "$secret")" = "root only" ] ||
		fail_because "the file behind a swapped link was written: $(head -c 100 "$secret")" ||
		return 1

	rm -f "$T/link.json" "$T"/r.*
	mkfifo "$T/fifo.json"
	OUTTPL="$T/fifo.json"
	TIMEOUT=20 run_pair report_name_attacks strlen "$B/t_basic" || return 1
	grep -q 'schema' "$T/t.err" ||
		fail_because "FIFO without a reader: the report did not reach stderr either" || return 1

	rm -f "$T"/r.*
	CMP_STDERR=1
	OUTTPL="$T/r.json"
	pid=$(sh -c 'echo $$')
	for i in $(seq "$pid" $((pid + 300))); do
		: >"$T/r.json.tmp.$i"
	done
	run_pair report_name_attacks strlen "$B/t_basic" || return 1
	[ -s "$T/r.json" ] && is_json "$T/r.json" ||
		fail_because "with temporary names pre-created, no report at r.json: $(head -2 "$T/t.shim")"
}
