#!/bin/sh
# ladder.sh B LIB - where a timed call's cost over the hand-inlined bracket goes: the shim
# rebuilt with the parts of its timed path taken out one by one (ladder/tramp_ladder.S),
# each build timed with percall's loop through a GOT hook against `percall reference`.
#
#   step 0  the shim (LIB's sources)
#   step 1  without the histogram update and the caller's child ticks (the exit's recording)
#   step 2  also without the exit's tests (the fast exit's conditions)
#   step 3  also without the entry's work before the first read (the sampling countdown, the
#           call counter, the frame's function, counters, child fields and CPU number)
#   step 4  also without the guard test and the shadow stack's limit test
#
# What is left at step 4 is the structure itself: the stub and its jump into the body, the
# counters' look-up that finds the target, the shadow frame (reserved, return address, rbx,
# stack pointer), the pop + call + push/ret and the release, less what the reference spends
# on its own histogram update (step 4 records nothing; the reference does, in C).
#
# The same code costs a few ticks more or less depending on where it lies in its cache lines
# (on the AMD EPYC VM up to 6 ticks for the bodies 8 bytes further on), and taking a part out
# moves everything after it: a step measured at one layout weighs the layout as much as the
# part. So every step is built at each layout of BENCH_LADDER_PADS (LADDER_PAD: the GOT bodies
# that many bytes further past their 64-byte boundary than the shim puts them, modulo 64;
# default all eight multiples of 8) and compared
# at its best one; the worst is printed beside it. Each figure is percall's chunk_p10_ticks
# (the cost of a call on an undisturbed CPU), median of BENCH_REPS runs (default 9, at least
# 5) alternating all builds and the reference, for the default serialization here and lfence
# (and none). The stripped builds are experiments, not tracers: their counts are wrong by
# design, so nothing is checked but that the runs finish. Under each mode's figures, the
# instructions each step runs outside the timed interval (entry before the first read + exit
# after the second, objdump): with the fences nothing overlaps them, so they are paid in full.
set -u

B=$1
LIB=$2
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
REPS=${BENCH_REPS:-9}
[ "$REPS" -ge 5 ] 2>/dev/null || REPS=5
N=${BENCH_LADDER_CALLS:-400000}
PADS=${BENCH_LADDER_PADS:-0 8 16 24 32 40 48 56}
STEPS="0 1 2 3 4"
W=$B/work-ladder
mkdir -p "$W"
rm -rf "${W:?}"/*

# Step 0 at pad 0 is LIB itself. One build directory per step; for each pad only the
# bodies are assembled again and the library linked again, then copied aside.
lib_of() { if [ "$1" = 0 ] && [ "$2" = 0 ]; then echo "$LIB"; else
	echo "$B/ladder/s$1/libtsctrace.p$2.so"; fi; }
for s in $STEPS; do
	for p in $PADS; do
		[ "$(lib_of "$s" "$p")" = "$LIB" ] && continue
		rm -f "$B/ladder/s$s/ladder/tramp_ladder.o"
		if ! env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$TOP" B="$B/ladder/s$s" \
			LADDER_STEP="$s" LADDER_PAD="$p" "$B/ladder/s$s/libtsctrace.so" \
			>"$W/build.$s.$p.log" 2>&1; then
			echo "ladder: the step $s pad $p build failed (see $W/build.$s.$p.log)" >&2
			exit 1
		fi
		cp "$B/ladder/s$s/libtsctrace.so" "$(lib_of "$s" "$p")" || exit 1
	done
done

if "$B/percall" reference 1 rdtscp >/dev/null 2>&1; then MODES="rdtscp lfence none"; else
	MODES="lfence none"; fi

# Instructions a timed call runs outside its timed interval, where nothing overlaps the fences:
# the body's entry up to the first read (the stub's 4 not counted) and its exit after the
# second read's fence up to `ret`, followed through the taken jumps to the timed entry.
outside() {
	objdump -d --no-show-raw-insn "$1" | awk -v body="tt_body_$2" '
	$0 ~ ("<" body ">:$") { on = 1; next }
	on && /^[0-9a-f]+ </ { if ($0 ~ ("<" body "_timed>:$")) next; on = 0 }
	on && match($0, /^ *[0-9a-f]+:/) {
		a = substr($0, RSTART, RLENGTH); gsub(/[ :]/, "", a)
		rest = substr($0, RLENGTH + 1); sub(/^[ \t]+/, "", rest)
		split(rest, f, /[ \t]+/)
		n++; op[n] = f[1]; arg[n] = f[2]; at[a] = n
	}
	END {
		for (i = 1; i <= n && op[i] != "lfence" && op[i] != "rdtsc"; ) {
			e++
			if ((op[i] == "jb" || op[i] == "jmp") && (arg[i] in at)) i = at[arg[i]]; else i++
		}
		for (k = 1; k <= n && op[k] != "call"; k++) ;
		for (; k <= n && op[k] != "rdtscp" && op[k] != "rdtsc"; k++) ;
		while (k < n && op[k + 1] == "lfence") k++
		for (k++; k <= n && op[k] != "ret"; k++) x++
		printf "%d+%d", e, x + 1
	}'
}

p10() { sed -n 's/.*chunk_p10_ticks=\([0-9.]*\).*/\1/p'; }
# shellcheck source=median.sh
. "$HERE/median.sh"

echo "ladder: ticks per call (percall chunk_p10_ticks, $N calls, median of $REPS alternating" \
	"runs), GOT hook; each step takes one more part of the timed path out; per step" \
	"best@pad (worst) over the layouts of pads $PADS"
printf '  %-8s %10s' mode reference
for s in $STEPS; do printf ' %22s' "step$s"; done
echo
for m in $MODES; do
	r=1
	while [ $r -le "$REPS" ]; do
		"$B/percall" reference "$N" "$m" | p10 >>"$W/$m.ref" || exit 1
		for s in $STEPS; do
			for p in $PADS; do
				TSC_QUIET=1 TSC_OUTPUT=/dev/null LD_PRELOAD=$(lib_of "$s" "$p") \
					TSC_FUNCS=bench_fn TSC_HOOK=got TSC_SERIALIZE=$m \
					"$B/percall" plain "$N" 2>/dev/null | p10 >>"$W/$m.$s.$p" || exit 1
			done
		done
		r=$((r + 1))
	done
	ref=$(median "$W/$m.ref")
	printf '  %-8s %10s' "$m" "$ref"
	best=
	for s in $STEPS; do
		for p in $PADS; do echo "$(median "$W/$m.$s.$p") $p"; done | sort -n >"$W/$m.$s.by_pad"
		lo=$(head -n 1 "$W/$m.$s.by_pad")
		hi=$(tail -n 1 "$W/$m.$s.by_pad" | cut -d' ' -f1)
		printf ' %22s' "${lo% *}@${lo#* } ($hi)"
		best="$best ${lo% *}"
	done
	echo
	printf '  %-8s %10s' "" "entry+exit"
	for s in $STEPS; do printf ' %22s' "$(outside "$(lib_of "$s" 0)" "$m")"; done
	echo
	# shellcheck disable=SC2086 # the five figures, one word each
	set -- $best
	awk -v m="$m" -v r="$ref" -v a="$1" -v b="$2" -v c="$3" -v d="$4" -v e="$5" 'BEGIN {
		printf "  %-8s over the reference %+.1f: recording %+.1f, exit tests %+.1f, " \
			"entry work %+.1f, guard and limit tests %+.1f, structure less the " \
			"reference'"'"'s histogram %+.1f ticks\n", m, a - r, a - b, b - c, c - d, d - e, e - r }'
done
