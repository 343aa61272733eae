#!/bin/bash
# fleet.sh - a fleet of two "machines" on loopback, each with its own node_exporter reading
# the metrics a traced program writes live (TSC_EXPORT), one Prometheus scraping both every
# second, and the fleet-wide median and p99 of one traced function asked of Prometheus, next
# to those of `tsctrace merge` of the two reports.
#
#   examples/fleet/fleet.sh [-f FUNCTION] [-n LINES] [-o RESULTS] [-k]
#
#   -f FUNCTION  the traced function (default memcmp; the workload is `LC_ALL=C sort`)
#   -n LINES     lines each machine sorts (default 20000)
#   -o RESULTS   also write the figures as NAME=VALUE lines (the end-to-end test reads them)
#   -k           keep the scratch directory (printed)
#
# Needs Debian's prometheus and prometheus-node-exporter, python3, and the tsctrace command
# with its shim: $TSCTRACE, else build/tsctrace of this checkout, else tsctrace in PATH.
# Everything listens on 127.0.0.1 only, on ports the kernel says are free; everything it
# starts is stopped when it ends, and every wait is bounded. Exit status 0; 2 on bad usage;
# 3 when a package is missing (one line says which); 1 when something failed.
set -u

FUNC=memcmp
LINES=20000
RESULTS=""
KEEP=0
while getopts f:n:o:k opt; do
	case $opt in
	f) FUNC=$OPTARG ;;
	n) LINES=$OPTARG ;;
	o) RESULTS=$OPTARG ;;
	k) KEEP=1 ;;
	*) echo "usage: fleet.sh [-f FUNCTION] [-n LINES] [-o RESULTS] [-k]" >&2; exit 2 ;;
	esac
done

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
TSCTRACE=${TSCTRACE:-}
if [ -z "$TSCTRACE" ]; then
	if [ -x "$TOP/build/tsctrace" ]; then TSCTRACE=$TOP/build/tsctrace; else TSCTRACE=tsctrace; fi
fi
need() {
	command -v "$1" >/dev/null 2>&1 && return 0
	echo "fleet.sh: $1 not found (apt-get install $2)" >&2
	exit 3
}
need prometheus prometheus
need prometheus-node-exporter prometheus-node-exporter
need python3 python3
command -v "$TSCTRACE" >/dev/null 2>&1 || { echo "fleet.sh: no tsctrace command (make)" >&2; exit 3; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/tsctrace-fleet.XXXXXX") || exit 1
PIDS=()
cleanup() {
	local p
	for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
	if [ "$KEEP" = 1 ]; then echo "scratch directory kept: $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

die() {
	echo "fleet.sh: $*" >&2
	exit 1
}

# A port nobody listens on now (the kernel's choice for port 0).
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# http GET URL: the body, or nothing after 2 s.
http() {
	python3 - "$1" <<'EOF'
import sys, urllib.request
try:
    print(urllib.request.urlopen(sys.argv[1], timeout=2).read().decode())
except Exception:
    pass
EOF
}

# promql EXPR: the value of an instant query that returns one sample, or nothing.
promql() {
	python3 - "http://127.0.0.1:$PROM_PORT/api/v1/query" "$1" <<'EOF'
import json, sys, urllib.parse, urllib.request
try:
    url = sys.argv[1] + "?" + urllib.parse.urlencode({"query": sys.argv[2]})
    r = json.load(urllib.request.urlopen(url, timeout=2))
    res = r["data"]["result"]
    if r["status"] == "success" and len(res) == 1:
        print(res[0]["value"][1])
except Exception:
    pass
EOF
}

# wait_for SECONDS COMMAND...: run COMMAND every 0.2 s until it succeeds; fails after SECONDS.
wait_for() {
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -lt $end ] || return 1
		sleep 0.2
	done
}

# ---- the two machines' node_exporters, and Prometheus --------------------------------------
PORT1=$(free_port) PORT2=$(free_port) PROM_PORT=$(free_port)
for m in 1 2; do
	mkdir -p "$WORK/m$m/textfile"
	port=PORT$m
	prometheus-node-exporter --web.listen-address="127.0.0.1:${!port}" \
		--collector.disable-defaults --collector.textfile \
		--collector.textfile.directory="$WORK/m$m/textfile" --web.disable-exporter-metrics \
		>"$WORK/m$m/node_exporter.log" 2>&1 &
	PIDS+=($!)
done
cat >"$WORK/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: fleet
    static_configs:
      - targets: ['127.0.0.1:$PORT1', '127.0.0.1:$PORT2']
EOF
prometheus --config.file="$WORK/prometheus.yml" --storage.tsdb.path="$WORK/prometheus" \
	--web.listen-address="127.0.0.1:$PROM_PORT" --log.level=warn \
	>"$WORK/prometheus.log" 2>&1 &
PIDS+=($!)
ready() { http "http://127.0.0.1:$1$2" | grep -q "$3"; }
wait_for 20 ready "$PORT1" /metrics . && wait_for 20 ready "$PORT2" /metrics . ||
	die "a node_exporter did not answer within 20 s: $(tail -2 "$WORK"/m*/node_exporter.log)"
wait_for 30 ready "$PROM_PORT" /-/ready Ready ||
	die "Prometheus was not ready within 30 s: $(tail -3 "$WORK/prometheus.log")"

# ---- the workload: each machine sorts its own lines under the shim, exporting live ---------
# Machine 1 sorts short numbers, machine 2 lines sharing a 600-byte prefix (longer memcmp
# calls): two distributions, one fleet.
seq 1 "$LINES" | awk '{ print ($1 * 7919) % 20011 }' >"$WORK/m1/in.txt"
seq 1 "$LINES" | awk '{ p = sprintf("%600s", ""); gsub(/ /, "x", p)
	printf "%s-%08d\n", p, ($1 * 7919) % 200011 }' >"$WORK/m2/in.txt"
RUNS=()
for m in 1 2; do
	(cd "$WORK/m$m" && LC_ALL=C TSC_EXPORT="$WORK/m$m/textfile/tsctrace_%e.prom" \
		TSC_EXPORT_INTERVAL=1s exec timeout 60 "$TSCTRACE" run -f "$FUNC" --json \
		-o "$WORK/m$m/report.json" -- sort in.txt >sorted.txt 2>run.log) &
	RUNS+=($!)
done
for m in 1 2; do
	wait "${RUNS[m - 1]}" || die "machine $m: the traced sort failed: $(tail -2 "$WORK/m$m/run.log")"
done
for m in 1 2; do
	[ -s "$WORK/m$m/report.json" ] || die "machine $m: no report: $(tail -2 "$WORK/m$m/run.log")"
	ls "$WORK/m$m/textfile/"*.prom >/dev/null 2>&1 || die "machine $m: no metrics file"
done

# ---- what the reports say: each alone, and merged -------------------------------------------
"$TSCTRACE" merge -o "$WORK/merged.json" "$WORK/m1/report.json" "$WORK/m2/report.json" ||
	die "tsctrace merge failed"
# field FILE EXPR: a figure of FUNC's entry in a JSON report (EXPR over f).
field() {
	python3 - "$1" "$FUNC" "$2" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
f = [f for f in r["functions"] if sys.argv[2] in f["name"].split("|")]
print(eval(sys.argv[3], {"f": f[0]}) if f else 0)
EOF
}
CALLS1=$(field "$WORK/m1/report.json" 'f["calls"]')
CALLS2=$(field "$WORK/m2/report.json" 'f["calls"]')
CALLS=$((CALLS1 + CALLS2))
ALONE1=$(field "$WORK/m1/report.json" '"median %d, p99 %d cycles" % (f["cycles"]["median"], f["cycles"]["p99"])')
ALONE2=$(field "$WORK/m2/report.json" '"median %d, p99 %d cycles" % (f["cycles"]["median"], f["cycles"]["p99"])')
TIMED=$(field "$WORK/merged.json" 'f["timed"]')
MERGE_MEDIAN=$(field "$WORK/merged.json" 'f["cycles"]["median"]')
MERGE_P99=$(field "$WORK/merged.json" 'f["cycles"]["p99"]')

# ---- what Prometheus says, once it has scraped both machines' last writes -------------------
sel="{function=\"$FUNC\"}"
seen() { [ "$(promql "sum(tsctrace_calls_total$sel)")" = "$CALLS" ]; }
wait_for 30 seen || die "Prometheus did not see the $CALLS calls of both machines within 30 s (it sees $(promql "sum(tsctrace_calls_total$sel)"))"
PROM_CALLS=$(promql "sum(tsctrace_calls_total$sel)")
PROM_COUNT=$(promql "sum(tsctrace_call_cycles_count$sel)")
PROM_MEDIAN=$(promql "histogram_quantile(0.5, sum by (le) (tsctrace_call_cycles_bucket$sel))")
PROM_P99=$(promql "histogram_quantile(0.99, sum by (le) (tsctrace_call_cycles_bucket$sel))")

# The bucket of the fixed layout (le = 2^k - 1) that holds v: "lo-hi".
bucket() {
	python3 -c '
import sys
v = float(sys.argv[1]); k = 4
while k < 30 and v > 2 ** k - 1:
    k += 1
print("%d-%d" % (0 if k == 4 else 2 ** (k - 1), 2 ** k - 1) if v <= 2 ** k - 1 else "over 2^30")' "$1"
}

echo "Fleet of 2 machines on loopback: node_exporter 127.0.0.1:$PORT1 and 127.0.0.1:$PORT2"
echo "(textfile collector), Prometheus 127.0.0.1:$PROM_PORT scraping both every 1 s."
echo "machine 1: LC_ALL=C sort of $LINES numbers:                $CALLS1 calls of $FUNC, $ALONE1"
echo "machine 2: LC_ALL=C sort of $LINES lines, 600-byte prefix: $CALLS2 calls of $FUNC, $ALONE2"
echo
echo "Prometheus, fleet-wide ($FUNC, sum by (le) over both machines):"
printf '  calls   %s    timed %s\n' "$PROM_CALLS" "$PROM_COUNT"
printf '  median  %.1f cycles (bucket %s)\n' "$PROM_MEDIAN" "$(bucket "$PROM_MEDIAN")"
printf '  p99     %.1f cycles (bucket %s)\n' "$PROM_P99" "$(bucket "$PROM_P99")"
echo "tsctrace merge of the two reports:"
printf '  calls   %s    timed %s\n' "$CALLS" "$TIMED"
printf '  median  %s cycles (bucket %s)\n' "$MERGE_MEDIAN" "$(bucket "$MERGE_MEDIAN")"
printf '  p99     %s cycles (bucket %s)\n' "$MERGE_P99" "$(bucket "$MERGE_P99")"

if [ -n "$RESULTS" ]; then
	printf '%s\n' "calls_reports=$CALLS" "timed_reports=$TIMED" "calls_prom=$PROM_CALLS" \
		"count_prom=$PROM_COUNT" "median_prom=$PROM_MEDIAN" "p99_prom=$PROM_P99" \
		"median_merge=$MERGE_MEDIAN" "p99_merge=$MERGE_P99" >"$RESULTS"
fi
