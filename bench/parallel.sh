#!/bin/sh
# parallel.sh B LIB - do parallel programs keep their schedule under tracing?
#
# Two programs, each untraced (bare), traced with the default TSC_PIN (pin), with TSC_PIN=none
# (none) and with TSC_PIN=first (first, the default before exclusive):
#   sort:    LC_ALL=C sort -o /dev/null of 200,000 shuffled lines (sort's own thread count: two
#            on a 2-CPU machine), memcmp,strlen,malloc,free traced, counting only
#            (TSC_SAMPLE=4294967296), as in the report of issue 30;
#   threads: threads_work, 4 CPU-bound threads calling bench_fn 2,000,000 times each, every
#            call timed.
# Each run's wall time and CPU time (user + system of the whole process, cputime.c), as ratios
# against the untraced runs of the same invocation. The pin exists for the clock, not to slow
# the program: its wall ratio should stay within the shim's CPU cost (goal: wall ratio <= CPU
# ratio + 0.05). Runs alternate (A B C, then C B A), BENCH_REPS times (default 9, at least 5);
# each figure is a median. Rows go to $PAR_ROWS (run.sh's rows.tsv) when set. Exit status 1
# only when something broke.
set -u

B=$1
LIB=$2
HERE=$(cd "$(dirname "$0")" && pwd)
REPS=${BENCH_REPS:-9}
[ "$REPS" -ge 5 ] 2>/dev/null || REPS=5
W=$B/work-parallel
ROWS=${PAR_ROWS:-$W/rows.tsv}
broken=0
mkdir -p "$W"
rm -rf "${W:?}"/*

fail() {
	echo "bench: BROKEN: $*"
	broken=1
}
# shellcheck source=median.sh
. "$HERE/median.sh"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "inf" }'; }
row() { printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" >>"$ROWS"; }

awk 'BEGIN { x = 12345; for (i = 0; i < 200000; i++) { x = (x * 1103515245 + 12345) % 2147483648;
	printf "%010d %s %d\n", x, (x % 7 ? "gamma" : "delta"), i } }' >"$W/in.txt"
THREADS=4
CALLS=2000000

# run PROG VARIANT REP: one run; appends its wall and CPU ns to $W/PROG.VARIANT.{ns,cpu}.
run() {
	case $2 in
	bare) set -- "$1" "$2" "$3" ;;
	pin) set -- "$1" "$2" "$3" LD_PRELOAD="$LIB" ;;
	none) set -- "$1" "$2" "$3" LD_PRELOAD="$LIB" TSC_PIN=none ;;
	first) set -- "$1" "$2" "$3" LD_PRELOAD="$LIB" TSC_PIN=first ;;
	esac
	p=$1 v=$2 r=$3
	shift 3
	case $p in
	sort)
		"$B/cputime" "$W/t" env LC_ALL=C TSC_FORMAT=json TSC_OUTPUT="$W/$p.$v.$r.json" \
			TSC_QUIET=1 TSC_FUNCS=memcmp,strlen,malloc,free TSC_SAMPLE=4294967296 "$@" \
			sort -o /dev/null "$W/in.txt" || fail "sort ($v) exited $?"
		;;
	threads)
		"$B/cputime" "$W/t" env TSC_FORMAT=json TSC_OUTPUT="$W/$p.$v.$r.json" TSC_QUIET=1 \
			TSC_FUNCS=bench_fn "$@" "$B/threads_work" $THREADS $CALLS >"$W/out.$v" ||
			fail "threads_work ($v) exited $?"
		;;
	esac
	awk '{ print $1 }' "$W/t" >>"$W/$p.$v.ns"
	awk '{ print $2 }' "$W/t" >>"$W/$p.$v.cpu"
	if [ "$v" != bare ]; then
		[ -s "$W/$p.$v.$r.json" ] || fail "$p ($v): no report"
		jq -r '.threads.pinned' "$W/$p.$v.$r.json" >>"$W/$p.$v.pinned" 2>/dev/null
	fi
}

for p in sort threads; do
	echo "parallel: $p, untraced / default pin / TSC_PIN=none / TSC_PIN=first, $REPS alternated repetitions"
	r=1
	while [ "$r" -le "$REPS" ]; do
		order="bare pin none first"
		[ $((r % 2)) = 0 ] && order="first none pin bare"
		for v in $order; do
			run "$p" "$v" "$r"
		done
		r=$((r + 1))
	done
	bw=$(median "$W/$p.bare.ns") bc=$(median "$W/$p.bare.cpu")
	for v in pin none first; do
		tw=$(median "$W/$p.$v.ns") tc=$(median "$W/$p.$v.cpu")
		rw=$(ratio "$tw" "$bw") rc=$(ratio "$tc" "$bc")
		verdict=$(awk -v w="$rw" -v c="$rc" 'BEGIN { print (w <= c + 0.05) ? "met" : "missed" }')
		what="TSC_PIN unset (exclusive)"
		[ "$v" = pin ] || what="TSC_PIN=$v"
		pinned=$(sort -n "$W/$p.$v.pinned" | uniq | tr '\n' ' ')
		echo "  $what: wall ${rw}x, CPU ${rc}x untraced (medians: wall $tw vs $bw ns, CPU $tc vs $bc ns; threads pinned: $pinned)"
		row "parallel.$p.$v" "parallel: $p, $what, wall / untraced (CPU / untraced)" "$rw" \
			"<= CPU ratio + 0.05" "$verdict" \
			"CPU ${rc}x; medians wall $tw vs $bw ns, CPU $tc vs $bc ns; pinned: $pinned"
	done
done
exit $broken
