#!/bin/sh
# run.sh B LIB [ROUNDS] - run the serialization example: the same four functions traced under
# each TSC_SERIALIZE mode, against their true cost measured by the program itself.
#
#   B       build directory holding serialization/ (absolute)
#   LIB     path of libtsctrace.so (absolute)
#   ROUNDS  calls of each function per mode, default 2000
#
# Needs jq to read the JSON reports (installed as root when missing, like the top Makefile's
# packages; otherwise the apt-get line is printed and the example is skipped).
set -eu

B=$1
LIB=$2
ROUNDS=${3:-2000}
D=$B/serialization
HERE=$(cd "$(dirname "$0")" && pwd)
FUNCS=empty_fn,chain_64,chain_256,chain_1024

[ -x "$D/serialization" ] || { echo "run.sh: $D/serialization missing: run make" >&2; exit 1; }
[ -f "$LIB" ] || { echo "run.sh: $LIB missing: build tsctrace first" >&2; exit 1; }
if ! command -v jq >/dev/null 2>&1 && ! sh "$HERE/../../tests/need-packages.sh" jq; then
	echo "=== serialization: skipped (needs jq to read the reports) ==="
	exit 0
fi

echo "=== serialization: $FUNCS under each TSC_SERIALIZE mode, $ROUNDS calls each ==="
rows=""
for mode in lfence rdtscp mfence none cpuid; do
	json=$D/report.$mode.json
	rm -f "$json"
	out=$(LD_PRELOAD=$LIB TSC_FUNCS=$FUNCS TSC_SERIALIZE=$mode TSC_FORMAT=json \
		TSC_OUTPUT=$json "$D/serialization" "$ROUNDS" 2>"$D/stderr.$mode")
	[ -s "$json" ] || { echo "run.sh: no report at $json" >&2; exit 1; }
	printf '%s\n' "$out" >"$D/out.$mode"
	# the shim's own lines for this mode (what it chose, what it warns about)
	sed "s/^/  [$mode] /" "$D/stderr.$mode"
done

# The true cost: the untraced twins' per-call time, the smallest seen in the five runs, less
# the empty call's (call, return, loop), which the shim's subtracted overhead removes too.
truth() {
	cat "$D"/out.* | awk -v f="$1" '$1 == "truth" && $2 == f { print $3 }' | sort -g | head -n 1
}
e=$(truth empty_fn)
echo
echo "true cost per call, measured by the program on untraced twins (ticks, less the empty call's $e):"
printf '  %-39s' ""
for f in empty_fn chain_64 chain_256 chain_1024; do printf ' %14s' "$f"; done
echo
printf '  %-39s' "truth"
for f in empty_fn chain_64 chain_256 chain_1024; do
	printf ' %14s' "$(awk -v t="$(truth "$f")" -v e="$e" 'BEGIN { printf "%.0f", t - e }')"
done
echo
echo
echo "tsctrace's reading of each call: median cycles (p90), after subtracting the overhead"
printf '  %-8s %-8s %11s %9s' mode "in force" overhead "added"
for f in empty_fn chain_64 chain_256 chain_1024; do printf ' %14s' "$f"; done
echo
for mode in lfence rdtscp mfence none cpuid; do
	json=$D/report.$mode.json
	cost=$(awk '$1 == "run" { split($2, a, "="); split($3, b, "=")
		printf "%.0f", a[2] - b[2] }' "$D/out.$mode")
	jq -r --arg mode "$mode" --arg cost "$cost" '
		. as $r | def fn($n): first($r.functions[] | select(.name == $n));
		[$mode, .clock.serialize, "\(.overhead.min)/\(.overhead.median)", $cost] +
		[ "empty_fn", "chain_64", "chain_256", "chain_1024" |
			fn(.) as $f | "\($f.cycles.median) (\($f.cycles.p90))" ] | @tsv' "$json" |
		awk -F '\t' '{ printf "  %-8s %-8s %11s %9s", $1, $2, $3, $4
			for (i = 5; i <= NF; i++) printf " %14s", $i; printf "\n" }'
done
echo
echo "overhead: the shim's calibration (min/median ticks of timing an empty call; the min is"
echo "subtracted). added: what a traced call costs the program more than an untraced one, in"
echo "ticks (its own loop times, fastest of 10 blocks each)."
echo "Reports: $D/report.<mode>.json. examples/serialization/README.md explains the rows."
