#!/bin/sh
# loop_ab.sh LIB_A LIB_B [N] - two builds of the shim against each other on the shell loop of
# startup.sh (sh running 50 x { /bin/true; printf x | cat; }, TSC_FUNCS=strlen, each report to
# a new file): N rounds (default 9) of bare, A, B, alternating, each loop its own run; prints
# the medians in ms. For a change's paired figure, where make bench's rows move with the disk.
set -u
[ $# -ge 2 ] || { echo "usage: loop_ab.sh LIB_A LIB_B [N]" >&2; exit 2; }
A=$1
B=$2
N=${3:-9}
# shellcheck source=shell_loop.sh
. "$(dirname "$0")/shell_loop.sh"
W=$(mktemp -d "${TMPDIR:-/tmp}/loop_ab.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
mkdir "$W/out"
: >"$W/bare"
: >"$W/a"
: >"$W/b"

once() { # LIB|bare -> microseconds
	rm -f "$W"/out/*
	t0=$(date +%s%N)
	if [ "$1" = bare ]; then
		sh -c "$LOOP" </dev/null
	else
		LD_PRELOAD=$1 TSC_FUNCS=strlen TSC_QUIET=1 TSC_OUTPUT="$W/out/r.txt" sh -c "$LOOP" \
			</dev/null
	fi || { echo "loop_ab: a loop exited $?" >&2; exit 1; }
	echo $((($(date +%s%N) - t0) / 1000))
}

# shellcheck source=median.sh
. "$(dirname "$0")/median.sh"
ms() { awk -v v="$(median "$1")" 'BEGIN { printf "%.1f", v / 1000 }'; }

r=0
while [ "$r" -lt "$N" ]; do
	if [ $((r % 2)) = 0 ]; then
		once bare >>"$W/bare"; once "$A" >>"$W/a"; once "$B" >>"$W/b"
	else
		once "$B" >>"$W/b"; once "$A" >>"$W/a"; once bare >>"$W/bare"
	fi
	r=$((r + 1))
done
echo "shell loop, medians of $N alternating runs: bare $(ms "$W/bare") ms," \
	"A $(ms "$W/a") ms, B $(ms "$W/b") ms"
