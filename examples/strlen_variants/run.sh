#!/bin/sh
# run.sh B LIB [CLASS...] - run strlen_variants under tsctrace once per string class and print
# each text report. CLASS is short, medium, long or all; default: short long.
#
#   B    build directory holding strlen_variants/ (absolute)
#   LIB  path of libtsctrace.so (absolute)
set -eu

B=$1
LIB=$2
shift 2
[ $# -gt 0 ] || set -- short long
D=$B/strlen_variants
FUNCS=bytes_strlen,words_strlen,sse2_strlen,strlen

[ -x "$D/strlen_variants" ] || { echo "run.sh: $D/strlen_variants missing: run make" >&2; exit 1; }
[ -f "$LIB" ] || { echo "run.sh: $LIB missing: build tsctrace first" >&2; exit 1; }

for class in "$@"; do
	report=$D/report.$class.txt
	rm -f "$report"
	echo "=== strlen_variants: $class strings, TSC_FUNCS=$FUNCS ==="
	LD_PRELOAD=$LIB TSC_FUNCS=$FUNCS TSC_OUTPUT=$report "$D/strlen_variants" "$class"
	if [ ! -s "$report" ]; then
		echo "run.sh: no report at $report" >&2
		exit 1
	fi
	cat "$report"
	echo
done
