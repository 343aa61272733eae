#!/bin/sh
# run.sh B LIB - run the tsctrace benchmarks built in B against the shim LIB.
#
# percall: cost per call of timing bench_fn (a ~1-cycle function in its own .so, called through
#   the PLT) 2,000,000 times: traced by tsctrace in each TSC_SERIALIZE mode against a reference
#   that brackets the same calls by hand with the same instructions; the peers (a typed
#   LD_PRELOAD wrapper and an LD_AUDIT auditor written here, uftrace, LLVM XRay FDR, ltrace,
#   bpftrace) on the same loop; 2 threads against 1. Every traced run's call count is checked.
# untraced: a CPU-bound program under the shim with TSC_FUNCS naming a function it never
#   calls, against the same program without the shim (goal <= 1.01).
# startup (startup.sh): start-up and exit of /bin/true with the shim and 10 names against
#   without (goal <= 0.4 ms added), with strlen only (<= 0.3 ms), the shim's phases
#   (TSC_DEBUG=startup), and a shell loop of 100 short programs traced/bare (<= 1.25);
#   start-up and exit with every function of libsqlite3 traced, per name (reported).
# accuracy: functions of known duration (tests/prog/spin.c) traced by tsctrace while
#   tests/prog/t_accuracy times the same calls itself; the report's tsc_hz against the kernel's.
# memory: resident bytes per traced function per thread (8 threads x 16 functions; goal <= 8 KiB).
# sampling (sampling.sh): a call TSC_SAMPLE passes over against an untraced one (goal <= 10
#   ticks added); sort of 200,000 lines with memcmp,strlen,malloc,free traced, every call
#   timed, TSC_SAMPLE=16 and TSC_BUDGET=2% against untraced (goal <= 1.03 for the budget); the
#   median and p90 of memcmp under the budget against every call timed (within 3% or a bucket).
# call paths (callpaths.sh): TSC_CALLERS=4 by the cached frame walk and by libunwind alone,
#   CPU ns added per call over TSC_CALLERS=0, on a call 20 frames down and on sqlite3's
#   B-tree stepping (goal <= 300 ns a call there).
# parallel (parallel.sh): sort (two threads) and 4 CPU-bound threads, traced with the default
#   pin, TSC_PIN=none and first, wall and CPU time against untraced (goal: wall within CPU + 0.05).
# field (field.sh): the slowdown of real programs (redis, nginx, python3, sqlite3, make, Go)
#   under tracing, wall and CPU, as the field suite runs them (reported).
# inline coverage (coverage.sh): of every function of libc, libz, libsqlite3 and of three test
#   programs at -O0 and -O2, how many TSC_HOOK=inline traces inline, through GOT slots only or
#   not at all, and why (target 100% traced, >= 99% inline of the functions of 5 bytes or more).
#
# Each figure is the median of BENCH_REPS (default 9, at least 5) repetitions; the variants
# alternate inside a repetition (A B C, then C B A, ...) and each run is its own process. Slow
# peers (ltrace, bpftrace) run in the first BENCH_SLOW_REPS repetitions only (default 5).
# A summary table ends the output; it is also written to bench/results/latest.md and
# latest.json (BENCH_RESULTS=DIR elsewhere). Exit status is non-zero only when something broke
# (a crash of tsctrace or of a benchmark program, a missing report, a wrong call count); a
# missed goal prints `missed`, a peer that cannot run here is `skipped` with the reason.
set -u

B=$1
LIB=$2
HERE=$(cd "$(dirname "$0")" && pwd)
REPS=${BENCH_REPS:-9}
[ "$REPS" -ge 5 ] 2>/dev/null || REPS=5
SLOW_REPS=${BENCH_SLOW_REPS:-5}
[ "$SLOW_REPS" -ge 1 ] 2>/dev/null || SLOW_REPS=5
[ "$SLOW_REPS" -le "$REPS" ] || SLOW_REPS=$REPS
N=2000000
N_CPUID=${BENCH_CPUID_CALLS:-20000}
N_AUDIT=${BENCH_AUDIT_CALLS:-200000}
N_UFTRACE=${BENCH_UFTRACE_CALLS:-200000}
N_XRAY=${BENCH_XRAY_CALLS:-500000}
N_LTRACE=${BENCH_LTRACE_CALLS:-2000}
N_BPF=${BENCH_BPFTRACE_CALLS:-20000}
STARTUP_RUNS=${BENCH_STARTUP_RUNS:-200}
SCALE=${BENCH_UNTRACED_SCALE:-2}
W=$B/work
broken=0

mkdir -p "$W"
rm -rf "${W:?}"/*
: >"$W/rows.tsv"

command -v jq >/dev/null 2>&1 ||
	sh "$HERE/../tests/need-packages.sh" jq || {
	echo "bench: jq is needed to read the JSON reports" >&2
	exit 1
}

fail() {
	echo "bench: BROKEN: $*"
	broken=1
}

# median FILE: the middle value of the numbers in FILE, one per line (upper middle if even).
# shellcheck source=median.sh
. "$HERE/median.sh"

# kv LINE KEY: the value of KEY=value in a key=value output line.
kv() {
	printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1
}

ratio() { # a b -> a/b with two decimals
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "inf" }'
}

# le VALUE LIMIT / ge VALUE LIMIT: "met" or "missed".
le() { awk -v v="$1" -v l="$2" 'BEGIN { print (v <= l) ? "met" : "missed" }'; }
ge() { awk -v v="$1" -v l="$2" 'BEGIN { print (v >= l) ? "met" : "missed" }'; }

# row ID MEASURE VALUE GOAL VERDICT DETAIL: one line of the summary table.
row() {
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" >>"$W/rows.tsv"
}

# ---- what this machine has ------------------------------------------------------------------

# A short traced run tells what the shim sees (clock, rate, granularity, default mode).
probe_json=$W/probe.json
LD_PRELOAD=$LIB TSC_FUNCS=bench_fn TSC_FORMAT=json TSC_OUTPUT=$probe_json TSC_QUIET=1 \
	"$B/percall" plain 1000 >/dev/null 2>"$W/probe.err" ||
	fail "percall under tsctrace exited $? (probe run; $(tail -n 1 "$W/probe.err"))"
if [ ! -s "$probe_json" ]; then
	fail "no report from the probe run: nothing to measure"
	exit 1
fi
CPU=$(jq -r '.clock.cpu' "$probe_json")
TSC_HZ=$(jq -r '.clock.tsc_hz' "$probe_json")
TSC_HZ_SRC=$(jq -r '.clock.tsc_hz_source' "$probe_json")
GRAN=$(jq -r '.clock.granularity' "$probe_json")
CLOCK_SRC=$(jq -r '.clock.source' "$probe_json")
DEFAULT_SER=$(jq -r '.clock.serialize' "$probe_json")
HYPERVISOR=$(jq -r '.clock.hypervisor' "$probe_json")
NCPU=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo "?")
if "$B/percall" reference 1 rdtscp >/dev/null 2>&1; then RDTSCP=yes; else RDTSCP=no; fi
# bench's own default: rdtscp where CPUID announces it, else lfence (as the shim's).
if [ "$RDTSCP" = yes ]; then BDEF=rdtscp; else BDEF=lfence; fi
MHZ=$(awk -v h="$TSC_HZ" 'BEGIN { printf "%.1f", h / 1e6 }')
echo "machine: $CPU, $NCPU CPUs online; TSC $MHZ MHz ($TSC_HZ_SRC), granularity $GRAN ticks," \
	"clock $CLOCK_SRC; rdtscp announced by CPUID: $RDTSCP; hypervisor: $HYPERVISOR;" \
	"tsctrace's default serialization here: $DEFAULT_SER"
echo "repetitions: $REPS (BENCH_REPS), slow peers $SLOW_REPS (BENCH_SLOW_REPS)"
echo

# ticks -> ns with the shim's measured rate
to_ns() { awk -v t="$1" -v h="$TSC_HZ" 'BEGIN { printf "%.1f", t * 1e9 / h }'; }

# ---- percall: variants ----------------------------------------------------------------------
# Each variant runs percall's loop (or percall_xray's) once per repetition and prints
# per_call_ticks: the in-process loop time / calls, so start-up and exit are not in it.

MODES=""
for m in rdtscp lfence mfence none cpuid; do
	if [ "$m" = rdtscp ] && [ "$RDTSCP" = no ]; then
		echo "rdtscp" >"$W/skip.mode.rdtscp"
		continue
	fi
	MODES="$MODES $m"
done

# TSC_HOOK: the tt.<mode> runs use GOT hooks; tt.inline patches bench_fn's entry (default
# serialization). Ask the shim first: without its decoder (libzydis4) nothing is inline.
HOOKS="got"
LD_PRELOAD=$LIB TSC_FUNCS=bench_fn TSC_HOOK=inline TSC_FORMAT=json TSC_OUTPUT=$W/hook.json \
	TSC_QUIET=1 "$B/percall" plain 1000 >/dev/null 2>&1
inline_hook=$(jq -r '.functions[0].hook' "$W/hook.json" 2>/dev/null)
if [ "$inline_hook" = inline ]; then HOOKS="got inline"; fi

VARIANTS="plain"
for m in $MODES; do VARIANTS="$VARIANTS ref.$m tt.$m"; done
case $HOOKS in *inline*) VARIANTS="$VARIANTS tt.inline" ;; esac

# skip NAME REASON: a peer that is not measured, and why.
skip() {
	echo "$2" >"$W/skip.$1"
}

# Peers: which can run here.
VARIANTS="$VARIANTS wrap audit"
if command -v uftrace >/dev/null 2>&1; then VARIANTS="$VARIANTS uftrace"
else skip uftrace "uftrace not installed (apt-get install uftrace)"; fi
if [ -x "$B/percall_xray" ]; then VARIANTS="$VARIANTS xray xrayoff"
else skip xray "no clang -fxray-instrument here (apt-get install clang libclang-rt-dev)"; fi
if command -v ltrace >/dev/null 2>&1; then VARIANTS="$VARIANTS ltrace"
else skip ltrace "ltrace not installed (apt-get install ltrace)"; fi
if ! command -v bpftrace >/dev/null 2>&1; then
	skip bpftrace "bpftrace not installed (apt-get install bpftrace)"
elif [ "$(id -u)" != 0 ]; then
	skip bpftrace "bpftrace needs root (uprobes, BPF maps)"
else VARIANTS="$VARIANTS bpftrace"; fi
VARIANTS="$VARIANTS sc.ref.1 sc.ref.2 sc.tt.1 sc.tt.2"
# Issue 34: tt.<default> keeps the 8 slowest calls (TSC_SLOWEST's default); sl.0 keeps none,
# sl.args files every call by its first argument as well (TSC_ARGS=bench_fn:1).
VARIANTS="$VARIANTS sl.0 sl.args"

calls_of() {
	case $1 in
	*.cpuid) echo "$N_CPUID" ;;
	audit) echo "$N_AUDIT" ;;
	uftrace) echo "$N_UFTRACE" ;;
	xray | xrayoff) echo "$N_XRAY" ;;
	ltrace) echo "$N_LTRACE" ;;
	bpftrace) echo "$N_BPF" ;;
	*) echo "$N" ;;
	esac
}

# drop NAME: stop running a peer that failed (its skip file says why).
drop() {
	VARIANTS=$(printf '%s\n' $VARIANTS | grep -vx "$1" | tr '\n' ' ')
}

# peer_failed NAME RC ERRFILE WHAT
peer_failed() {
	skip "$1" "$4 failed (exit $2): $(grep -v '^$' "$3" 2>/dev/null | tail -n 1 | cut -c1-120)"
	drop "$1"
}

# tt_calls JSON EXPECTED REP: the report's bench_fn calls must be EXPECTED.
tt_calls() {
	c=$(jq '[.functions[] | select(.name == "bench_fn")][0].calls' "$1" 2>/dev/null)
	[ "$c" = "$2" ] || fail "run $3: report $1 says bench_fn calls = ${c:-nothing}, not $2"
}

run_pc() { # rep name
	rep=$1
	v=$2
	n=$(calls_of "$v")
	err=$W/pc.$v.err
	out=""
	case $v in
	plain)
		out=$("$B/percall" plain "$n" 2>"$err") || { fail "percall plain exited $?"; return; } ;;
	ref.*)
		out=$("$B/percall" reference "$n" "${v#ref.}" 2>"$err") ||
			{ fail "percall reference $n ${v#ref.} exited $?"; return; } ;;
	tt.*)
		m=${v#tt.}
		hook=got
		[ "$m" = inline ] && { m=$BDEF; hook=inline; }
		json=$W/pc.$v.$rep.json
		out=$(LD_PRELOAD=$LIB TSC_FUNCS=bench_fn TSC_SERIALIZE=$m TSC_HOOK=$hook \
			TSC_FORMAT=json TSC_OUTPUT=$json TSC_QUIET=1 "$B/percall" plain "$n" 2>"$err") ||
			{ fail "percall under tsctrace ($v) exited $?"; return; }
		tt_calls "$json" "$n" "$rep"
		jq -r '[.functions[] | select(.name == "bench_fn")][0] |
			"\(.raw.min) \(.raw.median) \(.cycles.min) \(.cycles.median)"' "$json" \
			>>"$W/pc.$v.reads"
		;;
	sl.*)
		json=$W/pc.$v.$rep.json
		if [ "$v" = sl.0 ]; then set -- TSC_SLOWEST=0; else set -- TSC_ARGS=bench_fn:1; fi
		out=$(env "$@" LD_PRELOAD=$LIB TSC_FUNCS=bench_fn TSC_FORMAT=json TSC_OUTPUT=$json \
			TSC_QUIET=1 "$B/percall" plain "$n" 2>"$err") ||
			{ fail "percall under tsctrace ($v) exited $?"; return; }
		tt_calls "$json" "$n" "$rep"
		;;
	sc.ref.*)
		out=$("$B/percall" reference "$n" default "${v#sc.ref.}" 2>"$err") ||
			{ fail "percall reference ($v) exited $?"; return; } ;;
	sc.tt.*)
		t=${v#sc.tt.}
		json=$W/pc.$v.$rep.json
		out=$(LD_PRELOAD=$LIB TSC_FUNCS=bench_fn TSC_FORMAT=json TSC_OUTPUT=$json TSC_QUIET=1 \
			"$B/percall" plain "$n" default "$t" 2>"$err") ||
			{ fail "percall under tsctrace ($v) exited $?"; return; }
		tt_calls "$json" $((n * t)) "$rep"
		jq -r '"\(.threads.traced) \(.threads.pinned) \(.threads.migrations)"' "$json" \
			>>"$W/pc.$v.threads"
		;;
	wrap)
		side=$W/pc.wrap.$rep.out
		out=$(BENCH_WRAP_OUT=$side LD_PRELOAD=$B/libwrap_typed.so "$B/percall" plain "$n" \
			2>"$err") || { fail "percall under libwrap_typed.so exited $?"; return; }
		c=$(kv "$(cat "$side" 2>/dev/null)" calls)
		[ "$c" = "$n" ] || fail "run $rep: the typed wrapper counted ${c:-nothing} calls, not $n"
		cat "$side" >>"$W/pc.wrap.reads"
		;;
	audit)
		side=$W/pc.audit.$rep.out
		out=$(BENCH_AUDIT_OUT=$side LD_AUDIT=$B/libaudit_plt.so "$B/percall" plain "$n" \
			2>"$err") || { fail "percall under LD_AUDIT=libaudit_plt.so exited $?"; return; }
		c=$(kv "$(cat "$side" 2>/dev/null)" calls)
		[ "$c" = "$n" ] || fail "run $rep: the auditor counted ${c:-nothing} calls, not $n"
		cat "$side" >>"$W/pc.audit.reads"
		;;
	uftrace)
		d=$W/uftrace.data
		rm -rf "$d"
		out=$(uftrace record --force -d "$d" "$B/percall" plain "$n" 2>"$err")
		rc=$?
		[ "$rc" = 0 ] || { peer_failed uftrace "$rc" "$err" "uftrace record"; return; }
		line=$(uftrace report -d "$d" -f call,total-avg,total-min 2>>"$err" |
			awk '$NF == "bench_fn"')
		# "   0.056 us    0.020 us      200000  bench_fn": avg, min in ns, calls
		set -- $line
		if [ $# -ge 6 ]; then
			c=$5
			awk -v a="$1" -v au="$2" -v m="$3" -v mu="$4" 'function ns(x, u) {
				return u == "ns" ? x : u == "us" ? x * 1e3 : u == "ms" ? x * 1e6 : x * 1e9 }
				BEGIN { printf "%.1f %.1f\n", ns(a, au), ns(m, mu) }' >>"$W/pc.uftrace.reads"
		else c=""; fi
		[ "$c" = "$n" ] || echo "$rep ${c:-nothing}" >>"$W/pc.uftrace.miscount"
		rm -rf "$d"
		;;
	xray)
		rm -f "$W"/xray-*
		out=$(XRAY_OPTIONS="xray_mode=xray-fdr xray_logfile_base=$W/xray-" \
			XRAY_FDR_OPTIONS="func_duration_threshold_us=0:buffer_size=1048576:buffer_max=32" \
			"$B/percall_xray" fdr "$n" 2>"$err")
		rc=$?
		[ "$rc" = 0 ] || { peer_failed xray "$rc" "$err" "percall_xray fdr"; return; }
		grep -q 'Missing rdtscp' "$err" && : >"$W/xray.no_rdtscp"
		if command -v llvm-xray >/dev/null 2>&1; then
			log=$(ls "$W"/xray-* 2>/dev/null | head -n 1)
			c=$(llvm-xray account -instr_map="$B/percall_xray" "$log" 2>/dev/null |
				awk '$NF ~ /xray_fn$/ { print $2 }')
			[ "$c" = "$n" ] || echo "$rep ${c:-nothing}" >>"$W/pc.xray.miscount"
		else
			: >"$W/xray.nocount"
		fi
		rm -f "$W"/xray-*
		;;
	xrayoff)
		out=$("$B/percall_xray" off "$n" 2>"$err")
		rc=$?
		[ "$rc" = 0 ] || { peer_failed xrayoff "$rc" "$err" "percall_xray off"; return; }
		;;
	ltrace)
		lt=$W/ltrace.$rep.txt
		out=$(ltrace -c -e bench_fn -o "$lt" "$B/percall" plain "$n" 2>"$err")
		rc=$?
		[ "$rc" = 0 ] || { peer_failed ltrace "$rc" "$err" "ltrace -c"; return; }
		# "100.00    0.194395          97      2000 bench_fn"
		c=$(awk '$NF == "bench_fn" { print $4 }' "$lt")
		awk '$NF == "bench_fn" { print $3 * 1000 }' "$lt" >>"$W/pc.ltrace.reads"
		[ "$c" = "$n" ] || echo "$rep ${c:-nothing}" >>"$W/pc.ltrace.miscount"
		;;
	bpftrace)
		bo=$W/bpftrace.$rep.txt
		so=$B/libbenchfn.so
		out=$(bpftrace -o "$bo" -e "uprobe:$so:bench_fn { @start[tid] = nsecs; }
			uretprobe:$so:bench_fn /@start[tid]/ {
				\$d = nsecs - @start[tid]; @hist = hist(\$d); @avg = avg(\$d);
				@calls = count(); delete(@start[tid]); }" \
			-c "$B/percall plain $n" 2>"$err")
		rc=$?
		out=$(printf '%s\n' "$out" | grep '^mode=')
		[ "$rc" = 0 ] && [ -n "$out" ] ||
			{ peer_failed bpftrace "$rc" "$err" "bpftrace"; return; }
		c=$(sed -n 's/^@calls: //p' "$bo")
		sed -n 's/^@avg: //p' "$bo" >>"$W/pc.bpftrace.reads"
		[ "$c" = "$n" ] || echo "$rep ${c:-nothing}" >>"$W/pc.bpftrace.miscount"
		;;
	esac
	kv "$out" per_call_ticks >>"$W/pc.$v.ticks"
	kv "$out" per_call_ns >>"$W/pc.$v.ns"
	case $v in
	ref.* | sc.ref.*)
		kv "$out" sample_min >>"$W/pc.$v.smin"
		kv "$out" sample_median >>"$W/pc.$v.smed" ;;
	esac
}

SLOW="ltrace bpftrace"
t_start=$(date +%s)
r=1
while [ "$r" -le "$REPS" ]; do
	order=$VARIANTS
	[ $((r % 2)) = 0 ] && order=$(printf '%s\n' $VARIANTS | sed -n '1!G;h;$p' | tr '\n' ' ')
	for v in $order; do
		case " $SLOW " in *" $v "*) [ "$r" -le "$SLOW_REPS" ] || continue ;; esac
		case " $VARIANTS " in *" $v "*) run_pc "$r" "$v" ;; esac
	done
	r=$((r + 1))
done

# pc NAME: median ticks per call of a variant, or nothing.
pc() { [ -s "$W/pc.$1.ticks" ] && median "$W/pc.$1.ticks"; }
pcns() { [ -s "$W/pc.$1.ns" ] && median "$W/pc.$1.ns"; }
# col FILE K: median of the K-th field of the lines of FILE
col() {
	awk -v k="$2" '{ print $k }' "$1" >"$W/col.tmp"
	median "$W/col.tmp"
}

echo "percall: bench_fn (returns 3x + 1, own .so, through the PLT), $N calls per run" \
	"($N_CPUID in cpuid mode), median of $REPS alternating runs ($(($(date +%s) - t_start)) s)"
if [ -s "$W/pc.tt.$BDEF.1.json" ]; then
	jq -r '"  tsctrace report: clock \(.clock.source), serialize \(.clock.serialize),"
		+ " granularity \(.clock.granularity) ticks, tsc_hz \(.clock.tsc_hz);"
		+ " overhead min \(.overhead.min) median \(.overhead.median)"
		+ " subtracted \(.overhead.subtracted)"' "$W/pc.tt.$BDEF.1.json"
fi
pc_plain=$(pc plain)
[ -n "$pc_plain" ] && printf '  %-44s %9s ticks/call %8s ns/call\n' "untraced loop" "$pc_plain" \
	"$(pcns plain)"
echo "  ticks per call, and what each timer reads for bench_fn (min/median of its samples; for" \
	"tsctrace raw, and cycles after subtracting its overhead)"
printf '  %-8s %10s %-12s %10s %-12s %-10s %10s %10s\n' TSC_SER reference reads tsctrace \
	"raw reads" cycles "tt/ref" "added"
for m in rdtscp lfence mfence none cpuid; do
	if [ -f "$W/skip.mode.$m" ]; then
		printf '  %-8s skipped: CPUID 80000001H:EDX[27] does not announce rdtscp, so neither the\n' "$m"
		echo "           reference nor tsctrace may execute it (tsctrace's rdtscp mode falls back" \
			"to lfence)"
		row "percall.$m" "percall tsctrace/reference, TSC_SERIALIZE=$m" skipped "<= 1.10" \
			skipped "CPUID does not announce rdtscp"
		continue
	fi
	ref=$(pc "ref.$m")
	tt=$(pc "tt.$m")
	[ -n "$ref" ] && [ -n "$tt" ] || continue
	rd=$(col "$W/pc.tt.$m.reads" 1)/$(col "$W/pc.tt.$m.reads" 2)
	cy=$(col "$W/pc.tt.$m.reads" 3)/$(col "$W/pc.tt.$m.reads" 4)
	ra=$(ratio "$tt" "$ref")
	add=$(ratio "$(awk -v a="$tt" -v u="$pc_plain" 'BEGIN { print a - u }')" \
		"$(awk -v b="$ref" -v u="$pc_plain" 'BEGIN { print b - u }')")
	printf '  %-8s %10s %-12s %10s %-12s %-10s %10s %10s\n' "$m" "$ref" \
		"$(median "$W/pc.ref.$m.smin")/$(median "$W/pc.ref.$m.smed")" "$tt" "$rd" "$cy" \
		"$ra" "$add"
	note=""
	[ "$m" = "$BDEF" ] && note=" (default here)"
	# Without serialization the bracket is ~45 ticks, so the same absolute cost of the
	# trampoline's structure is a larger share: its goal is 1.15 (issue 17's table).
	goal=1.10
	[ "$m" = none ] && goal=1.15
	row "percall.$m" "percall tsctrace/reference, TSC_SERIALIZE=$m$note" "$ra" "<= $goal" \
		"$(le "$ra" $goal)" "$tt/$ref ticks per call; tsctrace reads bench_fn as raw $rd, cycles $cy"
	if [ "$m" = "$BDEF" ]; then
		row "percall.added" "percall added cost tsctrace/reference ($m)" "$add" "-" "-" \
			"$(awk -v a="$tt" -v b="$ref" -v u="$pc_plain" \
				'BEGIN { printf "%.2f/%.2f", a - u, b - u }') ticks above the untraced loop"
	fi
done
echo "  (added: the same ratio with the untraced loop's $pc_plain ticks taken off both; every" \
	"traced run's report counted exactly the calls made)"
for h in inline; do
	case $HOOKS in
	*"$h"*)
		tt=$(pc "tt.$h")
		ref=$(pc "ref.$BDEF")
		got=$(pc "tt.$BDEF")
		ra=$(ratio "$tt" "$ref")
		rg=$(ratio "$tt" "$got")
		printf '  TSC_HOOK=%s: %s ticks/call, tsctrace/reference = %s, inline/got = %s; reads %s raw, %s cycles\n' \
			"$h" "$tt" "$ra" "$rg" "$(col "$W/pc.tt.$h.reads" 1)/$(col "$W/pc.tt.$h.reads" 2)" \
			"$(col "$W/pc.tt.$h.reads" 3)/$(col "$W/pc.tt.$h.reads" 4)"
		row "percall.hook.$h" "percall tsctrace/reference, TSC_HOOK=$h ($BDEF)" "$ra" \
			"<= 1.10" "$(le "$ra" 1.10)" "$tt/$ref ticks per call"
		row "percall.inline_vs_got" "percall TSC_HOOK=inline / TSC_HOOK=got ($BDEF)" "$rg" \
			"<= 1.10" "$(le "$rg" 1.10)" "$tt/$got ticks per call" ;;
	*)
		echo "  TSC_HOOK=$h: bench_fn was not hooked inline (the report says hook" \
			"\"${inline_hook:-?}\"; is libzydis4 installed?): skipped"
		row "percall.hook.$h" "percall tsctrace/reference, TSC_HOOK=$h" skipped "<= 1.10" \
			skipped "bench_fn not hooked inline (hook \"${inline_hook:-?}\")" ;;
	esac
done

# Issue 34: what keeping the slowest calls and filing calls by argument cost a call.
s8=$(pc "tt.$BDEF")
s0=$(pc sl.0)
sa=$(pc sl.args)
if [ -n "$s8" ] && [ -n "$s0" ] && [ -n "$sa" ]; then
	d=$(awk -v a="$s8" -v b="$s0" 'BEGIN { printf "%.2f", a - b }')
	printf '  TSC_SLOWEST=8 (default) %s ticks/call, TSC_SLOWEST=0 %s: %s ticks more; TSC_ARGS=bench_fn:1 %s (%s x)\n' \
		"$s8" "$s0" "$d" "$sa" "$(ratio "$sa" "$s8")"
	row "percall.slowest" "percall TSC_SLOWEST=8 minus TSC_SLOWEST=0 ($BDEF), ticks" "$d" \
		"<= 1" "$(le "$d" 1)" "$s8/$s0 ticks per call"
	row "percall.args" "percall TSC_ARGS=bench_fn:1 / TSC_SLOWEST=8 ($BDEF)" \
		"$(ratio "$sa" "$s8")" "-" "-" "$sa/$s8 ticks per call: every call ends in C"
fi

# ---- peers ----------------------------------------------------------------------------------
tt_def=$(pc "tt.$BDEF")
ref_def=$(pc "ref.$BDEF")
echo
echo "peers: the same loop under each tool; per call ticks (loop time / calls, median of the" \
	"runs), ratio to tsctrace ($tt_def ticks, TSC_SERIALIZE=$BDEF) and to the reference ($ref_def)"
printf '  %-36s %8s %11s %12s %12s  %s\n' tool calls ticks/call "÷tsctrace" "÷reference" \
	"its own reading of bench_fn"

# peer NAME LABEL GOAL_OP GOAL READING
peer() {
	p=$1
	if [ -f "$W/skip.$p" ]; then
		printf '  %-36s skipped: %s\n' "$2" "$(cat "$W/skip.$p")"
		row "peer.$p" "peer $2 ÷ tsctrace" skipped "${4:+$3 $4}" skipped "$(cat "$W/skip.$p")"
		return
	fi
	t=$(pc "$p")
	[ -n "$t" ] || return
	ra=$(ratio "$t" "$tt_def")
	rr=$(ratio "$t" "$ref_def")
	printf '  %-36s %8s %11s %12s %12s  %s\n' "$2" "$(calls_of "$p")" "$t" "$ra" "$rr" "$5"
	verdict="-"
	goal="-"
	if [ -n "$4" ]; then
		goal="$3 $4"
		[ "$3" = ">=" ] && verdict=$(ge "$ra" "$4")
	fi
	det="$t/$tt_def ticks per call ($(calls_of "$p") calls; ÷reference $rr); its own reading of bench_fn: $5"
	if [ -s "$W/pc.$p.miscount" ]; then
		mc=$(awk '{ printf "%s%s", (NR > 1 ? ", " : ""), $2 }' "$W/pc.$p.miscount")
		echo "    WRONG COUNT: the tool recorded $mc calls instead of $(calls_of "$p")" \
			"in some runs (a limit of the tool, not a tsctrace failure)"
		det="$det; the tool recorded $mc calls instead of $(calls_of "$p")"
	fi
	row "peer.$p" "peer $2 ÷ tsctrace" "$ra" "$goal" "$verdict" "$det"
}

r_wrap="-"
[ -s "$W/pc.wrap.reads" ] && r_wrap="min $(col "$W/pc.wrap.reads" 2 | sed 's/min=//') median $(col "$W/pc.wrap.reads" 3 | sed 's/median=//') ticks (nothing subtracted)"
peer wrap "typed LD_PRELOAD wrapper (dlsym)" "" "" "$r_wrap"
r_audit="-"
[ -s "$W/pc.audit.reads" ] && r_audit="min $(col "$W/pc.audit.reads" 2 | sed 's/min=//') median $(col "$W/pc.audit.reads" 3 | sed 's/median=//') ticks (nothing subtracted)"
peer audit "LD_AUDIT la_pltenter/la_pltexit" ">=" 7.5 "$r_audit"
r_uf="-"
[ -s "$W/pc.uftrace.reads" ] && r_uf="avg $(col "$W/pc.uftrace.reads" 1) ns, min $(col "$W/pc.uftrace.reads" 2) ns (uftrace report)"
peer uftrace "uftrace record (PLT hooks)" ">=" 2.2 "$r_uf"
r_x="- (its log holds one record per entry and exit; count checked with llvm-xray account)"
[ -f "$W/xray.nocount" ] && r_x="- (count not checked: llvm-xray missing, apt-get install llvm)"
[ -f "$W/xray.no_rdtscp" ] && r_x="$r_x; XRay takes its timestamps from clock_gettime here: it wants rdtscp, which CPUID does not announce"
peer xray "LLVM XRay FDR (same-executable loop)" ">=" 2.0 "$r_x"
if [ ! -f "$W/skip.xray" ] && [ -n "$(pc xrayoff)" ]; then
	printf '  %-36s %8s %11s   (sleds unpatched: the direct call with XRay built in, not traced)\n' \
		"  XRay binary, not patched" "$N_XRAY" "$(pc xrayoff)"
fi
r_lt="-"
[ -s "$W/pc.ltrace.reads" ] && r_lt="$(median "$W/pc.ltrace.reads") ns per call (ltrace -c usecs/call)"
peer ltrace "ltrace -c" "" "" "$r_lt"
r_bpf="-"
[ -s "$W/pc.bpftrace.reads" ] && r_bpf="avg $(median "$W/pc.bpftrace.reads") ns (nsecs between uprobe and uretprobe)"
peer bpftrace "bpftrace uprobe + uretprobe" "" "" "$r_bpf"
echo "  (tsctrace reads bench_fn as cycles $(col "$W/pc.tt.$BDEF.reads" 4) after subtracting its" \
	"calibrated overhead; raw $(col "$W/pc.tt.$BDEF.reads" 2) ticks)"

# ---- scaling --------------------------------------------------------------------------------
echo
s1=$(pc sc.tt.1)
s2=$(pc sc.tt.2)
r1=$(pc sc.ref.1)
r2=$(pc sc.ref.2)
if [ -n "$s1" ] && [ -n "$s2" ]; then
	ra=$(ratio "$s2" "$s1")
	rr=$(ratio "$r2" "$r1")
	echo "scaling: the loop in 1 and in 2 threads at once (each pinned to its own CPU," \
		"$N calls each), mean per-call ticks of the threads, median of $REPS runs"
	printf '  %-30s %10s %10s %8s\n' "" "1 thread" "2 threads" "2T/1T"
	printf '  %-30s %10s %10s %8s\n' "tsctrace" "$s1" "$s2" "$ra"
	printf '  %-30s %10s %10s %8s\n' "reference ($BDEF bracket)" "$r1" "$r2" "$rr"
	echo "  tsctrace threads traced/pinned/migrations in the 2-thread runs:" \
		"$(sort "$W/pc.sc.tt.2.threads" | uniq -c | awk '{ printf "%s%s x%s", (NR > 1 ? ", " : ""), $2 "/" $3 "/" $4, $1 }')"
	row scaling "scaling tsctrace 2 threads/1 thread" "$ra" "<= 1.10" "$(le "$ra" 1.10)" \
		"$s2/$s1 ticks per call; the reference's own 2T/1T: $rr (the machine's share of it)"
fi

# ---- untraced -------------------------------------------------------------------------------

run_untraced() { # rep variant
	t=$(date +%s%N)
	case $2 in
	bare)
		out=$("$B/untraced" "$SCALE") || { fail "untraced exited $?"; return; }
		t_end=$(date +%s%N) ;;
	preloaded)
		json=$W/untraced.$1.json
		out=$(LD_PRELOAD=$LIB TSC_FUNCS=bench_never_called TSC_FORMAT=json \
			TSC_OUTPUT=$json TSC_QUIET=1 "$B/untraced" "$SCALE") ||
			{ fail "untraced under tsctrace exited $?"; return; }
		t_end=$(date +%s%N)
		calls=$(jq '[.functions[] | select(.name == "bench_never_called")][0].calls' \
			"$json" 2>/dev/null)
		[ "$calls" = 0 ] ||
			fail "run $1: report $json says bench_never_called calls = ${calls:-nothing}, not 0"
		;;
	esac
	echo $((t_end - t)) >>"$W/untraced.$2.wall"
	kv "$out" loop_ns >>"$W/untraced.$2.loop"
	for ph in fn sort str; do
		kv "$out" ${ph}_ns >>"$W/untraced.$2.$ph"
	done
	kv "$out" checksum >>"$W/untraced.$2.sum"
}

r=1
while [ "$r" -le "$REPS" ]; do
	if [ $((r % 2)) = 1 ]; then order="bare preloaded"; else order="preloaded bare"; fi
	for v in $order; do
		run_untraced "$r" "$v"
	done
	r=$((r + 1))
done

echo
echo "untraced: CPU-bound program (bench_fn via PLT, qsort, strlen/memcmp; scale $SCALE)," \
	"TSC_FUNCS=bench_never_called vs no LD_PRELOAD, median of $REPS alternating runs"
if [ -s "$W/untraced.bare.loop" ] && [ -s "$W/untraced.preloaded.loop" ]; then
	[ "$(sort -u "$W/untraced.bare.sum" "$W/untraced.preloaded.sum" | wc -l)" = 1 ] ||
		fail "untraced: checksums differ between runs"
	for what in loop wall; do
		bare=$(median "$W/untraced.bare.$what")
		pre=$(median "$W/untraced.preloaded.$what")
		bare_min=$(sort -n "$W/untraced.bare.$what" | head -n 1)
		pre_min=$(sort -n "$W/untraced.preloaded.$what" | head -n 1)
		ra=$(ratio "$pre" "$bare")
		case $what in
		loop) label="work (in-process CLOCK_MONOTONIC)" ;;
		wall) label="whole process (exec to exit)" ;;
		esac
		echo "  $label: median preloaded $((pre / 1000)) us, bare $((bare / 1000)) us;" \
			"fastest run $((pre_min / 1000)) us vs $((bare_min / 1000)) us" \
			"($(ratio "$pre_min" "$bare_min"))"
		if [ "$what" = loop ]; then
			printf '  phases, median preloaded/bare:'
			for ph in fn sort str; do
				printf ' %s %s' "$ph" "$(ratio "$(median "$W/untraced.preloaded.$ph")" \
					"$(median "$W/untraced.bare.$ph")")"
			done
			echo " (fn: bench_fn calls, sort: qsort, str: strlen/memcmp)"
		fi
		echo "  untraced $what preloaded/bare = $ra (goal <= 1.01: $(le "$ra" 1.01))"
		row "untraced.$what" "untraced $what preloaded/bare" "$ra" "<= 1.01" "$(le "$ra" 1.01)" \
			"median $((pre / 1000))/$((bare / 1000)) us; fastest runs $(ratio "$pre_min" "$bare_min")"
	done
fi

# ---- start-up -------------------------------------------------------------------------------
# shellcheck source=startup.sh
. "$HERE/startup.sh"

# ---- attach to a running process ------------------------------------------------------------
# shellcheck source=attach.sh
. "$HERE/attach.sh"

# ---- start-up with a whole library traced ---------------------------------------------------
# covload_sqlite3 (built by `make cov` when libsqlite3-0 is installed) with the argument
# `start` does nothing: what is added is the shim's start-up and its report at exit, with one
# name against every function of libsqlite3 (libsqlite3.so.0:*). Per name: the difference over
# the extra names. The foreign-jump answers are kept between runs (the first run fills them).
WHOLE_RUNS=${BENCH_WHOLE_RUNS:-20}
sq=$B/cov/covload_sqlite3
echo
if [ -x "$sq" ]; then
	sqlib=$(ldd "$sq" | awk '/libsqlite3/ { print $3 }')
	nsq=$(nm -D --defined-only "$sqlib" | awk '$2 == "T" || $2 == "i"' | wc -l)
	echo "startup with a whole library: covload_sqlite3 start, TSC_FUNCS=sqlite3_libversion" \
		"against libsqlite3.so.0:* ($nsq exported functions), $WHOLE_RUNS alternating runs each"
	export XDG_CACHE_HOME=$W/cache
	o1=$("$B/startup" "$WHOLE_RUNS" "$LIB" sqlite3_libversion "$W/whole1.txt" "$sq" start \
		2>"$W/whole.err") &&
		oa=$("$B/startup" "$WHOLE_RUNS" "$LIB" 'libsqlite3.so.0:*' "$W/whole.txt" "$sq" start \
			2>>"$W/whole.err") || fail "startup with a whole library: $(tail -n 1 "$W/whole.err")"
	unset XDG_CACHE_HOME
	if [ -n "${oa:-}" ]; then
		a1=$(kv "$o1" added_median_ns)
		aa=$(kv "$oa" added_median_ns)
		per=$(awk -v a="$aa" -v b="$a1" -v n="$nsq" 'BEGIN { printf "%.1f", (a - b) / (n - 1) / 1e3 }')
		echo "  added: $(awk -v x="$a1" 'BEGIN { printf "%.2f", x / 1e6 }') ms with one name," \
			"$(awk -v x="$aa" 'BEGIN { printf "%.2f", x / 1e6 }') ms with $nsq: $per us per" \
			"name (resolution, planning and patching inline, its report entry at exit)"
		row startup.per_name "startup + exit per traced name, us (whole libsqlite3)" "$per" \
			"reported" "-" "added $((a1 / 1000000)) ms (1 name) vs $((aa / 1000000)) ms ($nsq names), median of $WHOLE_RUNS"
	fi
else
	echo "startup with a whole library: skipped ($(cat "$sq.why" 2>/dev/null || echo "covload_sqlite3 not built"))"
fi

# ---- accuracy -------------------------------------------------------------------------------

ACC_FUNCS="spin_1k spin_10k spin_100k"

# acc_jq JSON PROGRAM: PROGRAM on the report, with fn($n) as in tests/prog/run.sh.
acc_jq() {
	jq -r "def fn(\$n): first(.functions[] | select(.name | split(\"|\") | any(. == \$n))) // null;
		$2" "$1" 2>/dev/null
}

run_accuracy() { # rep
	json=$W/accuracy.$1.json
	side=$W/accuracy.$1.side
	# TSC_CLOCK=tsc: the reference is in TSC ticks, also where auto would choose nanoseconds.
	out=$(LD_PRELOAD=$LIB TSC_FUNCS=spin_1k,spin_10k,spin_100k,spin_empty TSC_FORMAT=json \
		TSC_OUTPUT=$json TSC_QUIET=1 TSC_CLOCK=tsc "$B/t_accuracy" "$side") ||
		{ fail "t_accuracy under tsctrace exited $?"; return; }
	[ -s "$json" ] || { fail "run $1: no report $json"; return; }
	# Calls exact: t_accuracy prints `expect FUNCTION CALLS` lines.
	while read -r kind f n; do
		[ "$kind" = expect ] || continue
		calls=$(acc_jq "$json" "fn(\"$f\").calls")
		[ "$calls" = "$n" ] ||
			fail "run $1: report $json says $f calls = ${calls:-nothing}, not $n"
	done <<-END
	$out
	END
	g=$(acc_jq "$json" '.clock.granularity')
	echo "$g" >>"$W/acc.granularity"
	acc_jq "$json" '.clock.tsc_hz' >>"$W/acc.tsc_hz"
	acc_jq "$json" '.clock.tsc_hz_source' >"$W/acc.tsc_hz_source"
	acc_jq "$json" '.clock.source' >"$W/acc.clock_source"
	for f in $ACC_FUNCS; do
		ref=$(awk -v k="ref_$f" '$1 == k { print $2 }' "$side")
		shim=$(acc_jq "$json" "fn(\"$f\").cycles.median")
		if [ -z "$ref" ] || [ -z "$shim" ] || [ "$shim" = null ]; then
			fail "run $1: $f: reference '$ref' or report median '$shim' missing"
			continue
		fi
		echo "$ref" >>"$W/acc.$f.ref"
		echo "$shim" >>"$W/acc.$f.shim"
		awk -v r="$ref" -v s="$shim" -v g="$g" 'BEGIN { b = 10; if (0.02 * r > b) b = 0.02 * r;
			if (2 * g > b) b = 2 * g; d = s - r; if (d < 0) d = -d; exit !(d <= b) }' &&
			echo "$1" >>"$W/acc.$f.within"
	done
	acc_jq "$json" 'fn("spin_empty").cycles.min' >>"$W/acc.empty.min"
	acc_jq "$json" 'fn("spin_empty").cycles.median' >>"$W/acc.empty.median"
}

# kernel_tsc: "HZ SOURCE..." of the kernel's TSC frequency, or nothing.
kernel_tsc() {
	kt_khz=$(cat /sys/devices/system/cpu/cpu0/tsc_freq_khz 2>/dev/null)
	if [ -n "$kt_khz" ] && [ "$kt_khz" -gt 0 ] 2>/dev/null; then
		echo "$((kt_khz * 1000)) /sys/devices/system/cpu/cpu0/tsc_freq_khz"
		return
	fi
	kt_log=$(dmesg 2>/dev/null | grep 'tsc: ')
	[ -n "$kt_log" ] || kt_log=$(journalctl -k -b -q --no-pager 2>/dev/null | grep 'tsc: ')
	mhz=$(printf '%s\n' "$kt_log" |
		sed -n 's/.*tsc: Refined TSC clocksource calibration: \([0-9.]*\) MHz.*/\1/p' | tail -n 1)
	if [ -n "$mhz" ]; then
		echo "$(awk -v m="$mhz" 'BEGIN { printf "%.0f", m * 1e6 }') kernel log" \
			"'tsc: Refined TSC clocksource calibration: $mhz MHz'"
		return
	fi
	mhz=$(printf '%s\n' "$kt_log" | sed -n 's/.*tsc: Detected \([0-9.]*\) MHz.*/\1/p' | tail -n 1)
	[ -n "$mhz" ] &&
		echo "$(awk -v m="$mhz" 'BEGIN { printf "%.0f", m * 1e6 }') kernel log 'tsc: Detected $mhz MHz'"
}

r=1
while [ "$r" -le "$REPS" ]; do
	run_accuracy "$r"
	r=$((r + 1))
done

echo
echo "accuracy: tests/prog/spin.c functions of known duration traced by tsctrace while" \
	"t_accuracy times the same calls itself (reference), median of $REPS runs"
if [ -s "$W/acc.granularity" ]; then
	g=$(median "$W/acc.granularity")
	echo "  clock $(cat "$W/acc.clock_source"), granularity $g ticks;" \
		"bound: max(10 ticks, 2% of the reference, 2 x granularity)"
	printf '  %-10s %10s %10s %8s %8s %6s %6s  %s\n' function reference tsctrace "error" \
		"error%" bound runs verdict
	for f in $ACC_FUNCS; do
		[ -s "$W/acc.$f.ref" ] || continue
		ref=$(median "$W/acc.$f.ref")
		shim=$(median "$W/acc.$f.shim")
		within=0
		[ -f "$W/acc.$f.within" ] && within=$(wc -l <"$W/acc.$f.within")
		nruns=$(wc -l <"$W/acc.$f.ref")
		line=$(awk -v f="$f" -v r="$ref" -v s="$shim" -v g="$g" -v w="$within" -v n="$nruns" '
			BEGIN { b = 10; if (0.02 * r > b) b = 0.02 * r; if (2 * g > b) b = 2 * g
				d = s - r; a = d < 0 ? -d : d
				printf "%-10s %10d %10d %+8d %+7.2f%% %6d %6s  %s", f, r, s, d,
					(r > 0 ? 100 * d / r : 0), b, (w "/" n), (a <= b ? "PASS" : "FAIL") }')
		echo "  $line"
		set -- $line
		v=met
		[ "$8" = PASS ] || v=missed
		row "accuracy.$f" "accuracy $f tsctrace/reference" "$(ratio "$shim" "$ref")" \
			"abs(error) <= $6" "$v" "median $shim vs $ref ticks, error $4 ($5), $7 runs within"
	done
	if [ -s "$W/acc.empty.min" ]; then
		emin=$(median "$W/acc.empty.min")
		emed=$(median "$W/acc.empty.median")
		line=$(awk -v mn="$emin" -v md="$emed" -v g="$g" 'BEGIN {
			lm = g > 4 ? g : 4; lmd = 2 * g + 4
			printf "spin_empty cycles min %d (<= %d) median %d (<= %d): %s", mn, lm, md, lmd,
				(mn <= lm && md <= lmd) ? "PASS" : "FAIL" }')
		echo "  $line"
		lm=$(awk -v g="$g" 'BEGIN { print (g > 4 ? g : 4) }')
		v=met
		[ "${line##*: }" = PASS ] || v=missed
		row accuracy.spin_empty "accuracy spin_empty cycles median" "$emed" \
			"min <= $lm, median <= $((2 * g + 4))" "$v" "min $emin, median $emed cycles"
	fi
	hz=$(median "$W/acc.tsc_hz")
	hz_lo=$(sort -g "$W/acc.tsc_hz" | head -n 1)
	hz_hi=$(sort -g "$W/acc.tsc_hz" | tail -n 1)
	kt=$(kernel_tsc)
	echo "  report tsc_hz over the runs: median $hz, range $hz_lo..$hz_hi Hz"
	if [ -n "$kt" ]; then
		line=$(awk -v h="$hz" -v k="${kt%% *}" -v src="${kt#* }" -v hs="$(cat "$W/acc.tsc_hz_source")" '
			BEGIN { d = 100 * (h - k) / k; a = d < 0 ? -d : d
				printf "tsc_hz %.0f Hz (%s) vs kernel %.0f Hz (%s): %+.4f%% (within 0.1%%: %s)",
					h, hs, k, src, d, a <= 0.1 ? "yes" : "no" }')
		echo "  accuracy $line"
		kra=$(awk -v h="$hz" -v k="${kt%% *}" 'BEGIN { printf "%.6f", h / k }')
		case $line in *"yes)") v=met ;; *) v=missed ;; esac
		row accuracy.tsc_hz "accuracy tsc_hz report/kernel" "$kra" "within 0.1%" "$v" \
			"${line%% (within*}"
	else
		echo "  accuracy tsc_hz $hz Hz ($(cat "$W/acc.tsc_hz_source")): kernel TSC frequency not available"
		row accuracy.tsc_hz "accuracy tsc_hz report/kernel" skipped "within 0.1%" skipped \
			"kernel TSC frequency not available; report says $hz Hz"
	fi
fi

# ---- memory ---------------------------------------------------------------------------------
MEM_THREADS=8
MEM_CALLS=1000
MEM_FUNCS=$(seq 0 15 | sed 's/^/mem_fn/' | tr '\n' ',' | sed 's/,$//')

run_mem() { # rep variant
	json=$W/mem.$2.$1.json
	case $2 in
	traced) funcs=$MEM_FUNCS ;;
	idle) funcs=mem_never_called ;;
	esac
	out=$(LD_PRELOAD=$LIB TSC_FUNCS=$funcs TSC_FORMAT=json TSC_OUTPUT=$json TSC_QUIET=1 \
		"$B/memrss" "$MEM_THREADS" "$MEM_CALLS" 2>"$W/mem.err") ||
		{ fail "memrss under tsctrace ($2) exited $?"; return; }
	kv "$out" rss_kb >>"$W/mem.$2.kb"
	kv "$out" source >"$W/mem.source"
	if [ "$2" = traced ]; then
		bad=$(jq -r --argjson n $((MEM_THREADS * MEM_CALLS)) '[.functions[] |
			select((.name | startswith("mem_fn")) and .calls != $n) | .name] | join(",")' "$json")
		nf=$(jq '[.functions[] | select(.name | startswith("mem_fn"))] | length' "$json")
		[ -z "$bad" ] && [ "$nf" = 16 ] ||
			fail "run $1: memrss report $json: wrong calls for ${bad:-some of the 16 functions}"
	fi
}

r=1
while [ "$r" -le "$REPS" ]; do
	if [ $((r % 2)) = 1 ]; then order="idle traced"; else order="traced idle"; fi
	for v in $order; do
		run_mem "$r" "$v"
	done
	r=$((r + 1))
done

echo
echo "memory: $MEM_THREADS threads each calling 16 traced functions $MEM_CALLS times, resident" \
	"set ($(cat "$W/mem.source" 2>/dev/null)) while they all live; TSC_FUNCS=the 16 vs" \
	"TSC_FUNCS=mem_never_called (shim loaded, nothing that runs traced), median of $REPS runs"
if [ -s "$W/mem.traced.kb" ] && [ -s "$W/mem.idle.kb" ]; then
	mt=$(median "$W/mem.traced.kb")
	mi=$(median "$W/mem.idle.kb")
	per=$(awk -v t="$mt" -v i="$mi" -v n=$((MEM_THREADS * 16)) \
		'BEGIN { printf "%.1f", (t - i) / n }')
	echo "  traced $mt kB, nothing traced $mi kB: +$((mt - mi)) kB for $MEM_THREADS x 16 =" \
		"$per KiB per traced function per thread (goal <= 8 KiB: $(le "$per" 8))"
	row memory "memory per traced function per thread, KiB" "$per" "<= 8 KiB" "$(le "$per" 8)" \
		"RSS $mt vs $mi kB: +$((mt - mi)) kB over $MEM_THREADS threads x 16 functions"
fi

# ---- sampling -------------------------------------------------------------------------------
# Its own script (TSC_SAMPLE, TSC_BUDGET: a counted call, sort, memcmp's percentiles).
echo
SAMP_ROWS=$W/rows.tsv sh "$HERE/sampling.sh" "$B" "$LIB" ||
	fail "sampling: a traced run broke (see its BROKEN lines)"

# ---- call paths -----------------------------------------------------------------------------
# Its own script: TSC_CALLERS=4 per call, cached frame walk and libunwind, on a deep stack and
# on sqlite3.
echo
CP_ROWS=$W/rows.tsv sh "$HERE/callpaths.sh" "$B" "$LIB" ||
	fail "call paths: a traced run broke (see its BROKEN lines)"

# ---- parallel programs ----------------------------------------------------------------------
# Its own script: sort and 4 CPU-bound threads, default pin against TSC_PIN=none.
echo
PAR_ROWS=$W/rows.tsv sh "$HERE/parallel.sh" "$B" "$LIB" ||
	fail "parallel: a traced run broke (see its BROKEN lines)"

# ---- real programs -------------------------------------------------------------------------
# The field suite's workloads, traced/untraced (bench/field.sh; the checks are check-field's).
echo
FIELD_ROWS=$W/rows.tsv sh "$HERE/field.sh" "$B" "$LIB"

# ---- inline coverage ------------------------------------------------------------------------
# Its own script, so that it can be run alone after each change to the inline hooks.
echo
COV_ROWS=$W/rows.tsv COV_MD=$W/coverage.md sh "$HERE/coverage.sh" "$B" "$LIB" ||
	fail "inline coverage: a traced run broke (see its BROKEN lines)"

# ---- summary --------------------------------------------------------------------------------

COMMIT=$(git -C "$HERE" rev-parse --short HEAD 2>/dev/null)
[ -n "$COMMIT" ] && [ -n "$(git -C "$HERE" status --porcelain -- ../src 2>/dev/null)" ] &&
	COMMIT="$COMMIT + uncommitted changes in src/"
DATE=$(date -u '+%Y-%m-%d %H:%M:%S UTC')
MACHINE="$CPU, $NCPU CPUs online, TSC $MHZ MHz ($TSC_HZ_SRC), granularity $GRAN ticks, rdtscp announced: $RDTSCP, hypervisor: $HYPERVISOR, tsctrace default serialization: $DEFAULT_SER"

echo
echo "summary ($DATE; $MACHINE)"
awk -F '\t' '{ w2 = length($2) > w2 ? length($2) : w2; w3 = length($3) > w3 ? length($3) : w3
		w4 = length($4) > w4 ? length($4) : w4; r[NR] = $0 }
	END { for (i = 1; i <= NR; i++) { split(r[i], f, "\t")
		printf "  %-" w2 "s  %" w3 "s  %-" w4 "s  %-7s  %s\n", f[2], f[3], f[4], f[5], f[6] } }' \
	"$W/rows.tsv"

RES=${BENCH_RESULTS:-$HERE/results}
if mkdir -p "$RES" 2>/dev/null && [ -s "$W/rows.tsv" ]; then
	{
		echo "# tsctrace bench: latest run"
		echo
		echo "- date: $DATE"
		echo "- machine: $MACHINE"
		echo "- kernel: $(uname -r); $(ldd --version 2>/dev/null | head -n 1)"
		echo "- shim: $LIB${COMMIT:+ (commit $COMMIT)}"
		echo "- repetitions: $REPS (BENCH_REPS), slow peers $SLOW_REPS (BENCH_SLOW_REPS)"
		echo
		echo "| measure | value | goal | verdict | detail |"
		echo "|---|---:|---|---|---|"
		awk -F '\t' '{ for (i = 2; i <= 6; i++) gsub(/\|/, "\\|", $i)
			printf "| %s | %s | %s | %s | %s |\n", $2, $3, $4, $5, $6 }' "$W/rows.tsv"
		[ -s "$W/coverage.md" ] && { echo; cat "$W/coverage.md"; }
		[ "$broken" = 0 ] || { echo; echo "Something broke in this run: see the bench output."; }
	} >"$RES/latest.md.tmp" && mv "$RES/latest.md.tmp" "$RES/latest.md"
	jq -R -s --arg date "$DATE" --arg cpu "$CPU" --arg ncpu "$NCPU" --arg hz "$TSC_HZ" \
		--arg hzsrc "$TSC_HZ_SRC" --arg gran "$GRAN" --arg rdtscp "$RDTSCP" \
		--arg hyp "$HYPERVISOR" --arg ser "$DEFAULT_SER" --arg clock "$CLOCK_SRC" \
		--arg kernel "$(uname -r)" --arg shim "$LIB" --arg commit "$COMMIT" \
		--argjson reps "$REPS" --argjson slow "$SLOW_REPS" --argjson broken "$broken" '
		def num: . as $s | (try tonumber catch $s);
		{ date: $date,
		  machine: { cpu: $cpu, cpus_online: ($ncpu | num), tsc_hz: ($hz | num),
			     tsc_hz_source: $hzsrc, granularity: ($gran | num),
			     rdtscp_announced: ($rdtscp == "yes"), hypervisor: ($hyp == "true"),
			     clock: $clock, default_serialize: $ser, kernel: $kernel },
		  shim: $shim, commit: $commit, repetitions: $reps, slow_peer_repetitions: $slow,
		  broken: ($broken != 0),
		  rows: [ split("\n")[] | select(length > 0) | split("\t") |
			  { id: .[0], measure: .[1], value: (.[2] | num), goal: .[3], verdict: .[4],
			    detail: .[5] } ] }' "$W/rows.tsv" >"$RES/latest.json.tmp" &&
		mv "$RES/latest.json.tmp" "$RES/latest.json"
	echo
	echo "bench: summary written to $RES/latest.md and latest.json"
fi

if [ "$broken" != 0 ]; then
	echo "bench: something broke (see BROKEN lines above)"
	exit 1
fi
exit 0
