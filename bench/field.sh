#!/bin/sh
# field.sh B LIB - the slowdown of real programs under tracing: the field suite's workloads
# (tests/field/: redis-server under redis-benchmark, nginx under ab, a threaded python3,
# sqlite3 scanning 200,000 rows, make -j2 of a generated project, a cgo Go program), each run
# untraced and traced once, as `make check-field` runs them. One row per workload and measure:
# traced/untraced wall time of the workload and CPU time of the program (a server's, from
# /proc, for redis and nginx). Rows go to $FIELD_ROWS (run.sh's rows.tsv) when set.
# The suite's own checks (counts, reports) are `make check-field`'s business: a failing case
# is printed here, never a broken bench; a case that cannot run leaves no row.
set -u
B=$1
LIB=$2
HERE=$(cd "$(dirname "$0")" && pwd)
W=$B/work-field
mkdir -p "$W"
echo "field: real programs, untraced then traced (tests/field/run.sh, one run each)"
FIELD_WORK=$W FIELD_ROWS=${FIELD_ROWS:-$W/rows.tsv} RESULTS=/dev/null \
	sh "$HERE/../tests/field/run.sh" "$(dirname "$LIB")" | sed 's/^/  /'
exit 0
