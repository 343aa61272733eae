#!/bin/sh
# ladder.sh B LIB - where a timed call's cost over the hand-inlined bracket goes: the shim
# rebuilt with the parts of its timed path taken out one by one (tramp_body.S, TT_STRIP),
# each build timed with percall's loop through a GOT hook against `percall reference`.
#
#   step 0  the shim as built (LIB)
#   step 1  without the histogram update and the caller's child ticks (the exit's recording)
#   step 2  also without the exit's tests (the fast exit's conditions)
#   step 3  also without the entry's work before the first read (the sampling countdown, the
#           call counter, the frame's function, counters, child fields and CPU number)
#
# What is left at step 3 is the structure itself: the stub and its jump into the body, the
# guard and table checks, the shadow frame (reserved, return address, rbx, stack pointer),
# the pop + call + push/ret and the release, less what the reference spends on its own
# histogram update (step 3 records nothing; the reference does, in C). Each figure is percall's chunk_p10_ticks (the
# cost of a call on an undisturbed CPU), median of BENCH_REPS runs (default 9, at least 5)
# alternating all builds and the reference, for the default serialization here and lfence
# (and none). The stripped builds are experiments, not tracers: their counts are wrong by
# design, so nothing is checked but that the runs finish.
set -u

B=$1
LIB=$2
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/.." && pwd)
REPS=${BENCH_REPS:-9}
[ "$REPS" -ge 5 ] 2>/dev/null || REPS=5
N=${BENCH_LADDER_CALLS:-400000}
W=$B/work-ladder
mkdir -p "$W"
rm -rf "${W:?}"/*

for s in 1 2 3; do
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$TOP" B="$B/ladder/s$s" TRAMP_STRIP=$s "$B/ladder/s$s/libtsctrace.so" \
		>"$W/build.$s.log" 2>&1 || {
		echo "ladder: the step $s build failed (see $W/build.$s.log)" >&2
		exit 1
	}
done

lib_of() { if [ "$1" = 0 ]; then echo "$LIB"; else echo "$B/ladder/s$1/libtsctrace.so"; fi; }

if "$B/percall" reference 1 rdtscp >/dev/null 2>&1; then MODES="rdtscp lfence none"; else
	MODES="lfence none"; fi

p10() { sed -n 's/.*chunk_p10_ticks=\([0-9.]*\).*/\1/p'; }
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2];
	else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "ladder: ticks per call (percall chunk_p10_ticks, $N calls, median of $REPS alternating" \
	"runs), GOT hook; each step takes one more part of the timed path out"
printf '  %-8s %10s %10s %10s %10s %10s\n' mode reference step0 step1 step2 step3
for m in $MODES; do
	r=1
	while [ $r -le "$REPS" ]; do
		"$B/percall" reference "$N" "$m" | p10 >>"$W/$m.ref" || exit 1
		for s in 0 1 2 3; do
			TSC_QUIET=1 TSC_OUTPUT=/dev/null LD_PRELOAD=$(lib_of $s) TSC_FUNCS=bench_fn \
				TSC_HOOK=got TSC_SERIALIZE=$m "$B/percall" plain "$N" 2>/dev/null |
				p10 >>"$W/$m.$s" || exit 1
		done
		r=$((r + 1))
	done
	ref=$(median <"$W/$m.ref")
	set -- "$(median <"$W/$m.0")" "$(median <"$W/$m.1")" "$(median <"$W/$m.2")" \
		"$(median <"$W/$m.3")"
	printf '  %-8s %10s %10s %10s %10s %10s\n' "$m" "$ref" "$1" "$2" "$3" "$4"
	awk -v m="$m" -v r="$ref" -v a="$1" -v b="$2" -v c="$3" -v d="$4" 'BEGIN {
		printf "  %-8s over the reference %+.1f: recording %+.1f, exit tests %+.1f, " \
			"entry work %+.1f, structure less the reference'"'"'s histogram %+.1f ticks\n", m, a - r, a - b, b - c, c - d, d - r }'
done
