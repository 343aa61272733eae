# startup.sh - the start-up rows of run.sh (sourced by it: uses its B, LIB, W, REPS,
# STARTUP_RUNS and its row, kv, median, ratio, le and fail functions).
#
# startup: /bin/true spawned bare and preloaded, alternating (startup.c), with the 10 names
#   of STARTUP_FUNCS (goal <= 0.4 ms added) and with TSC_FUNCS=strlen (goal <= 0.3 ms).
# startup.phase.*: the shim's own account of where that time goes (TSC_DEBUG=startup), the
#   median of each phase over STARTUP_PHASE_RUNS runs of /bin/true with the 10 names;
#   startup.phase_faults: the constructor's page faults in those runs (each phase's in the detail).
# startup.exit, startup.exit.stderr: the report at exit of /bin/true with TSC_FUNCS=strlen
#   (TSC_DEBUG=startup's "at exit" figures, calibrate + report), to a new file and to stderr,
#   goal <= 100 us. startup.exit.called: the report of sh -c 'echo x', whose traced strlen is
#   called, to stderr (its formatting and write; the overhead's check before it is shown).
# startup.floor.*: what no start-up can skip, timed alone: loading a library that does nothing
#   (nothing.c), one CPUID leaf, an mprotect pair, a page fault, an mmap pair, a report to a new
#   file, a system call (floors.c).
# shell loop: `sh` running 50 x { /bin/true; printf x | cat; } (100 programs exec'd, every
#   one of them and the shell preloaded, each writing its report), against the same loop
#   bare; REPS alternating repetitions, goal <= 1.25. startup.loop.nothing,
#   startup.loop.filefloor and startup.loop.devnull: the same loop with a do-nothing library
#   preloaded (the floor), with one that only leaves a file per process (the floor of a report
#   file each), and traced with the reports to /dev/null (the shim without its files), all
#   against bare.

STARTUP_FUNCS=strlen,memcmp,memcpy,memset,strcmp,memchr,strchr,malloc,free,qsort
STARTUP_PHASE_RUNS=${BENCH_STARTUP_PHASE_RUNS:-50}

ms() { awk -v x="$1" 'BEGIN { printf "%.2f", x / 1e6 }'; }

# startup_row ID FUNCS WHAT GOAL_MS
startup_row() {
	local out bm pm added ra
	echo
	echo "startup: /bin/true with LD_PRELOAD and TSC_FUNCS=$2 ($3) against without," \
		"$STARTUP_RUNS alternating runs each, spawn to exit"
	if ! out=$("$B/startup" "$STARTUP_RUNS" "$LIB" "$2" "$W/$1.report.txt" /bin/true \
		2>"$W/$1.err"); then
		fail "startup: $(tail -n 1 "$W/$1.err")"
		return
	fi
	bm=$(kv "$out" bare_median_ns)
	pm=$(kv "$out" pre_median_ns)
	added=$(awk -v p="$pm" -v b="$bm" 'BEGIN { printf "%.2f", (p - b) / 1e6 }')
	ra=$(ratio "$pm" "$bm")
	echo "  median preloaded $(ms "$pm") ms, bare $(ms "$bm") ms ($ra);" \
		"fastest $(ms "$(kv "$out" pre_min_ns)") ms vs $(ms "$(kv "$out" bare_min_ns)") ms"
	echo "  added by the shim (start-up and the report at exit): $added ms" \
		"(goal <= $4 ms: $(le "$added" "$4"))"
	echo "  page faults per run (median): preloaded $(kv "$out" pre_faults), bare $(kv "$out" bare_faults)"
	ls "$W/$1".report*.txt >/dev/null 2>&1 || fail "startup: no report from the preloaded /bin/true"
	rm -f "$W/$1".report*.txt
	row "$1" "startup /bin/true, added ms ($3)" "$added" "<= $4 ms" "$(le "$added" "$4")" \
		"median $(ms "$pm")/$(ms "$bm") ms = $ra, $STARTUP_RUNS runs each; page faults $(kv "$out" pre_faults)/$(kv "$out" bare_faults)"
}

startup_row startup "$STARTUP_FUNCS" "10 names" 0.4
startup_row startup.strlen strlen "strlen" 0.3

# ---- the phases, as the shim measures them -------------------------------------------------
echo
echo "startup phases: TSC_DEBUG=startup, /bin/true with the 10 names, median of" \
	"$STARTUP_PHASE_RUNS runs (us)"
: >"$W/phases.txt"
i=0
while [ "$i" -lt "$STARTUP_PHASE_RUNS" ]; do
	LD_PRELOAD=$LIB TSC_FUNCS=$STARTUP_FUNCS TSC_DEBUG=startup TSC_QUIET=1 \
		TSC_OUTPUT="$W/phases.report.txt" /bin/true 2>>"$W/phases.txt" </dev/null
	rm -f "$W"/phases.report*.txt
	i=$((i + 1))
done
# "tsctrace: start-up us: config 31.7, clock 70.2, ..., constructor 720.5; at exit us: ..."
phases=$(sed -n 's/^tsctrace: start-up us: //p' "$W/phases.txt" | head -n 1 |
	tr ';,' '\n\n' | sed 's/^ *at exit us: //; s/^ *//' | awk '{ print $1 }')
if [ -z "$phases" ]; then
	fail "startup phases: no TSC_DEBUG=startup line ($(head -c 200 "$W/phases.txt"))"
else
	line=""
	for ph in $phases; do
		sed -n 's/^tsctrace: start-up us: //p' "$W/phases.txt" | tr ';,' '\n\n' |
			sed 's/^ *at exit us: //; s/^ *//' | awk -v p="$ph" '$1 == p { print $2 }' \
			>"$W/phase.$ph"
		v=$(median "$W/phase.$ph")
		line="$line $ph $v"
		case $ph in
		constructor) what="start-up total (the shim's constructor)" ;;
		calibrate | report) what="at exit: $ph" ;;
		*) what="start-up phase: $ph" ;;
		esac
		row "startup.phase.$ph" "$what, us (10 names)" "$v" "-" "info" \
			"median of $STARTUP_PHASE_RUNS runs, TSC_DEBUG=startup"
	done
	echo " $line"
	# "tsctrace: start-up page faults: config 0, ..., constructor 43; at exit: calibrate 0, ..."
	line=""
	for ph in $phases; do
		sed -n 's/^tsctrace: start-up page faults: //p' "$W/phases.txt" | tr ';,' '\n\n' |
			sed 's/^ *at exit: //; s/^ *//' | awk -v p="$ph" '$1 == p { print $2 }' \
			>"$W/phase_pf.$ph"
		[ -s "$W/phase_pf.$ph" ] && line="$line $ph $(median "$W/phase_pf.$ph")"
	done
	if [ -s "$W/phase_pf.constructor" ]; then
		echo "  page faults:$line"
		row startup.phase_faults "start-up page faults in the constructor (10 names)" \
			"$(median "$W/phase_pf.constructor")" "-" "info" \
			"median of $STARTUP_PHASE_RUNS runs, TSC_DEBUG=startup; by phase:$line"
	fi
fi

# ---- the exit of a short process: its report, as the shim measures it ------------------------
# /bin/true with TSC_FUNCS=strlen (no call ends: the report's rows are empty): the "at exit"
# figures of TSC_DEBUG=startup, calibrate + report (granularity, naming the CPU, summing,
# formatting, delivery), median of STARTUP_PHASE_RUNS runs, alternating two deliveries: to a
# new file in $W/exit/ (its name has the pid, as the default's does: no file is removed
# between runs) with the "report written to" line on stderr (a file here), and to stderr
# (TSC_OUTPUT=-, a file here: one write, no file made).
exit_once() { # NAME OUTPUT [PROGRAM...]
	local name=$1 out=$2
	shift 2
	[ $# -gt 0 ] || set -- /bin/true
	LD_PRELOAD=$LIB TSC_FUNCS=strlen TSC_DEBUG=startup TSC_OUTPUT=$out "$@" \
		2>>"$W/exit.$name.err" </dev/null
}
# $W/exit.NAME.{calibrate,report,total}: the "at exit" figures of each run's TSC_DEBUG=startup
# line, us. False (and the bench broken) when there is none.
exit_phases() { # NAME
	sed -n 's/^tsctrace: start-up us: .*at exit us: calibrate \([0-9.]*\), report \([0-9.]*\)$/\1 \2/p' \
		"$W/exit.$1.err" >"$W/exit.$1.phases"
	if [ ! -s "$W/exit.$1.phases" ]; then
		fail "startup exit ($1): no TSC_DEBUG=startup line ($(head -c 200 "$W/exit.$1.err"))"
		return 1
	fi
	awk '{ print $1 }' "$W/exit.$1.phases" >"$W/exit.$1.calibrate"
	awk '{ print $2 }' "$W/exit.$1.phases" >"$W/exit.$1.report"
	awk '{ printf "%.1f\n", $1 + $2 }' "$W/exit.$1.phases" >"$W/exit.$1.total"
}
exit_row() { # NAME ID WHAT
	local ec er et
	exit_phases "$1" || return
	ec=$(median "$W/exit.$1.calibrate")
	er=$(median "$W/exit.$1.report")
	et=$(median "$W/exit.$1.total")
	echo "  $3: calibrate $ec us, report $er us; at exit $et us (goal <= 100 us: $(le "$et" 100))"
	row "$2" "startup: the report at exit of /bin/true (strlen), $3, us" "$et" "<= 100 us" \
		"$(le "$et" 100)" "median of $STARTUP_PHASE_RUNS runs, TSC_DEBUG=startup: calibrate $ec + report $er"
}
echo
echo "startup exit: TSC_DEBUG=startup, /bin/true with TSC_FUNCS=strlen, the report to a new" \
	"file and to stderr, $STARTUP_PHASE_RUNS alternating runs each (us)"
rm -rf "$W/exit" "$W"/exit.*
mkdir -p "$W/exit"
i=0
while [ "$i" -lt "$STARTUP_PHASE_RUNS" ]; do
	if [ $((i % 2)) = 0 ]; then
		exit_once file "$W/exit/r.%p.txt"
		exit_once stderr -
		exit_once called - sh -c 'echo x >/dev/null'
	else
		exit_once called - sh -c 'echo x >/dev/null'
		exit_once stderr -
		exit_once file "$W/exit/r.%p.txt"
	fi
	i=$((i + 1))
done
rm -rf "$W/exit"
exit_row file startup.exit "to a new file"
exit_row stderr startup.exit.stderr "to stderr"
# A process whose traced function was called: its report has a row to summarize and format,
# and the overhead's check burst runs first (calibrate, not part of the goal: the report's
# own formatting and write are).
if exit_phases called; then
	ec=$(median "$W/exit.called.calibrate")
	er=$(median "$W/exit.called.report")
	echo "  sh -c 'echo x' (strlen called), to stderr: report $er us (goal <= 100 us: $(le "$er" 100)), after the overhead's check $ec us"
	row startup.exit.called "startup: the report of sh -c 'echo x' (strlen called), to stderr, formatted and written, us" \
		"$er" "<= 100 us" "$(le "$er" 100)" "median of $STARTUP_PHASE_RUNS runs, TSC_DEBUG=startup; before it, the overhead's check: calibrate $ec"
fi

# ---- the floors: what no start-up can skip, timed alone --------------------------------------
echo
echo "startup floors: what the machine charges for the steps a traced start-up and its report" \
	"cannot skip (bench/floors.c, nothing.c), medians"
if out=$("$B/startup" "$STARTUP_RUNS" "$B/libnothing.so" strlen "$W/nothing.report.txt" /bin/true \
	2>"$W/nothing.err"); then
	added=$(awk -v p="$(kv "$out" pre_median_ns)" -v b="$(kv "$out" bare_median_ns)" \
		'BEGIN { printf "%.3f", (p - b) / 1e6 }')
	echo "  a preloaded library that does nothing: +$added ms per /bin/true"
	row startup.floor.nothing "startup floor: a preloaded library that does nothing, added ms" \
		"$added" "-" "info" "$STARTUP_RUNS alternating runs each, spawn to exit"
else
	fail "startup floor (libnothing.so): $(tail -n 1 "$W/nothing.err")"
fi
mkdir -p "$W/floors"
if out=$("$B/floors" "$W/floors" 2>"$W/floors.err"); then
	for f in cpuid mprotect fault touch8 populate8 mmap newfile syscall; do
		[ -n "$(kv "$out" "$f")" ] || continue # populate8: not before Linux 5.14
		case $f in
		cpuid) what="one CPUID leaf (the report names the CPU)" ;;
		mprotect) what="a code page made writable and back (each inline hook's write)" ;;
		fault) what="first touch of a fresh page (each page a start-up uses)" ;;
		touch8) what="first touches of 8 fresh pages" ;;
		populate8) what="the same 8 pages made present by one madvise(MADV_POPULATE_WRITE)" ;;
		mmap) what="an anonymous mapping and its unmapping" ;;
		newfile) what="a 400-byte report to a new file: create, write, close, rename" ;;
		syscall) what="the cheapest system call (getppid)" ;;
		esac
		us=$(awk -v n="$(kv "$out" "$f")" 'BEGIN { printf "%.1f", n / 1000 }')
		echo "  $what: $us us"
		row "startup.floor.$f" "startup floor: $what, us" "$us" "-" "info" "median of 200, bench/floors"
	done
else
	fail "startup floors: $(tail -n 1 "$W/floors.err")"
fi

# ---- a shell loop of short processes -------------------------------------------------------
# Five loops alternate: bare; every program preloaded with a library that does nothing (what
# any LD_PRELOAD tool costs: the loop's floor); with one that only leaves a 400-byte file as
# each process exits, delivered as the shim delivers a report (filefloor.c: the floor of a
# report file per process, whatever the tool); traced with each report to /dev/null (the
# shim's own work, no file); traced with each report to a new file (the row with the goal);
# and the whole loop under `tsctrace run -q -f malloc` (startup.loop.run, goal <= 1.5: the run
# directory, the processes' reports appended to its one file, the merge and merged.json at the
# end, docs/runs.md).
# shellcheck source=shell_loop.sh
. "$HERE/shell_loop.sh"
echo
echo "shell loop: sh -c '50 x { /bin/true; printf x | cat; }' (100 programs), all preloaded" \
	"with TSC_FUNCS=strlen (each writes a report) against bare, $REPS alternating runs"
mkdir -p "$W/loop" "$W/loopfloor" "$W/looprun"
TTCLI=$(dirname "$LIB")/tsctrace
for v in bare nothing filefloor devnull file run; do : >"$W/loop.$v"; done
loop_once() { # bare|nothing|filefloor|devnull|file -> ns
	local t0 t1
	case $1 in
	filefloor) rm -f "$W"/loopfloor/* ;;
	file) rm -f "$W"/loop/* ;;
	run) rm -rf "$W"/looprun/* ;;
	esac
	t0=$(date +%s%N)
	case $1 in
	bare) sh -c "$LOOP" </dev/null || fail "shell loop: bare loop exited $?" ;;
	nothing) LD_PRELOAD=$B/libnothing.so sh -c "$LOOP" </dev/null ||
		fail "shell loop: loop with libnothing.so exited $?" ;;
	filefloor) LD_PRELOAD=$B/libfilefloor.so FLOOR_OUTPUT="$W/loopfloor/r.txt" sh -c "$LOOP" \
		</dev/null || fail "shell loop: loop with libfilefloor.so exited $?" ;;
	devnull) LD_PRELOAD=$LIB TSC_FUNCS=strlen TSC_QUIET=1 TSC_OUTPUT=/dev/null \
		sh -c "$LOOP" </dev/null || fail "shell loop: traced loop (/dev/null) exited $?" ;;
	file) LD_PRELOAD=$LIB TSC_FUNCS=strlen TSC_QUIET=1 TSC_OUTPUT="$W/loop/r.txt" \
		sh -c "$LOOP" </dev/null || fail "shell loop: traced loop exited $?" ;;
	run) (cd "$W/looprun" && exec "$TTCLI" run -q -f malloc -- sh -c "$LOOP") </dev/null \
		2>"$W/looprun.err" || fail "shell loop: tsctrace run of the loop exited $?" ;;
	esac
	t1=$(date +%s%N)
	echo $((t1 - t0))
}
r=0
while [ "$r" -lt "$REPS" ]; do
	if [ $((r % 2)) = 0 ]; then order="bare nothing filefloor devnull file run"
	else order="run file devnull filefloor nothing bare"; fi
	for v in $order; do loop_once "$v" >>"$W/loop.$v"; done
	r=$((r + 1))
done
nrep=$(ls "$W"/loop | wc -l)
nfloor=$(ls "$W"/loopfloor | wc -l)
[ "$nrep" -ge 100 ] || fail "shell loop: $nrep reports from the last traced loop (expected 101 or more)"
lb=$(median "$W/loop.bare")
lp=$(median "$W/loop.file")
ln=$(median "$W/loop.nothing")
lf=$(median "$W/loop.filefloor")
ld=$(median "$W/loop.devnull")
lr=$(ratio "$lp" "$lb")
echo "  median traced $(ms "$lp") ms, bare $(ms "$lb") ms: $lr (goal <= 1.25: $(le "$lr" 1.25));" \
	"$nrep reports per traced loop"
echo "  same loop, a do-nothing library preloaded: $(ms "$ln") ms ($(ratio "$ln" "$lb"));" \
	"traced, reports to /dev/null: $(ms "$ld") ms ($(ratio "$ld" "$lb"))"
echo "  a library that only leaves a 400-byte file per process: $(ms "$lf") ms" \
	"($(ratio "$lf" "$lb")), $nfloor files per loop"
row startup.loop "shell loop of 100 programs, traced/bare" "$lr" "<= 1.25" "$(le "$lr" 1.25)" \
	"median $(ms "$lp")/$(ms "$lb") ms, $REPS runs each, TSC_FUNCS=strlen"
lrun=$(median "$W/loop.run")
nrun=$(cat "$W"/looprun/tsctrace-run.*/reports.json-seq 2>/dev/null | tr -cd '\036' | wc -c)
[ -s "$(ls -d "$W"/looprun/tsctrace-run.* 2>/dev/null | head -n 1)/merged.json" ] ||
	fail "shell loop: tsctrace run left no merged.json ($(head -c 200 "$W/looprun.err"))"
echo "  under tsctrace run -q -f malloc (run directory, merge at the end): $(ms "$lrun") ms" \
	"($(ratio "$lrun" "$lb")), $nrun process reports in its reports.json-seq"
row startup.loop.run "shell loop of 100 programs under tsctrace run -f malloc/bare" \
	"$(ratio "$lrun" "$lb")" "<= 1.5" "$(le "$(ratio "$lrun" "$lb")" 1.5)" \
	"median $(ms "$lrun")/$(ms "$lb") ms, $REPS runs each; $nrun process reports in the run's reports.json-seq"
row startup.loop.nothing "shell loop floor: a do-nothing library preloaded/bare" \
	"$(ratio "$ln" "$lb")" "-" "info" "median $(ms "$ln")/$(ms "$lb") ms, bench/nothing.c"
row startup.loop.filefloor "shell loop floor: a file left by each process (filefloor.c)/bare" \
	"$(ratio "$lf" "$lb")" "-" "info" "median $(ms "$lf")/$(ms "$lb") ms, $nfloor files per loop (traced: $nrep reports)"
row startup.loop.devnull "shell loop, traced, reports to /dev/null/bare" \
	"$(ratio "$ld" "$lb")" "-" "info" "median $(ms "$ld")/$(ms "$lb") ms: the shim without the files"
