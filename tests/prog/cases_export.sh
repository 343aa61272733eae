# shellcheck shell=bash
# cases_export.sh - TSC_EXPORT (sourced by run.sh): the metrics file rewritten by the shim's
# helper thread while the program runs, and at its end (return from main, _exit, a fatal
# signal); counters never fall between two writes; the last write is the report's numbers,
# byte for byte what `tsctrace export --format prometheus` makes of the report; a fork child
# writes none, or its own file when the template has %p.

# export_case MODE: t_export under TSC_EXPORT=$T/m.prom, ending by MODE (exit or _exit).
export_case() {
	local mode=$1 pid child nsnap f cli
	XENV+=(TSC_EXPORT="$T/m.prom" TSC_EXPORT_INTERVAL=100ms)
	run_pair "export_$mode" px_add "$B/t_export" "$T" "$T/side" "$mode" || return 1
	pid=$(side pid) child=$(side child) nsnap=$(side snapshots)
	REPORT=$T/r.$pid.json
	[ -f "$REPORT" ] && [ -f "$T/r.$child.json" ] ||
		fail_because "expected the reports r.$pid.json and r.$child.json (fork child), found: $(cd "$T" && ls r.* 2>/dev/null | tr '\n' ' ')" ||
		return 1
	check_expects "$T/t.out" || return 1
	grep -q "^tsctrace: metrics exported to $T/m.prom every 100 ms$" "$T/t.shim" ||
		fail_because "no line saying where metrics go: $(head -3 "$T/t.shim")" || return 1
	[ -f "$T/m.prom" ] || fail_because "no $T/m.prom at exit" || return 1
	# Written while the program ran: at least two different versions seen (~5 expected).
	[ "${nsnap:-0}" -ge 2 ] ||
		fail_because "only ${nsnap:-0} versions of m.prom seen while the program ran (interval 100 ms, ~0.5 s of calls)" ||
		return 1
	# Every sample of every version, then the final file: never below its previous value.
	f=$(awk '
		FNR == 1 { file++ }
		/^#/ { next }
		{ v = $NF; k = $0; sub(/ [^ ]*$/, "", k)
		  if ((k in last) && v + 0 < last[k] + 0) { print FILENAME ": " k " fell from " last[k] " to " v; exit }
		  last[k] = v }' $(ls "$T"/snap.* | sort) "$T/m.prom")
	[ -z "$f" ] || fail_because "$f" || return 1
	# The last write is the report's numbers, in the format the command writes.
	cli=${LIB%/*}/tsctrace
	if [ -x "$cli" ]; then
		"$cli" export --format prometheus "$REPORT" >"$T/cli.prom" 2>"$T/cli.err" &&
			cmp -s "$T/cli.prom" "$T/m.prom" ||
			fail_because "m.prom differs from tsctrace export of the report: $(diff "$T/cli.prom" "$T/m.prom" | head -4; head -2 "$T/cli.err")" ||
			return 1
	fi
	grep -qx "tsctrace_calls_total{function=\"px_add\",program=\"t_export\",hook=\"$(jq -r '.functions[0].hook' "$REPORT")\"} 60500" "$T/m.prom" ||
		fail_because "m.prom does not count the parent's 60500 px_add calls: $(grep '^tsctrace_calls_total' "$T/m.prom")" ||
		return 1
	f=$(cd "$T" && ls -A | grep '\.tmp\.' | head -3)
	[ -z "$f" ] || fail_because "temporary files left: $f" || return 1
	if command -v promtool >/dev/null; then
		promtool check metrics <"$T/m.prom" >"$T/promtool.out" 2>&1 ||
			fail_because "promtool check metrics: $(head -c 300 "$T/promtool.out")" || return 1
	fi
}

test_export_exit() { export_case exit; }
test_export__exit() { export_case _exit; }

# A malformed interval: one line, the default (10 s: no write before the end), the program
# unchanged, the final write still made.
test_export_bad_interval() {
	XENV+=(TSC_EXPORT="m.prom" TSC_EXPORT_INTERVAL=5)
	run_pair export_bad_interval px_add "$B/t_export" "$T" "$T/side" exit || return 1
	grep -qx 'tsctrace: TSC_EXPORT_INTERVAL=5 not understood (a number of s or ms, as 10s or 500ms), using 10s' \
		"$T/t.shim" || fail_because "expected one line about the interval: $(head -3 "$T/t.shim")" ||
		return 1
	[ "$(side snapshots)" = 0 ] ||
		fail_because "$(side snapshots) versions seen while running, expected none before 10 s" ||
		return 1
	grep -q '^tsctrace_calls_total{function="px_add",program="t_export",.*} 60500$' "$T/m.prom" ||
		fail_because "the final m.prom (relative to the start directory) does not count 60500 calls" ||
		return 1
}

# %p in the template: a file per process, each series with a pid label; the fork child
# writes its own file with its own 777 calls, the parent's file is untouched by it.
test_export_per_process() {
	local pid child
	XENV+=(TSC_EXPORT="$T/m.%p.prom" TSC_EXPORT_INTERVAL=100ms)
	run_pair export_per_process px_add "$B/t_export" "$T" "$T/side" exit || return 1
	pid=$(side pid) child=$(side child)
	grep -qx "tsctrace_calls_total{function=\"px_add\",program=\"t_export\",hook=\"[a-z]*\",pid=\"$pid\"} 60500" \
		"$T/m.$pid.prom" ||
		fail_because "m.$pid.prom: not 60500 calls with pid=\"$pid\": $(grep '^tsctrace_calls_total' "$T/m.$pid.prom" 2>&1)" ||
		return 1
	grep -qx "tsctrace_calls_total{function=\"px_add\",program=\"t_export\",hook=\"[a-z]*\",pid=\"$child\"} 777" \
		"$T/m.$child.prom" ||
		fail_because "the fork child's m.$child.prom: not 777 calls with pid=\"$child\": $(grep '^tsctrace_calls_total' "$T/m.$child.prom" 2>&1)" ||
		return 1
	[ "$(cd "$T" && ls m.*.prom | wc -l)" = 2 ] ||
		fail_because "expected two metrics files: $(cd "$T" && ls -A | tr '\n' ' ')"
}

# A fatal signal: the report written by the shim's handler, and the metrics with it.
test_export_fatal() {
	XENV+=(TSC_EXPORT="$T/m.prom")
	WANT_STATUS=143 # 128 + SIGTERM: the untraced run dies of it too
	run_pair export_fatal px_add,px_raise "$B/t_fatal" raise TERM || return 1
	grep -q '^tsctrace_calls_total{function="px_add",program="t_fatal",.*} 1000$' "$T/m.prom" ||
		fail_because "m.prom written at the fatal SIGTERM does not count 1000 px_add calls: $(grep '^tsctrace_calls_total' "$T/m.prom" 2>&1 | head -2)"
}
