#!/bin/sh
# run.sh B LIB - run the tsctrace benchmarks built in B against the shim LIB.
#
# percall: cost per call of timing bench_fn (a ~1-cycle function in its own .so, called through
#   the PLT) 2,000,000 times: traced by tsctrace, hand-bracketed in process (the reference),
#   and untraced. The traced run's JSON report must say calls == 2000000.
# untraced: a CPU-bound program under the shim with TSC_FUNCS naming a function it never
#   calls, against the same program without the shim. Goal: ratio <= 1.02.
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
	echo "percall tsctrace/reference = $(ratio "$pc_tsctrace" "$pc_reference")" \
		"($pc_tsctrace/$pc_reference ticks)"
	if [ -n "$pc_untraced" ]; then
		a=$(awk -v a="$pc_tsctrace" -v u="$pc_untraced" 'BEGIN { printf "%.2f", a - u }')
		b=$(awk -v b="$pc_reference" -v u="$pc_untraced" 'BEGIN { printf "%.2f", b - u }')
		echo "percall added cost tsctrace/reference = $(ratio "$a" "$b") ($a/$b ticks" \
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
		echo "untraced $what preloaded/bare = $ra (goal <= 1.02: $verdict)"
	done
fi

if [ "$broken" != 0 ]; then
	echo "bench: something broke (see BROKEN lines above)"
	exit 1
fi
exit 0
