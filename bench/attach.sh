# attach.sh - the attach row of run.sh (sourced by it: uses its LIB, W, STARTUP_FUNCS and its
# row, median, le and fail functions).
#
# attach: `tsctrace attach` with 10 names (bench_fn and 9 of STARTUP_FUNCS) to a fresh
#   threads_work running 4 threads that call bench_fn, detached after 0.2 s, ATTACH_RUNS times:
#   the median time its threads were held (ptrace, while the shim is loaded, plus the shim's
#   own stops while the entries are written), as tsctrace prints it. Goal <= 20 ms. Skipped
#   when ptrace is not allowed here (Yama). Beside it the floor of a ptrace hold on the same
#   process once detached: stopfloor's PTRACE_SEIZE + INTERRUPT of its 5 threads and their
#   release, nothing else (what the whole load cost when every thread was held by ptrace).

ATTACH_RUNS=${BENCH_ATTACH_RUNS:-9}
ATTACH_FUNCS=bench_fn,${STARTUP_FUNCS%,qsort}

attach_bench() {
	local cli i pid out held load hook floor
	cli=$(dirname "$LIB")/tsctrace
	echo
	echo "attach: tsctrace attach to threads_work (4 threads calling bench_fn) with 10 names," \
		"detached after 0.2 s, $ATTACH_RUNS runs: time its threads were held"
	if [ ! -x "$cli" ]; then
		echo "  skipped: no $cli"
		return
	fi
	: >"$W/attach.held" && : >"$W/attach.load" && : >"$W/attach.hook" && : >"$W/attach.floor"
	for ((i = 0; i < ATTACH_RUNS; i++)); do
		"$B/threads_work" 4 2000000000 >/dev/null &
		pid=$!
		sleep 0.1
		out=$(TSCTRACE_LIB=$LIB "$cli" attach -f "$ATTACH_FUNCS" --duration 0.2 \
			-o "$W/attach.json" "$pid" 2>&1 >/dev/null)
		"$B/stopfloor" "$pid" >>"$W/attach.floor" 2>/dev/null
		kill "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		if ! held=$(printf '%s\n' "$out" | sed -n 's/.* were held \([0-9.]*\) ms: \([0-9.]*\) ms .*, \([0-9.]*\) ms while.*/\1 \2 \3/p') ||
			[ -z "$held" ]; then
			if printf '%s\n' "$out" | grep -q 'ptrace_scope\|Operation not permitted'; then
				echo "  skipped: $(printf '%s\n' "$out" | head -n 1)"
				return
			fi
			fail "attach: $(printf '%s\n' "$out" | head -n 1)"
			return
		fi
		read -r held load hook <<<"$held"
		echo "$held" >>"$W/attach.held"
		echo "$load" >>"$W/attach.load"
		echo "$hook" >>"$W/attach.hook"
	done
	held=$(median "$W/attach.held")
	floor=$(median "$W/attach.floor")
	echo "  held $held ms (median): loading the shim $(median "$W/attach.load") ms, writing" \
		"the entries $(median "$W/attach.hook") ms (goal <= 20 ms: $(le "$held" 20));" \
		"ptrace hold and release of the same threads, nothing else: $floor ms"
	row attach "attach, threads held ms (10 names)" "$held" "<= 20 ms" "$(le "$held" 20)" \
		"median of $ATTACH_RUNS: load $(median "$W/attach.load") ms, entries $(median "$W/attach.hook") ms; ptrace stop floor $floor ms"
}

attach_bench
