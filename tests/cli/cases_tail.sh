# cases_tail.sh - sourced by run.sh: the tail of issue 34 in the command: p99.9 and p99.99,
# the slowest calls kept (TSC_SLOWEST, "slowest"), latency by argument (TSC_ARGS, "by_arg"),
# in report, merge, diff, plot --by-arg, export --format perfetto and OpenMetrics exemplars.
# shellcheck shell=bash disable=SC2016
#
# data/tail-a.json and tail-b.json: two real reports of one program (copy_buf(dst, src, n)
# 1,000 times with n = 64 and 100 times with 65,536 on two threads, strlen 600 times;
# TSC_CALLERS=2), given "slowest" (their 8 largest histogram values), "slowest_info" and, for
# copy_buf, "by_arg" on argument 3 by tail_data.py, as docs/report-format.md describes them.

t_tail() {
	local why o=$WORK/tail n
	mkdir -p "$o"
	golden report/slowest report-slowest.txt report --slowest --top 1 tail-a.json
	golden report/by-arg report-by-arg.txt report --by-arg tail-a.json
	golden diff/tail diff-tail.txt diff tail-a.json tail-b.json

	# Reports without them say so, once, rather than print nothing.
	if selected report/slowest-none; then
		tsc report --slowest --by-arg basic.json
		why=""
		[ $RC -eq 0 ] && grep -q '^no slowest calls in this report' "$WORK/out" &&
			grep -q '^no latency by argument in this report' "$WORK/out" ||
			why="status $RC, no note: $(tail -3 "$WORK/out")"
		verdict report/slowest-none "$why"
	fi

	# merge keeps the N slowest of all the inputs' kept calls (N = 8, the most either kept),
	# slowest first, each with its run's pid; computed here from the inputs with jq.
	if selected merge/slowest; then
		why=""
		tsc merge -o "$o/ab.json" tail-a.json tail-b.json
		jq -n --slurpfile a "$DATA/tail-a.json" --slurpfile b "$DATA/tail-b.json" '
			[$a[0], $b[0]] | map(.pid as $p | .functions[] | {name} +
				(.slowest[] | {cycles, start_ns, pid: $p}))
			| group_by(.name) | map({key: .[0].name,
				value: (sort_by(-.cycles) | .[:8] | map([.cycles, .pid, .start_ns]))})
			| from_entries' >"$o/slowest.ref"
		jq '.functions | map({key: .name,
			value: (.slowest | map([.cycles, .pid, .start_ns]))}) | from_entries' \
			"$o/ab.json" >"$o/slowest.got" 2>/dev/null
		if [ $RC -ne 0 ] || [ -s "$WORK/err" ]; then
			why="status $RC: $(cat "$WORK/err")"
		elif ! same_json "$o/slowest.ref" "$o/slowest.got"; then
			why="slowest: $(json_diff "$o/slowest.ref" "$o/slowest.got")"
		elif ! jq -e 'all(.functions[]; .slowest_info ==
				{kept: 8, timed_only: true, slower_than: null, not_kept: 0})' \
				"$o/ab.json" >/dev/null; then
			why="slowest_info: $(jq -c '[.functions[].slowest_info]' "$o/ab.json")"
		fi
		verdict merge/slowest "$why"
	fi

	# By argument: calls and timed added exactly, min the least; median and p99 of a bucket
	# both runs timed are estimates between the runs' own, and the merged by_arg says so.
	if selected merge/by-arg; then
		why=""
		tsc merge -o "$o/ab.json" tail-a.json tail-b.json
		jq -n --slurpfile a "$DATA/tail-a.json" --slurpfile b "$DATA/tail-b.json" '
			[$a[0].functions[0].by_arg.buckets, $b[0].functions[0].by_arg.buckets]
			| transpose | map({lo: .[0].lo, hi: .[0].hi, calls: (.[0].calls + .[1].calls),
				timed: (.[0].timed + .[1].timed), min: ([.[0].min, .[1].min] | min),
				median: [.[0].median, .[1].median], p99: [.[0].p99, .[1].p99]})' \
			>"$o/by_arg.ref"
		if [ $RC -ne 0 ]; then
			why="status $RC: $(cat "$WORK/err")"
		elif ! jq -e --slurpfile ref "$o/by_arg.ref" '.functions[0].by_arg as $m
				| $m.arg == 3 and $m.filter == null and $m.estimated == ["median", "p99"]
				and ([$m.buckets, $ref[0]] | transpose | all(.[0] as $g | .[1] as $r
				| $g.lo == $r.lo and $g.hi == $r.hi and $g.calls == $r.calls and
				  $g.timed == $r.timed and $g.min == $r.min and
				  $g.median >= ($r.median | min) and $g.median <= ($r.median | max) and
				  $g.p99 >= ($r.p99 | min) and $g.p99 <= ($r.p99 | max)))
				and ($m.buckets | length) == 2' "$o/ab.json" >/dev/null; then
			why="by_arg: $(jq -c '.functions[0].by_arg' "$o/ab.json")"
		fi
		verdict merge/by-arg "$why"
	fi

	# One report merged alone keeps its tail as it was (each call given the run's pid), and
	# its by_arg is not an estimate.
	if selected merge/tail-identity; then
		why=""
		tsc merge -o "$o/a.json" tail-a.json
		if [ $RC -ne 0 ]; then
			why="status $RC: $(cat "$WORK/err")"
		elif ! jq -e --slurpfile a "$DATA/tail-a.json" '
				[.functions[] | {slowest: (.slowest | map(del(.pid))), slowest_info,
				 by_arg}] == [$a[0].functions[] | {slowest, slowest_info, by_arg}] and
				all(.functions[].slowest[]; .pid == $a[0].pid)' "$o/a.json" >/dev/null; then
			why="changed: $(jq -c '.functions[0] | {slowest_info, by_arg}' "$o/a.json")"
		fi
		verdict merge/tail-identity "$why"
	fi

	# Perfetto: JSON that parses, one complete event per kept call (16) on its thread, ts and
	# dur in microseconds (91,912 cycles at 2,245,775,924 Hz: 40.926 us) from the earliest
	# time (otherData, a string: jq's doubles would round it), thread names.
	if selected export/perfetto; then
		why=""
		tsc export --format perfetto tail-a.json
		n=$(jq '[.functions[].slowest[]] | length' "$DATA/tail-a.json")
		if [ $RC -ne 0 ] || [ -s "$WORK/err" ]; then
			why="status $RC: $(cat "$WORK/err")"
		elif ! jq -e --argjson n "$n" '
				([.traceEvents[] | select(.ph == "X")] | length) == $n and $n == 16 and
				all(.traceEvents[] | select(.ph == "X"); .pid == 1722 and
				    (.tid == 1722 or .tid == 1723) and (.ts | type) == "number" and
				    .dur > 0 and (.args.args | length) == 6 and
				    (.args | has("offcpu_ns") and has("ret") and has("cpu") and
				     has("path"))) and
				any(.traceEvents[]; .ph == "X" and .name == "copy_buf" and
				    .args.cycles == 91912 and .dur == 40.926 and .tid == 1722) and
				([.traceEvents[] | select(.ph == "M" and .name == "thread_name") | .tid]
				 | sort) == [1722, 1723]' "$WORK/out" >/dev/null; then
			why="$(head -c 400 "$WORK/out")"
		elif [ -n "$PY" ]; then
			why=$("$PY" -c '
import json, sys
t, r = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
calls = [c for f in r["functions"] for c in f["slowest"]]
base = min([r["start_unix_ns"]] + [c["start_ns"] for c in calls])
if t["otherData"]["start_unix_ns"] != str(base):
    print("otherData.start_unix_ns %s, want %d" % (t["otherData"]["start_unix_ns"], base))
xs = sorted((e["ts"], e["args"]["cycles"]) for e in t["traceEvents"] if e["ph"] == "X")
want = sorted(((c["start_ns"] - base) / 1000, c["cycles"]) for c in calls)
if any(abs(a[0] - b[0]) > 0.0015 or a[1] != b[1] for a, b in zip(xs, want)):
    print("ts: %s, want %s" % (xs[:3], want[:3]))
' "$WORK/out" "$DATA/tail-a.json" 2>&1)
		fi
		verdict export/perfetto "$why"
	fi

	# A merge's calls sit on their own runs' tracks, each process named.
	if selected export/perfetto-merged; then
		why=""
		tsc merge -o "$o/ab.json" tail-a.json tail-b.json
		tsc export --format perfetto "$o/ab.json"
		if [ $RC -ne 0 ] || [ -s "$WORK/err" ]; then
			why="status $RC: $(cat "$WORK/err")"
		elif ! jq -e '([.traceEvents[] | select(.ph == "X") | .pid] | unique) == [1722, 2035]
				and ([.traceEvents[] | select(.name == "process_name") | .pid] | sort)
				== [1722, 2035] and ([.traceEvents[] | select(.ph == "X")] | length) == 16' \
				"$WORK/out" >/dev/null; then
			why="$(jq -c '[.traceEvents[] | select(.ph == "M")]' "$WORK/out")"
		fi
		verdict export/perfetto-merged "$why"
	fi

	# OpenMetrics exemplars: each bucket's slowest kept call, as the parser reads them.
	if selected export/exemplars; then
		if [ -z "$PYPROM" ]; then
			skip export/exemplars "prometheus_client (python3-prometheus-client) missing"
		else
			tsc export --openmetrics tail-a.json
			why=$(openmetrics_check "$WORK/out")
			[ $RC -ne 0 ] && why="status $RC: $(cat "$WORK/err")"
			[ -z "$why" ] && why=$("$PYPROM" -c '
import json, sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
rep = json.load(open(sys.argv[2]))
want = {}
for f in rep["functions"]:
    for c in f["slowest"]:
        k = 4
        while k <= 30 and (1 << k) - 1 < c["cycles"]:
            k += 1
        le = str((1 << k) - 1) if k <= 30 else "+Inf"
        old = want.get((f["name"], le))
        if not old or old["cycles"] < c["cycles"]:
            want[(f["name"], le)] = c
got = {}
for fam in text_string_to_metric_families(open(sys.argv[1]).read()):
    for s in fam.samples:
        if s.exemplar:
            e = s.exemplar
            got[(s.labels["function"], s.labels["le"])] = e
if set(got) != set(want):
    print("exemplars on %s, want %s" % (sorted(got), sorted(want)))
for k, c in want.items():
    e = got.get(k)
    if e and (e.value != c["cycles"] or e.labels != {"tid": str(c["tid"]), "function": k[0]}
              or e.timestamp.sec * 10**9 + e.timestamp.nsec != c["start_ns"]):
        print("%s: %s, want %s" % (k, e, c))
' "$WORK/out" "$DATA/tail-a.json" 2>&1)
			verdict export/exemplars "$why"
		fi
	fi
	# Prometheus's text format has no exemplars: the same export carries none.
	if selected export/no-exemplars-prometheus; then
		tsc export --format prometheus tail-a.json
		why=""
		[ $RC -eq 0 ] && ! grep -q ' # {' "$WORK/out" || why="status $RC or exemplars"
		verdict export/no-exemplars-prometheus "$why"
	fi

	# plot --by-arg: well-formed SVG, median and p99 through copy_buf's two buckets.
	if selected plot/by-arg; then
		why=""
		tsc plot --by-arg -o "$o/by-arg.svg" tail-a.json
		xml_ok "$o/by-arg.svg"
		n=$?
		if [ $RC -ne 0 ]; then
			why="status $RC: $(cat "$WORK/err")"
		elif [ $n -eq 1 ]; then
			why="not well-formed XML: $(head -c 300 "$WORK/xml.err")"
		elif [ "$(grep -c '<polyline' "$o/by-arg.svg")" != 2 ] ||
			[ "$(grep -c '<circle' "$o/by-arg.svg")" != 4 ]; then
			why="expected 2 lines and 4 dots (2 buckets, median and p99)"
		fi
		verdict plot/by-arg "$why"
	fi
	bad plot/by-arg-none "has no latency by argument" plot --by-arg \
		-o "$WORK/outdir/x.svg" basic.json
	bad plot/by-arg-log-y "--log-y is for histograms" plot --by-arg --log-y \
		-o "$WORK/outdir/x.svg" tail-a.json

	# What the loader refuses in a tail, one line naming the member.
	jq '.functions[0].slowest |= reverse' "$DATA/tail-a.json" >"$o/order.json"
	bad load/slowest-order "functions[0].slowest[1].cycles: slowest calls are not slowest first" \
		report "$o/order.json"
	jq '.functions[0].by_arg.arg = 7' "$DATA/tail-a.json" >"$o/arg7.json"
	bad load/by-arg-arg "functions[0].by_arg.arg: expected 1 to 6" report "$o/arg7.json"
	jq '.functions[0].slowest[0].args = [1, 2]' "$DATA/tail-a.json" >"$o/args.json"
	bad load/slowest-args "functions[0].slowest[0].args: expected six integers" \
		report "$o/args.json"
	jq '.functions[0].cycles.p999 = .functions[0].cycles.max + 1' "$DATA/tail-a.json" \
		>"$o/p999.json"
	bad load/p999-order "functions[0].cycles: p99 <= p999 <= p9999 <= max does not hold" \
		report "$o/p999.json"
	jq '.functions[0].cycles |= del(.p9999)' "$DATA/tail-a.json" >"$o/p9999.json"
	bad load/p9999-missing "functions[0].cycles.p9999: missing beside the other" \
		report "$o/p9999.json"
}
