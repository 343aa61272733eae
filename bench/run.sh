#!/bin/sh
# run.sh B LIB - run the tsctrace benchmarks built in B against the shim LIB.
#
# percall: cost per call of timing bench_fn (a ~1-cycle function in its own .so, called through
#   the PLT) 2,000,000 times: traced by tsctrace, hand-bracketed in process (the reference),
#   and untraced. The traced run's JSON report must say calls == 2000000.
# untraced: a CPU-bound program under the shim with TSC_FUNCS naming a function it never
#   calls, against the same program without the shim. Goal: ratio <= 1.02.
# accuracy: functions of known duration (tests/prog/spin.c: spin_1k/10k/100k busy-wait that
#   many TSC ticks, spin_empty does nothing) traced by tsctrace while tests/prog/t_accuracy
#   times the same calls itself; the shim's cycles.median must match the program's reference
#   within max(10 ticks, 2%, 2 * granularity). And the report's tsc_hz against the kernel's
#   TSC frequency, when the kernel gives it (goal: within 0.1%).
#
# The headline lines are also written to bench/results/latest.md (BENCH_RESULTS=DIR elsewhere).
#
# Each figure is the median of BENCH_REPS (default 9, at least 5) repetitions; the variants
# alternate inside a repetition (ABC, CBA, ABC...) and each run is its own process. Exit status
# is non-zero only when something broke (a crash, a missing report, a wrong call count); a
# missed goal prints `goal missed`.
set -u

B=$1
LIB=$2
REPS=${BENCH_REPS:-9}
[ "$REPS" -ge 5 ] 2>/dev/null || REPS=5
N=2000000
SCALE=${BENCH_UNTRACED_SCALE:-2}
W=$B/work
broken=0

mkdir -p "$W"
rm -f "$W"/*

command -v jq >/dev/null 2>&1 ||
	sh "$(dirname "$0")/../tests/need-packages.sh" jq || {
	echo "bench: jq is needed to read the JSON reports" >&2
	exit 1
}

fail() {
	echo "bench: BROKEN: $*"
	broken=1
}

# median FILE: the middle value of the numbers in FILE, one per line (upper middle if even).
median() {
	sort -g "$1" | sed -n "$((($(wc -l <"$1") + 1) / 2))p"
}

# kv LINE KEY: the value of KEY=value in a percall/untraced output line.
kv() {
	printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# summary LINE...: print a headline line and keep it for results/latest.md.
summary() {
	echo "$*"
	printf '%s\n' "$*" >>"$W/summary"
}

ratio() { # a b -> a/b with two decimals
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "inf" }'
}

# ---- percall -------------------------------------------------------------------------------

run_percall() { # rep variant
	case $2 in
	untraced)
		out=$("$B/percall" plain $N) || { fail "percall plain exited $?"; return; } ;;
	reference)
		out=$("$B/percall" reference $N) || { fail "percall reference exited $?"; return; } ;;
	tsctrace)
		json=$W/percall.$1.json
		out=$(LD_PRELOAD=$LIB TSC_FUNCS=bench_fn TSC_FORMAT=json TSC_OUTPUT=$json \
			TSC_QUIET=1 "$B/percall" plain $N) ||
			{ fail "percall under tsctrace exited $?"; return; }
		calls=$(jq '[.functions[] | select(.name == "bench_fn")][0].calls' "$json" 2>/dev/null)
		echo "$calls" >>"$W/percall.calls"
		[ "$calls" = "$N" ] ||
			fail "run $1: report $json says bench_fn calls = ${calls:-nothing}, not $N"
		;;
	esac
	kv "$out" per_call_ticks >>"$W/percall.$2.ticks"
	kv "$out" per_call_ns >>"$W/percall.$2.ns"
	if [ "$2" = reference ]; then
		kv "$out" sample_min >>"$W/percall.ref.min"
		kv "$out" sample_median >>"$W/percall.ref.median"
		kv "$out" serialize >"$W/percall.ref.serialize"
	fi
}

r=1
while [ "$r" -le "$REPS" ]; do
	if [ $((r % 2)) = 1 ]; then order="untraced reference tsctrace"
	else order="tsctrace reference untraced"; fi
	for v in $order; do
		run_percall "$r" "$v"
	done
	r=$((r + 1))
done

echo "percall: bench_fn (returns x + 1, own .so, through the PLT), $N calls per run," \
	"median of $REPS alternating runs"
ref_ser=$(cat "$W/percall.ref.serialize" 2>/dev/null)
last_json=$W/percall.$REPS.json
if [ -s "$last_json" ]; then
	jq -r '"  tsctrace report: clock \(.clock.source), serialize \(.clock.serialize),"
		+ " granularity \(.clock.granularity) ticks, tsc_hz \(.clock.tsc_hz);"
		+ " overhead min \(.overhead.min) median \(.overhead.median)"
		+ " subtracted \(.overhead.subtracted)"' "$last_json"
	shim_ser=$(jq -r '.clock.serialize' "$last_json")
	[ "$shim_ser" = "$ref_ser" ] ||
		echo "  note: reference brackets with $ref_ser, tsctrace reports $shim_ser"
fi
for v in untraced reference tsctrace; do
	if [ -s "$W/percall.$v.ticks" ]; then
		eval "pc_$v=\$(median \"\$W/percall.\$v.ticks\")"
		eval "pcns_$v=\$(median \"\$W/percall.\$v.ns\")"
	else
		eval "pc_$v="
	fi
done
if [ -n "$pc_untraced" ]; then
	printf '  %-38s %8s ticks/call  %7s ns/call\n' "untraced loop" "$pc_untraced" \
		"$pcns_untraced"
fi
if [ -n "$pc_reference" ]; then
	printf '  %-38s %8s ticks/call  %7s ns/call  (its samples: min %s, median %s ticks)\n' \
		"reference ($ref_ser bracket + tt_hist)" "$pc_reference" "$pcns_reference" \
		"$(median "$W/percall.ref.min")" "$(median "$W/percall.ref.median")"
fi
if [ -n "$pc_tsctrace" ]; then
	samples=""
	[ -s "$last_json" ] && samples=$(jq -r '[.functions[] | select(.name == "bench_fn")][0] |
		"(its samples: raw min \(.raw.min), median \(.raw.median);"
		+ " cycles min \(.cycles.min), median \(.cycles.median) ticks)"' "$last_json")
	printf '  %-38s %8s ticks/call  %7s ns/call  %s\n' "tsctrace (LD_PRELOAD)" \
		"$pc_tsctrace" "$pcns_tsctrace" "$samples"
	echo "  report calls per run: $(tr "\n" " " <"$W/percall.calls" | sed "s/ $//")"
fi
if [ -n "$pc_tsctrace" ] && [ -n "$pc_reference" ]; then
	summary "percall tsctrace/reference = $(ratio "$pc_tsctrace" "$pc_reference")" \
		"($pc_tsctrace/$pc_reference ticks)"
	if [ -n "$pc_untraced" ]; then
		a=$(awk -v a="$pc_tsctrace" -v u="$pc_untraced" 'BEGIN { printf "%.2f", a - u }')
		b=$(awk -v b="$pc_reference" -v u="$pc_untraced" 'BEGIN { printf "%.2f", b - u }')
		summary "percall added cost tsctrace/reference = $(ratio "$a" "$b") ($a/$b ticks" \
			"above the untraced loop)"
	fi
fi

# ---- untraced ------------------------------------------------------------------------------

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
		verdict=$(awk -v r="$ra" 'BEGIN { print (r <= 1.02) ? "goal met" : "goal missed" }')
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
		summary "untraced $what preloaded/bare = $ra (goal <= 1.02: $verdict)"
	done
fi

# ---- accuracy ------------------------------------------------------------------------------

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
		printf 'accuracy %s\n' "$line" >>"$W/summary"
	done
	if [ -s "$W/acc.empty.min" ]; then
		emin=$(median "$W/acc.empty.min")
		emed=$(median "$W/acc.empty.median")
		line=$(awk -v mn="$emin" -v md="$emed" -v g="$g" 'BEGIN {
			lm = g > 4 ? g : 4; lmd = 2 * g + 4
			printf "spin_empty cycles min %d (<= %d) median %d (<= %d): %s", mn, lm, md, lmd,
				(mn <= lm && md <= lmd) ? "PASS" : "FAIL" }')
		echo "  $line"
		printf 'accuracy %s\n' "$line" >>"$W/summary"
	fi
	hz=$(median "$W/acc.tsc_hz")
	hz_lo=$(sort -g "$W/acc.tsc_hz" | head -n 1)
	hz_hi=$(sort -g "$W/acc.tsc_hz" | tail -n 1)
	kt=$(kernel_tsc)
	if [ -n "$kt" ]; then
		line=$(awk -v h="$hz" -v k="${kt%% *}" -v src="${kt#* }" -v hs="$(cat "$W/acc.tsc_hz_source")" '
			BEGIN { d = 100 * (h - k) / k; a = d < 0 ? -d : d
				printf "accuracy tsc_hz %.0f Hz (%s) vs kernel %.0f Hz (%s): %+.4f%% (within 0.1%%: %s)",
					h, hs, k, src, d, a <= 0.1 ? "yes" : "no" }')
	else
		line="accuracy tsc_hz $hz Hz ($(cat "$W/acc.tsc_hz_source")): kernel TSC frequency not available"
	fi
	echo "  report tsc_hz over the runs: median $hz, range $hz_lo..$hz_hi Hz"
	summary "$line"
fi

# ---- results/latest.md ---------------------------------------------------------------------

RES=${BENCH_RESULTS:-$(cd "$(dirname "$0")" && pwd)/results}
if mkdir -p "$RES" 2>/dev/null && [ -s "$W/summary" ]; then
	commit=$(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null)
	[ -n "$commit" ] && [ -n "$(git -C "$(dirname "$0")" status --porcelain -- src 2>/dev/null)" ] &&
		commit="$commit + uncommitted changes in src/"
	{
		echo "# tsctrace bench: latest run"
		echo
		echo "- date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
		echo "- cpu: $(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)," \
			"$(getconf _NPROCESSORS_ONLN 2>/dev/null) CPUs online"
		echo "- shim: $LIB${commit:+ (commit $commit)}"
		echo "- repetitions: $REPS (BENCH_REPS)"
		echo
		echo '```'
		cat "$W/summary"
		echo '```'
		[ "$broken" = 0 ] || { echo; echo "Something broke in this run: see the bench output."; }
	} >"$RES/latest.md.tmp" && mv "$RES/latest.md.tmp" "$RES/latest.md" &&
		echo && echo "bench: summary written to $RES/latest.md"
fi

if [ "$broken" != 0 ]; then
	echo "bench: something broke (see BROKEN lines above)"
	exit 1
fi
exit 0
