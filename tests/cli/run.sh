#!/bin/sh
# run.sh BUILD_DIR [TEST...] - tests of the tsctrace command (BUILD_DIR/tsctrace), with the
# shim BUILD_DIR/libtsctrace.so for `run` and for real reports.
#
# Each test appends one line `PASS cli/<name>`, `FAIL cli/<name>: <why>` or `SKIP cli/<name>:
# <why>` to $RESULTS (default /dev/null) and prints one line; the run ends with "N passed,
# N failed" and fails when anything failed. TEST names (shell globs) select a subset.
#
#   golden tests   report, diff, export of the hand-written reports in data/, compared byte for
#                  byte with expected/ (UPDATE=1 rewrites expected/: review the diff!)
#   references     merge against hand-computed data/merge-ab.expected.json and against
#                  merge-ref.jq (jq) on real reports
#   sites          cases_sites.sh: merge of call sites in real reports of prog/sitesprog.c
#   run dir        cases_rundir.sh: `tsctrace run` without -o: one run directory, the summary
#                  at the end, exit status, a wrapper's cd, report of the latest run, TSC_EMPTY
#   runs           cases_analysis.sh: diff of three runs against three of prog/workprog.c
#                  (no change; three times slower: slower, exit 1 with --fail-on-slower),
#                  merge's run list and duplicates, -o's format, plot axes, rows never called
#   text reports   cases_textload.sh: a text report merges as its JSON does; shim text reports
#                  through report, diff, merge, plot, export; what the text lacks refused
#   bad input      every subcommand: exit status 2, one "tsctrace: " line on stderr, nothing
#                  on stdout, no output file or temporary file left
#   limits         endless input (/dev/zero, a pipe or FIFO that never ends) refused within
#                  seconds; report, diff and merge of 40,000 functions take no more than
#                  SCALE_LIMIT times what 4,000 take (linear: 11-16; quadratic: 100)
#
# Optional tools: python3 (p-values, XML parsing; else xmllint), promtool (Debian prometheus),
# groff (man page lint), rsvg-convert, prometheus_client (Debian python3-prometheus-client, for
# its OpenMetrics parser). A test whose tool is missing is a SKIP with a note; PY=, PROMTOOL=
# or PYPROM= (set empty) pretends that one is missing.
# KEEP=1 keeps the scratch directory (always kept when a test failed).

# shellcheck disable=SC2016	# programs for sh -c, jq and awk are single-quoted on purpose
if [ -z "${BASH_VERSION:-}" ]; then
	exec bash "$0" "$@"
fi
set -u

B=$(cd "${1:?usage: run.sh BUILD_DIR [TEST...]}" && pwd) || exit 1
shift
ONLY=("$@")
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
DATA=$HERE/data
EXP=$HERE/expected
T=$B/tsctrace
LIB=$(readlink -f "$B/libtsctrace.so")
RESULTS=${RESULTS:-/dev/null}
UPDATE=${UPDATE:-0}
SANITIZE=${SANITIZE:-}
# Optional tools; setting one empty (PROMTOOL= run.sh ...) tests the skip path.
PY=${PY-$(command -v python3 2>/dev/null)}
PROMTOOL=${PROMTOOL-$(command -v promtool 2>/dev/null)}
# A Python that has prometheus_client (Debian's, when python3 in PATH is another one).
if [ -z "${PYPROM+set}" ]; then
	PYPROM=""
	for p in python3 /usr/bin/python3; do
		if "$p" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null; then
			PYPROM=$p
			break
		fi
	done
fi

unset LD_PRELOAD TSCTRACE_LIB
for v in $(compgen -e); do
	case $v in TSC_*) unset "$v" ;; esac
done
# A shim built with ASan needs the ASan runtime loaded first (as tests/prog/run.sh does).
ASAN_RT=""
case ",$SANITIZE," in
*,address,*) ASAN_RT=$(${CC:-gcc} -print-file-name=libasan.so) ;;
esac

WORK=$(mktemp -d "${TMPDIR:-/tmp}/tsctrace-cli.XXXXXX") || exit 1
NPASS=0
NFAIL=0
NSKIP=0

# ---- helpers --------------------------------------------------------------------------------

selected() {
	local g
	[ ${#ONLY[@]} -eq 0 ] && return 0
	for g in "${ONLY[@]}"; do
		# shellcheck disable=SC2053
		[[ $1 == $g ]] && return 0
	done
	return 1
}

pass() {
	echo "PASS cli/$1" >>"$RESULTS"
	echo "  cli     $1: ok"
	NPASS=$((NPASS + 1))
}

fail() {
	echo "FAIL cli/$1: $2" >>"$RESULTS"
	echo "  cli     $1: FAILED: $2"
	NFAIL=$((NFAIL + 1))
}

skip() {
	echo "SKIP cli/$1: $2" >>"$RESULTS"
	echo "  cli     $1: skipped: $2"
	NSKIP=$((NSKIP + 1))
}

# verdict NAME WHY: pass when WHY is empty.
verdict() {
	if [ -z "$2" ]; then pass "$1"; else fail "$1" "$2"; fi
}

# tsc ARGS...: run the command from data/ (so file names in outputs are stable); stdout in
# $WORK/out, stderr in $WORK/err, status in $RC. A command still running after $TIMEOUT
# seconds (default 300) is killed, and RC is 124: a hang fails its test, not the whole run.
# With MEMLIMIT (KiB), its address space is limited to that much, so that a command reading
# endless input fails its test instead of taking the machine's memory (not under a sanitizer,
# whose shadow memory needs terabytes of address space).
tsc() {
	(cd "$DATA" && { [ -z "${MEMLIMIT:-}" ] || [ -n "$SANITIZE" ] || ulimit -v "$MEMLIMIT"; } &&
	 exec timeout -k 5 "${TIMEOUT:-300}" "$T" "$@") >"$WORK/out" 2>"$WORK/err"
	RC=$?
}

# openmetrics_check FILE: nothing when prometheus_client's OpenMetrics parser reads FILE whole
# (it checks the families, names, +Inf = _count and # EOF), else its complaint.
openmetrics_check() {
	"$PYPROM" -c '
import sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
try:
    n = sum(len(f.samples) for f in text_string_to_metric_families(open(sys.argv[1]).read()))
    if n == 0:
        print("no samples")
except Exception as e:
    print("openmetrics parser: %s" % str(e)[:300])
' "$1" 2>&1
}

# golden NAME EXPECTED ARGS...: tsctrace ARGS succeeds silently and prints expected/EXPECTED.
golden() {
	local name=$1 exp=$EXP/$2 why=""
	shift 2
	selected "$name" || return 0
	tsc "$@"
	[ "$UPDATE" = 1 ] && [ $RC -eq 0 ] && cp "$WORK/out" "$exp"
	if [ $RC -ne 0 ]; then
		why="exit status $RC: $(head -c 300 "$WORK/err")"
	elif [ -s "$WORK/err" ]; then
		why="unexpected stderr: $(head -c 300 "$WORK/err")"
	elif ! cmp -s "$WORK/out" "$exp"; then
		diff -u "$exp" "$WORK/out" >"$WORK/${name//\//-}.diff" 2>&1
		why="output differs from expected/$2 (see ${name//\//-}.diff in the scratch dir)"
	fi
	verdict "$name" "$why"
}

# bad NAME MESSAGE ARGS...: tsctrace ARGS fails with status 2, prints nothing on stdout and
# exactly one line on stderr: "tsctrace: " and containing MESSAGE. Any -o target lies in
# $WORK/outdir, which must stay empty (no output, no temporary file).
bad() {
	local name=$1 msg=$2 why=""
	shift 2
	selected "$name" || return 0
	rm -rf "$WORK/outdir"
	mkdir -p "$WORK/outdir"
	tsc "$@"
	if [ $RC -eq 124 ]; then
		why="still running after ${TIMEOUT:-300} s"
	elif [ $RC -ne 2 ]; then
		why="exit status $RC, not 2"
	elif [ -s "$WORK/out" ]; then
		why="wrote to stdout: $(head -c 200 "$WORK/out")"
	elif [ "$(wc -l <"$WORK/err")" -ne 1 ]; then
		why="stderr is not one line: $(head -c 300 "$WORK/err")"
	elif ! grep -q '^tsctrace: ' "$WORK/err"; then
		why="stderr lacks the tsctrace: prefix: $(cat "$WORK/err")"
	elif ! grep -qF -- "$msg" "$WORK/err"; then
		why="stderr does not say '$msg': $(cat "$WORK/err")"
	elif [ -n "$(find "$WORK/outdir" -mindepth 1)" ]; then
		why="left files behind: $(find "$WORK/outdir" -mindepth 1 | tr '\n' ' ')"
	fi
	verdict "$name" "$why"
}

# The part of a report that merge-ref.jq computes, functions by name.
PROJECT='{merged_from, threads, functions: (.functions | map({name, calls, timed, unwound,
	migrated, dropped, cycles: (.cycles | del(.mean)), raw: (.raw | del(.mean)),
	buckets: .histogram.buckets}) | sort_by(.name))}'

# same_json A B: the two JSON documents are equal (key order aside).
same_json() {
	[ "$(jq -S . "$1")" = "$(jq -S . "$2")" ]
}

# json_diff A B: the first lines of their difference, on one line.
json_diff() {
	diff <(jq -S . "$1") <(jq -S . "$2") | head -6 | tr '\n' ' '
}

# xml_ok FILE: FILE parses as XML with an <svg> root (python3, else xmllint); 2 if neither.
xml_ok() {
	if [ -n "$PY" ]; then
		"$PY" -c 'import sys, xml.dom.minidom as m
d = m.parse(sys.argv[1]); sys.exit(0 if d.documentElement.tagName == "svg" else 1)' "$1" \
			2>"$WORK/xml.err"
	elif command -v xmllint >/dev/null 2>&1; then
		xmllint --noout "$1" 2>"$WORK/xml.err"
	else
		return 2
	fi
}

# traced ARGS...: `tsctrace run ARGS` with the sanitizer runtime preloaded when needed (and
# no leak check: LeakSanitizer would judge the traced program, not us).
traced() {
	if [ -n "$ASAN_RT" ]; then
		LD_PRELOAD=$ASAN_RT ASAN_OPTIONS=detect_leaks=0 "$T" run "$@"
	else
		"$T" run "$@"
	fi
}

# ---- fixtures made at run time ------------------------------------------------------------

make_fixtures() {
	local d=$WORK/in
	mkdir -p "$d"
	printf 'hello\n' >"$d/notjson.txt"
	: >"$d/empty.json"
	printf '[1, 2]\n' >"$d/array.json"
	jq '.schema = 2' "$DATA/basic.json" >"$d/schema2.json"
	jq 'del(.schema)' "$DATA/basic.json" >"$d/noschema.json"
	head -c 300 "$DATA/basic.json" >"$d/truncated.json"
	jq 'del(.functions[1].cycles.p99)' "$DATA/basic.json" >"$d/nop99.json"
	jq '.functions[1].timed = 996' "$DATA/basic.json" >"$d/timed.json"
	jq '.functions[1].histogram.buckets |= reverse' "$DATA/basic.json" >"$d/order.json"
	jq '.functions[1].histogram.buckets[0][2] = 0' "$DATA/basic.json" >"$d/empty-bucket.json"
	jq '.functions[0].name = 7' "$DATA/basic.json" >"$d/name-type.json"
	jq '.functions[1].cycles.median = 99' "$DATA/basic.json" >"$d/unordered.json"
	jq '.clock.source = "sundial"' "$DATA/basic.json" >"$d/clock.json"
	sed 's/"pid": 4242,/"pid": 4242, "pid": 1,/' "$DATA/basic.json" >"$d/dupkey.json"
	# As the shim writes them (frames, all counts), and as the contract's example (fewer).
	jq '.functions[1].callers = [
		{"site": "main+0x4c (app)", "frames": ["main+0x4c (app)"], "calls": 600,
		 "timed": 598, "unwound": 0, "migrated": 1, "dropped": 1,
		 "cycles": {"min": 12, "median": 13, "p90": 14, "p99": 41, "max": 3900,
			    "mean": 30.1, "total": 18000}},
		{"site": "parse_line+0x1a (app)", "calls": 400,
		 "cycles": {"min": 12, "median": 13, "p90": 14, "p99": 20, "max": 41,
			    "mean": 38.2, "total": 15266}}]' \
		"$DATA/basic.json" >"$d/callers.json"
	jq '.functions[1].callers[0].timed = 1' "$d/callers.json" >"$d/caller-counts.json"
	jq '.functions[1].callers[1] |= del(.cycles)' "$d/callers.json" >"$d/caller-cycles.json"
	jq '.functions[2].name = "strlen"' "$DATA/basic.json" >"$d/dupname.json"
	# Self time and per-thread rows: compress_block calls strlen; two threads, one exited.
	jq '.overhead.nested = 30 |
	    .functions[0] += {"self": {"min": 3000, "median": 4000, "p90": 4000, "p99": 80000,
				       "max": 80000, "mean": 4000.5, "total": 196020},
			      "self_unknown": 1,
			      "threads": [{"tid": 4242, "name": "app", "calls": 20, "timed": 19,
					   "cycles": 200000, "self": 66020},
					  {"tid": 4250, "name": "worker-1", "calls": 30, "timed": 30,
					   "cycles": 400000, "self": 130000}]} |
	    .functions[1] += {"self": .functions[1].cycles, "self_unknown": 0,
			      "threads": [{"tid": 4242, "name": "app", "calls": 1000, "timed": 997,
					   "cycles": 33266, "self": 33266}]} |
	    .functions[2] += {"self": .functions[2].cycles, "self_unknown": 0, "threads": []}' \
		"$DATA/basic.json" >"$d/self.json"
	jq '.functions[1].names = ["memmove"]' "$DATA/alias-a.json" >"$d/names-shared.json"
	jq '.functions[0].names = []' "$DATA/alias-a.json" >"$d/names-empty.json"
	jq '.functions[0].names = ["memcpy", 7]' "$DATA/alias-a.json" >"$d/names-type.json"
}

# ---- report -------------------------------------------------------------------------------

t_report() {
	golden report/basic report-basic.txt report basic.json
	golden report/sort-name-top report-name-top2.txt report --sort name --top 2 basic.json
	golden report/sort-calls report-calls.txt report -s calls basic.json
	golden report/monotonic report-mono.txt report mono.json
	golden report/two-files report-two.txt report basic.json mono.json
	golden report/escaping report-odd.txt report odd.json
	golden report/callers report-callers.txt report --callers "$WORK/in/callers.json"
	golden report/callers-hidden report-basic.txt report "$WORK/in/callers.json"
	golden report/no-callers report-no-callers.txt report --callers --top 1 mono.json
	golden report/self report-self.txt report --self --threads "$WORK/in/self.json"
	golden report/sort-self report-self-name.txt report --sort self --top 1 "$WORK/in/self.json"
	golden report/self-none report-self-none.txt report --self --threads --top 1 basic.json

	local why=""
	if selected report/stdin; then
		(cd "$DATA" && "$T" report - <basic.json) >"$WORK/out" 2>"$WORK/err"
		cmp -s "$WORK/out" "$EXP/report-basic.txt" || why="report - differs from report FILE"
		verdict report/stdin "$why"
	fi
	# Nothing a terminal would obey may come through from the report's strings.
	if selected report/no-control-chars; then
		why=""
		tsc report --callers odd.json
		LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]' "$WORK/out" &&
			why="control characters in the output"
		verdict report/no-control-chars "$why"
	fi
}

# ---- diff ---------------------------------------------------------------------------------

t_diff() {
	local why
	golden diff/golden diff-base-new.txt diff base.json new.json
	golden diff/same diff-same.txt diff base.json base.json
	bad diff/units "not comparable" diff basic.json mono.json
	bad diff/one-file "takes two reports" diff basic.json
	golden diff/runs diff-runs.txt diff base.json runs-base2.json -- new.json runs-new2.json
	# Sampled percentiles (TSC_BUDGET): the runs agree exactly on each side, +10% between;
	# hash's median has wide 95% bounds in every run, parse's narrow ones: hash is "not
	# enough runs", not "slower" (without the runs' ci95 both read slower).
	golden diff/sampled diff-sampled.txt diff sampled-a1.json sampled-a2.json sampled-a3.json \
		-- sampled-b1.json sampled-b2.json sampled-b3.json
	bad diff/same-run "base.json and base.json are the same run" \
		diff base.json base.json -- new.json runs-new2.json
	bad diff/empty-side "no new report after '--'" diff base.json runs-base2.json --
	bad diff/threshold "--threshold takes a percentage" diff --threshold 0% base.json new.json
	bad diff/stat "--stat takes min, median" diff --stat p50 base.json new.json
}

# ---- merge --------------------------------------------------------------------------------

t_merge() {
	local why o=$WORK/merge
	mkdir -p "$o"

	if selected merge/known-example; then
		why=""
		tsc merge -o "$o/ab.json" merge-a.json merge-b.json
		if [ $RC -ne 0 ] || [ -s "$WORK/err" ]; then
			why="status $RC: $(cat "$WORK/err")"
		elif ! same_json "$o/ab.json" "$DATA/merge-ab.expected.json"; then
			why="differs from data/merge-ab.expected.json: $(json_diff \
				"$DATA/merge-ab.expected.json" "$o/ab.json")"
		fi
		verdict merge/known-example "$why"
	fi

	# Self time and threads (hand-computed, data/self-ab.expected.json): self sums, extremes
	# and percentiles from the union of the self buckets (a leaf's are its cycles'); each
	# run's thread rows kept apart, labelled with their pid. Also read back by report.
	if selected merge/self-threads; then
		why=""
		tsc merge -o "$o/self-ab.json" self-a.json self-b.json
		if [ $RC -ne 0 ] || [ -s "$WORK/err" ]; then
			why="status $RC: $(cat "$WORK/err")"
		else
			jq '[.functions[] | {name, self, self_unknown, self_histogram, threads}]' \
				"$o/self-ab.json" >"$o/self-ab.proj"
			same_json "$o/self-ab.proj" "$DATA/self-ab.expected.json" ||
				why="differs from data/self-ab.expected.json: $(json_diff \
					"$DATA/self-ab.expected.json" "$o/self-ab.proj")"
			tsc report --threads "$o/self-ab.json"
			[ $RC -eq 0 ] && grep -Eq '^ +300 +301 +b1 ' "$WORK/out" ||
				why="${why:+$why; }report --threads shows no pid 300 tid 301 row"
		fi
		verdict merge/self-threads "$why"
	fi

	# Reports that subtracted different overheads: buckets overlap and stay apart.
	if selected merge/overlapping-buckets; then
		why=""
		tsc merge -o "$o/ac.json" merge-a.json merge-c.json
		jq -s -f "$HERE/merge-ref.jq" "$DATA/merge-a.json" "$DATA/merge-c.json" >"$o/ac.ref"
		jq "$PROJECT" "$o/ac.json" >"$o/ac.proj" 2>/dev/null
		if [ $RC -ne 0 ]; then
			why="status $RC: $(cat "$WORK/err")"
		elif ! same_json "$o/ac.proj" "$o/ac.ref"; then
			why="differs from merge-ref.jq"
		elif [ "$(jq -c '.functions[] | select(.name == "g")
				| [.histogram.buckets, .cycles.median, .raw.median]' "$o/ac.json")" \
			!= '[[[1100,1107,4],[1104,1111,2]],1107,1127]' ]; then
			why="g: $(jq -c '.functions[] | select(.name == "g")' "$o/ac.json")"
		elif ! jq -e '.warnings | any(test("different overheads"))' "$o/ac.json" >/dev/null; then
			why="no warning about the different overheads"
		fi
		verdict merge/overlapping-buckets "$why"
	fi

	# One report merged alone gives back its own numbers, and "names" (which basic.json,
	# from before it, lacks) from the names.
	if selected merge/identity; then
		why=""
		tsc merge -o "$o/one.json" basic.json
		jq 'del(.merged_from, .merged) | del(.functions[].names)' "$o/one.json" >"$o/one.cmp"
		same_json "$o/one.cmp" "$DATA/basic.json" ||
			why="merge of one report changed it: $(json_diff "$DATA/basic.json" "$o/one.cmp")"
		jq -e 'all(.functions[]; .names == [.name])' "$o/one.json" >/dev/null ||
			why="${why:+$why; }names are not [name]: $(jq -c '[.functions[] | {name, names}]' "$o/one.json")"
		verdict merge/identity "$why"
	fi

	# A merged report is a valid report: it reads back, and merges again.
	if selected merge/again; then
		why=""
		tsc merge -o "$o/abc1.json" merge-a.json merge-b.json merge-c.json
		tsc merge -o "$o/ab2.json" merge-a.json merge-b.json
		tsc merge -o "$o/abc2.json" "$o/ab2.json" merge-c.json
		if [ $RC -ne 0 ]; then
			why="merging a merged report failed: $(cat "$WORK/err")"
		elif [ "$(jq .merged_from "$o/abc2.json")" != 3 ]; then
			why="merged_from is $(jq .merged_from "$o/abc2.json"), not 3"
		elif [ "$(jq -S .functions "$o/abc1.json")" != "$(jq -S .functions "$o/abc2.json")" ]; then
			why="merge(merge(a, b), c) != merge(a, b, c)"
		else
			tsc report "$o/abc2.json"
			[ $RC -eq 0 ] || why="report cannot read a merged report: $(cat "$WORK/err")"
		fi
		verdict merge/again "$why"
	fi

	bad merge/units "not mergeable" merge -o "$WORK/outdir/m.json" basic.json mono.json
	bad merge/no-output "-o OUT is required" merge basic.json
	bad merge/bad-dir "cannot write" merge -o "$WORK/outdir/no/such/dir/m.json" basic.json

	# Bad input leaves an existing output file as it was.
	if selected merge/keeps-old-output; then
		why=""
		printf 'old\n' >"$o/keep.json"
		tsc merge -o "$o/keep.json" basic.json "$WORK/in/notjson.txt"
		[ $RC -eq 2 ] || why="status $RC"
		[ "$(cat "$o/keep.json")" = old ] || why="the existing output was replaced"
		[ -z "$(find "$o" -name '.keep.json.*')" ] || why="temporary file left"
		verdict merge/keeps-old-output "$why"
	fi
}

# Real reports from the shim (three runs of sort), then merge against merge-ref.jq.
t_real() {
	local why="" r=$WORK/real i
	selected merge/reference-real || selected run/trace-sort || selected export/promtool-real ||
		selected export/openmetrics-real ||
		return 0
	mkdir -p "$r"
	seq 1 20000 | awk '{ print ($1 * 7919) % 20011 }' >"$r/in.txt"
	sort "$r/in.txt" >"$r/expected.txt"
	for i in 1 2 3; do
		(cd "$r" && traced -f strlen,memcmp,malloc,free -o "$r/rep.$i.json" --json \
			-- sort in.txt) >"$r/out.$i" 2>"$r/err.$i"
		echo $? >"$r/rc.$i"
	done
	if selected run/trace-sort; then
		for i in 1 2 3; do
			[ "$(cat "$r/rc.$i")" = 0 ] || why="run $i: status $(cat "$r/rc.$i")"
			cmp -s "$r/out.$i" "$r/expected.txt" || why="run $i: stdout differs from untraced sort"
			jq -e '.functions | map(.name) | index("memcmp") != null' "$r/rep.$i.json" \
				>/dev/null 2>&1 || why="run $i: no report with memcmp"
		done
		verdict run/trace-sort "$why"
	fi
	if selected merge/reference-real; then
		why=""
		tsc merge -o "$r/merged.json" "$r"/rep.*.json
		if [ $RC -ne 0 ]; then
			why="merge failed: $(cat "$WORK/err")"
		else
			jq "$PROJECT" "$r/merged.json" >"$r/merged.proj"
			jq -s -f "$HERE/merge-ref.jq" "$r"/rep.*.json >"$r/merged.ref"
			same_json "$r/merged.proj" "$r/merged.ref" ||
				why="differs from merge-ref.jq: $(json_diff "$r/merged.ref" "$r/merged.proj")"
			# means: total over the merged histogram's count, printed to one decimal,
			# so off by at most half of 0.1 (plus the binary rounding of that half)
			jq -e '.functions | all(((.histogram.buckets | map(.[2]) | add) // 0) as $n
				| if $n == 0 then .cycles.mean == 0
				  else ((.cycles.mean - .cycles.total / $n) | fabs) <= 0.0501 end)' \
				"$r/merged.json" >/dev/null || why="${why:+$why; }a mean is not total / count"
		fi
		verdict merge/reference-real "$why"
	fi
	if selected export/promtool-real; then
		if [ -z "$PROMTOOL" ]; then
			skip export/promtool-real "promtool is not installed (apt-get install prometheus)"
		else
			why=""
			tsc export --format prometheus "$r"/rep.*.json
			"$PROMTOOL" check metrics <"$WORK/out" >"$WORK/promtool.out" 2>&1 ||
				why="promtool: $(head -c 300 "$WORK/promtool.out")"
			verdict export/promtool-real "$why"
		fi
	fi
	if selected export/openmetrics-real; then
		if [ -z "$PYPROM" ]; then
			skip export/openmetrics-real "python3-prometheus-client is not installed (apt-get install python3-prometheus-client)"
		else
			tsc export --format openmetrics --label-pid "$r"/rep.*.json
			verdict export/openmetrics-real "$(openmetrics_check "$WORK/out")"
		fi
	fi
}

# ---- plot ---------------------------------------------------------------------------------

t_plot() {
	local why o=$WORK/plot rc
	mkdir -p "$o"
	if selected plot/xml; then
		why=""
		tsc plot -o "$o/basic.svg" basic.json
		xml_ok "$o/basic.svg"
		rc=$?
		if [ $RC -ne 0 ]; then
			why="status $RC: $(cat "$WORK/err")"
		elif [ $rc -eq 2 ]; then
			skip plot/xml "neither python3 nor xmllint is installed"
			why=skip
		elif [ $rc -ne 0 ]; then
			why="not well-formed XML: $(head -c 300 "$WORK/xml.err")"
		elif [ "$(grep -c '<polyline' "$o/basic.svg")" != 2 ]; then
			why="expected 2 percentile curves (2 functions with timed calls)"
		elif [ "$(grep -c '<rect' "$o/basic.svg")" != $((1 + 3 + 6)) ]; then
			why="expected a background and 9 histogram bars"
		fi
		[ "$why" = skip ] || verdict plot/xml "$why"
	fi
	if selected plot/one-function; then
		why=""
		tsc plot -f strlen -o "$o/strlen.svg" basic.json
		[ $RC -eq 0 ] || why="status $RC: $(cat "$WORK/err")"
		[ "$(grep -c '<polyline' "$o/strlen.svg")" = 1 ] || why="not exactly one chart"
		grep -q 'compress_block' "$o/strlen.svg" && why="plots other functions too"
		verdict plot/one-function "$why"
	fi
	if selected plot/escaping; then
		why=""
		tsc plot -o "$o/odd.svg" odd.json
		xml_ok "$o/odd.svg"
		rc=$?
		[ $RC -eq 0 ] || why="status $RC: $(cat "$WORK/err")"
		[ $rc -eq 1 ] && why="odd names break the XML: $(head -c 300 "$WORK/xml.err")"
		[ $rc -eq 2 ] && why="" && skip plot/escaping "neither python3 nor xmllint is installed"
		[ $rc -eq 2 ] || verdict plot/escaping "$why"
	fi
	if selected plot/monotonic; then
		why=""
		tsc plot -o "$o/mono.svg" mono.json
		[ $RC -eq 0 ] || why="status $RC: $(cat "$WORK/err")"
		grep -q 'ns (log scale)' "$o/mono.svg" || why="the axes do not say ns"
		verdict plot/monotonic "$why"
	fi
	if selected plot/renders; then
		if ! command -v rsvg-convert >/dev/null 2>&1; then
			skip plot/renders "rsvg-convert is not installed (librsvg2-bin)"
		else
			rsvg-convert -o "$o/basic.png" "$o/basic.svg" 2>"$WORK/rsvg.err"
			verdict plot/renders "$([ -s "$o/basic.png" ] || cat "$WORK/rsvg.err")"
		fi
	fi
	bad plot/unknown-function "has no function named nosuch" \
		plot -f nosuch -o "$WORK/outdir/x.svg" basic.json
	bad plot/no-output "-o OUT.svg is required" plot basic.json
	bad plot/two-files "takes one report" plot -o "$WORK/outdir/x.svg" basic.json mono.json
}

# ---- export -------------------------------------------------------------------------------

t_export() {
	local why f
	golden export/golden export-basic-mono.txt export --openmetrics basic.json mono.json
	golden export/golden-prometheus export-prometheus.txt export --format prometheus \
		--label host=db1 --label-pid basic.json mono.json
	# Sampled reports (cases_weighted.sh's data): each timed call counts as the calls it
	# stands for, its weight under a budget, 4 at TSC_SAMPLE=4, 1 timed in full: _count
	# 1000 + 2000 + 4 x 10 + 4 = 3044, _sum 28000 + 38000 + 4 x 10000 + 400 = 106400; the
	# exact calls (3046) and the 34 timed in their own counters.
	golden export/golden-sampled export-sampled.txt export --format prometheus budget-a.json \
		budget-b.json fixed-c.json full-d.json
	bad export/no-format "--format prometheus|openmetrics" export basic.json
	bad export/unknown-format "unknown format xml" export --format xml basic.json
	bad export/label-syntax "--label host: expected NAME=VALUE" export -f prometheus \
		--label host basic.json
	bad export/label-name "--label 1x: a label name is letters" export -f prometheus \
		--label 1x=y basic.json
	bad export/label-reserved "--label function: tsctrace sets this label itself" \
		export -f prometheus --label function=y basic.json
	bad export/label-twice "--label host given twice" export -f prometheus --label host=a \
		--label host=b basic.json

	# Cumulative counts never fall, +Inf equals _count, every series has the same 27 finite
	# edges 2^k - 1 (k = 4..30), in both formats.
	for f in prometheus openmetrics; do
		selected "export/layout-$f" || continue
		tsc export --format $f basic.json mono.json odd.json base.json
		why=$(awk '
			/_bucket\{/ {
				key = $0; sub(/,le="[^"]*"\} [0-9]+$/, "", key); sub(/_bucket/, "", key)
				if (key in last && $NF < last[key]) print "falls: " $0
				last[key] = $NF
				le = $0; sub(/.*le="/, "", le); sub(/".*/, "", le)
				if (le == "+Inf") { inf[key] = $NF; if (nle[key] != 27) print nle[key] " edges: " key; next }
				k = nle[key] + 4; nle[key]++
				want = 2 ^ k - 1
				if (key ~ /^tsctrace_call_seconds/) want = sprintf("%.9f", want / 1e9)
				if (le != want "") print "edge " le " != " want ": " key
			}
			/_count\{/ { key = $0; sub(/\} [0-9]+$/, "", key); sub(/_count/, "", key)
				if (inf[key] != $NF) print "+Inf != _count: " $0 }
			END { if (!NR) print "no output" }' "$WORK/out" | head -3)
		if [ $f = openmetrics ]; then
			tail -n 1 "$WORK/out" | grep -qx '# EOF' || why="${why}does not end with # EOF"
		else
			grep -q '# EOF' "$WORK/out" && why="${why}# EOF in the Prometheus format"
		fi
		verdict "export/layout-$f" "$why"
	done
	# Two reports of one program with no pid label are one series: the sum of both.
	if selected export/sum; then
		tsc export -f prometheus basic.json basic.json
		why=""
		grep -qx 'tsctrace_calls_total{function="strlen",program="app",hook="got"} 2000' \
			"$WORK/out" || why="strlen calls not 2 x 1000: $(grep calls_total "$WORK/out" | head -2)"
		grep -qx 'tsctrace_call_cycles_count{function="strlen",program="app",hook="got"} 1994' \
			"$WORK/out" || why="${why}strlen count not 2 x 997"
		grep -qx 'tsctrace_call_cycles_sum{function="strlen",program="app",hook="got"} 66532' \
			"$WORK/out" || why="${why}strlen sum not 2 x 33266"
		verdict export/sum "$why"
	fi
	if selected export/promtool; then
		if [ -z "$PROMTOOL" ]; then
			skip export/promtool "promtool is not installed (apt-get install prometheus)"
		else
			why=""
			tsc export --format prometheus --label host=a --label-pid basic.json mono.json \
				odd.json new.json merge-a.json
			"$PROMTOOL" check metrics <"$WORK/out" >"$WORK/promtool.out" 2>&1 ||
				why="promtool: $(head -c 300 "$WORK/promtool.out")"
			verdict export/promtool "$why"
		fi
	fi
	if selected export/openmetrics-parser; then
		if [ -z "$PYPROM" ]; then
			skip export/openmetrics-parser "python3-prometheus-client is not installed (apt-get install python3-prometheus-client)"
		else
			tsc export --format openmetrics --label 'host=a"b' basic.json mono.json odd.json \
				new.json merge-a.json
			why=$(openmetrics_check "$WORK/out")
			verdict export/openmetrics-parser "$why"
		fi
	fi
	if selected export/to-file; then
		why=""
		tsc export --openmetrics -o "$WORK/export.txt" basic.json mono.json
		[ $RC -eq 0 ] && [ ! -s "$WORK/out" ] || why="status $RC or output on stdout"
		cmp -s "$WORK/export.txt" "$EXP/export-basic-mono.txt" || why="file differs from stdout"
		verdict export/to-file "$why"
	fi
}

# ---- fleet: the live export through the real node_exporter and Prometheus ----------------
# examples/fleet/fleet.sh: two "machines" (a node_exporter each, textfile collector) whose
# traced sort writes TSC_EXPORT, one Prometheus scraping both every second. Prometheus's sums
# must be the reports' exactly, and its fleet-wide median and p99 (histogram_quantile over
# sum by (le)) must lie in the fixed bucket (le = 2^k - 1) of the merged report's, or in the
# next one when the merged figure is within 1% of the edge between them (a report bucket
# straddling the edge, expo.h).
t_fleet() {
	local why="" res=$WORK/fleet.res rc
	selected fleet/prometheus || return 0
	if [ -n "$SANITIZE" ]; then
		skip fleet/prometheus "runs in the plain build only (the shim's export runs under sanitizers in the program tests export_*)"
		return 0
	fi
	TSCTRACE=$T timeout -k 5 180 bash "$TOP/examples/fleet/fleet.sh" -o "$res" \
		>"$WORK/fleet.out" 2>"$WORK/fleet.err"
	rc=$?
	if [ $rc -eq 3 ]; then
		skip fleet/prometheus "$(head -1 "$WORK/fleet.err")"
		return 0
	fi
	if [ $rc -ne 0 ] || [ ! -s "$res" ]; then
		verdict fleet/prometheus "fleet.sh: status $rc: $(head -c 300 "$WORK/fleet.err")"
		return 0
	fi
	sed 's/^/  cli     fleet: /' "$WORK/fleet.out"
	why=$(python3 - "$res" <<'EOF'
import sys
r = dict(l.strip().split("=", 1) for l in open(sys.argv[1]) if "=" in l)
def bucket(v):
    k = 4
    while k < 31 and v > 2 ** k - 1:
        k += 1
    return k
out = []
if r["calls_prom"] != r["calls_reports"]:
    out.append("calls: Prometheus %s, reports %s" % (r["calls_prom"], r["calls_reports"]))
if r["count_prom"] != r["timed_reports"]:
    out.append("timed: Prometheus %s, merged report %s" % (r["count_prom"], r["timed_reports"]))
for q in ("median", "p99"):
    p, m = float(r[q + "_prom"]), float(r[q + "_merge"])
    bp, bm = bucket(p), bucket(m)
    if not (bp == bm or (bp == bm + 1 and m >= 0.99 * (2 ** bm - 1))):
        out.append("%s: Prometheus %.1f (le=%d), merged report %d (le=%d)"
                   % (q, p, 2 ** bp - 1, m, 2 ** bm - 1))
print("; ".join(out))
EOF
)
	verdict fleet/prometheus "$why"
}

# ---- names: every name of an entry finds it ------------------------------------------------
# data/alias-a.json has memcpy and memmove as one entry ("memcpy|memmove", names in order);
# alias-b.json, from before "names", has memcpy alone; alias-c.json has them apart (another
# machine, two addresses). Each also has strlen.

t_names() {
	local why n o=$WORK/names
	mkdir -p "$o"
	golden names/diff-alias-old diff-alias-a-b.txt diff alias-a.json alias-b.json
	golden names/diff-alias-apart diff-alias-a-c.txt diff alias-a.json alias-c.json
	if selected names/plot; then
		why=""
		for n in memcpy memmove 'memcpy|memmove'; do
			tsc plot -f "$n" -o "$o/p.svg" alias-a.json
			if [ $RC -ne 0 ]; then
				why="-f $n: status $RC: $(cat "$WORK/err")"
			elif [ "$(grep -c '<polyline' "$o/p.svg")" != 1 ] || grep -q strlen "$o/p.svg"; then
				why="-f $n: not exactly the one chart of memcpy|memmove"
			fi
			[ -z "$why" ] || break
		done
		tsc plot -f memcpy -o "$o/p.svg" alias-b.json
		[ -n "$why" ] || [ $RC -eq 0 ] || why="-f memcpy of a report without names: $(cat "$WORK/err")"
		verdict names/plot "$why"
	fi
	bad names/plot-missing "alias-b.json has no function named memmove" \
		plot -f memmove -o "$WORK/outdir/p.svg" alias-b.json
	# The text names each alias as a word: its three table rows and its histogram heading;
	# and so does the text of a merge of alias-a and alias-c, which is one function.
	if selected names/report; then
		why=""
		tsc report alias-a.json
		cp "$WORK/out" "$o/a.txt"
		tsc merge -o "$o/ac.json" alias-a.json alias-c.json
		tsc report "$o/ac.json"
		cp "$WORK/out" "$o/ac.txt"
		for f in a ac; do
			for n in memcpy memmove; do
				[ "$(grep -cw -- "$n" "$o/$f.txt")" = 4 ] &&
					grep -w -- "$n" "$o/$f.txt" | grep -q '^histogram of memcpy|memmove in' ||
					why="${why}$f: grep -w $n finds $(grep -cw -- "$n" "$o/$f.txt") lines, not 4; "
			done
		done
		tsc report alias-b.json
		[ $RC -eq 0 ] || why="${why}a report without names: $(cat "$WORK/err")"
		verdict names/report "$why"
	fi
	# Merged through the names: memcpy|memmove (a), memcpy (b) and memcpy + memmove apart (c)
	# are one function of 41 + 41 + 21 + 21 calls; the names first seen first.
	if selected names/merge; then
		why=""
		tsc merge -o "$o/abc.json" alias-a.json alias-b.json alias-c.json
		if [ $RC -ne 0 ]; then
			why="status $RC: $(cat "$WORK/err")"
		elif ! jq -e '(.functions | length) == 2 and (.functions[0] | .name == "memcpy|memmove"
				and .names == ["memcpy", "memmove"] and .calls == 124 and .timed == 120
				and .histogram.buckets == [[10,10,40],[12,12,40],[14,14,20],[16,16,20]])
				and (.functions[1] | .names == ["strlen"] and .calls == 90)' \
				"$o/abc.json" >/dev/null; then
			why="got $(jq -c '[.functions[] | {name, names, calls, timed, b: .histogram.buckets}]' "$o/abc.json")"
		else
			tsc merge -o "$o/ca.json" alias-c.json alias-a.json
			jq -e '.functions[0] | .name == "memmove|memcpy" and .names == ["memmove", "memcpy"]
				and .calls == 83' "$o/ca.json" >/dev/null ||
				why="merge c a: $(jq -c '.functions[0] | {name, names, calls}' "$o/ca.json")"
			tsc plot -f memmove -o "$o/p.svg" "$o/abc.json"
			[ $RC -eq 0 ] || why="${why}plot -f memmove of the merged report: $(cat "$WORK/err")"
		fi
		verdict names/merge "$why"
	fi
	# OpenMetrics: one series per entry, labelled with its display name; the merged
	# memcpy|memmove is one series.
	if selected names/export; then
		why=""
		tsc merge -o "$o/abc.json" alias-a.json alias-b.json alias-c.json
		tsc export --openmetrics "$o/abc.json"
		[ "$(grep -c '^tsctrace_calls_total{' "$WORK/out")" = 2 ] &&
			grep -q '^tsctrace_calls_total{function="memcpy|memmove",.*} 124$' "$WORK/out" ||
			why="not one tsctrace_calls_total series per function, function=\"memcpy|memmove\" 124: $(grep '^tsctrace_calls_total{' "$WORK/out" | tr '\n' ' ')"
		verdict names/export "$why"
	fi
	bad names/shared "functions[1].names: memmove is also a name of functions[0]" \
		report "$WORK/in/names-shared.json"
	bad names/empty "functions[0].names: expected a non-empty array of strings" \
		report "$WORK/in/names-empty.json"
	bad names/type "functions[0].names: expected a non-empty array of strings" \
		report "$WORK/in/names-type.json"
}

# ---- bad input, every subcommand ----------------------------------------------------------

t_errors() {
	local in=$WORK/in o=$WORK/outdir cmd
	local -A pre=(
		[report]="report"
		[diff]="diff basic.json"
		[merge]="merge -o $o/m.json"
		[plot]="plot -o $o/p.svg"
		[export]="export --openmetrics -o $o/e.txt"
	)
	for cmd in report diff merge plot export; do
		# shellcheck disable=SC2086	# pre[] holds words on purpose
		bad "errors/$cmd-missing-file" "cannot open $in/nosuch.json: No such file" \
			${pre[$cmd]} "$in/nosuch.json"
		# shellcheck disable=SC2086
		bad "errors/$cmd-not-json" "notjson.txt: not a JSON report" ${pre[$cmd]} "$in/notjson.txt"
		# shellcheck disable=SC2086
		bad "errors/$cmd-schema" "report schema 2 is not supported" ${pre[$cmd]} "$in/schema2.json"
		# shellcheck disable=SC2086
		bad "errors/$cmd-option" "unknown option '--bogus'" ${pre[$cmd]} --bogus basic.json
		# shellcheck disable=SC2086
		bad "errors/$cmd-short-option" "unknown option '-Z'" ${pre[$cmd]} -Z basic.json
		# Endless input: refused at its first byte, not read until memory runs out.
		# shellcheck disable=SC2086
		MEMLIMIT=1048576 TIMEOUT=20 bad "errors/$cmd-dev-zero" \
			"/dev/zero: not a JSON report: a NUL byte at offset 0" ${pre[$cmd]} /dev/zero
	done
	bad errors/directory "cannot read $in: Is a directory" report "$in"
	bad errors/empty-file "empty.json: not a JSON report" report "$in/empty.json"
	bad errors/array "the top level is not an object" report "$in/array.json"
	bad errors/no-schema "no \"schema\" member" report "$in/noschema.json"
	bad errors/truncated "truncated.json: not a JSON report" report "$in/truncated.json"
	bad errors/missing-field "functions[1].cycles.p99: missing" report "$in/nop99.json"
	bad errors/counts "functions[1]: timed + skipped + unwound + migrated + dropped is not calls" \
		report "$in/timed.json"
	bad errors/bucket-order "functions[1].histogram.buckets[1]: buckets are not in ascending order" \
		report "$in/order.json"
	bad errors/empty-bucket "buckets[0]: an empty bucket" report "$in/empty-bucket.json"
	bad errors/type "functions[0].name: expected a string" report "$in/name-type.json"
	bad errors/unordered-stats "functions[1].cycles: min <= median" report "$in/unordered.json"
	bad errors/clock-source "clock.source: expected \"tsc\" or \"monotonic\"" report "$in/clock.json"
	bad errors/duplicate-key "duplicate object key" report "$in/dupkey.json"
	bad errors/caller-counts "functions[1].callers[0]: timed + skipped + unwound" \
		report "$in/caller-counts.json"
	bad errors/caller-cycles "functions[1].callers[1].cycles: missing" \
		report "$in/caller-cycles.json"
	bad errors/duplicate-name "functions[2].name: listed twice" report "$in/dupname.json"
	bad errors/report-no-file "no report given" report
	bad errors/report-sort "--sort takes total, calls, median, p99, p999, name or self, not 'size'" \
		report --sort size basic.json
	bad errors/report-top "--top takes a positive count, not '0'" report --top 0 basic.json
	bad errors/report-top-missing "option '--top' needs a value" report basic.json --top
	bad errors/merge-merge-missing-o-value "option '-o' needs a value" merge basic.json -o
	bad errors/no-command "no command given"
	bad errors/unknown-command "unknown command 'frobnicate'" frobnicate
	# The first bad file is named even when a good one comes after.
	bad errors/second-file "cannot open nosuch.json" report basic.json nosuch.json mono.json
}

# ---- limits: endless input, 40,000 functions ------------------------------------------------

# endless_writer FIFO: blanks into FIFO until its reader goes (or kill $!): JSON that never
# ends and never becomes wrong, so only the cap stops it.
endless_writer() {
	yes ' ' >"$1" 2>/dev/null &
}

t_limits() {
	local why fifo=$WORK/in/fifo size
	mkfifo "$fifo" || { fail limits/fifo "mkfifo failed"; return; }
	size=$(wc -c <"$DATA/basic.json")
	TSCTRACE_MAX_INPUT=1000 bad limits/cap "basic.json: larger than 1000 bytes, the most read" \
		report basic.json
	TSCTRACE_MAX_INPUT=$size golden limits/cap-exact report-basic.txt report basic.json
	TSCTRACE_MAX_INPUT=12X bad limits/cap-malformed "TSCTRACE_MAX_INPUT=12X: expected a size" \
		report basic.json
	# The default cap, 256 MiB of blanks through a FIFO: a few seconds.
	endless_writer "$fifo"
	MEMLIMIT=1048576 TIMEOUT=60 bad limits/endless-fifo \
		"$fifo: larger than 256 MiB, the most read" merge -o "$WORK/outdir/m.json" basic.json \
		"$fifo"
	kill $! 2>/dev/null
	wait $! 2>/dev/null
	endless_writer "$fifo"
	TSCTRACE_MAX_INPUT=1M MEMLIMIT=1048576 TIMEOUT=20 bad limits/endless-stdin \
		"-: larger than 1 MiB" report - <"$fifo"
	kill $! 2>/dev/null
	wait $! 2>/dev/null
	# A report of normal size still reads from a FIFO and from a pipe.
	cat "$DATA/basic.json" >"$fifo" &
	golden limits/fifo report-basic.txt report "$fifo"
	kill $! 2>/dev/null
	wait $! 2>/dev/null
	if selected limits/pipe; then
		why=""
		# shellcheck disable=SC2002	# a pipe on purpose: not a file on stdin
		(cd "$DATA" && cat basic.json | "$T" report -) >"$WORK/out" 2>"$WORK/err"
		cmp -s "$WORK/out" "$EXP/report-basic.txt" ||
			why="report - from a pipe: $(head -c 300 "$WORK/err")"
		verdict limits/pipe "$why"
	fi
	t_scale
}

# gen_report N OFF PID ALIAS: a report of functions f<OFF>..f<OFF+N-1>, f<k> called k % 7 + 1
# times at 10 cycles (30 raw); with ALIAS=1 each has a second name, g<k> ("f<k>|g<k>").
gen_report() {
	awk -v n="$1" -v off="$2" -v pid="$3" -v alias="$4" 'BEGIN {
		print "{\"schema\": 1, \"tool\": \"tsctrace 0.1.0\","
		printf "\"program\": \"/bin/gen\", \"argv\": [\"gen\"], \"pid\": %d, ", pid
		print "\"start_unix_ns\": 1, \"wall_ns\": 1,"
		print "\"clock\": {\"source\": \"tsc\", \"serialize\": \"rdtscp\", \"tsc_hz\": 1000000000,"
		print " \"tsc_hz_source\": \"calibrated\", \"invariant\": true, \"hypervisor\": false,"
		print " \"granularity\": 1, \"cpu\": \"x\"},"
		print "\"overhead\": {\"min\": 20, \"median\": 20, \"subtracted\": 20,"
		print " \"source\": \"calibrated\"},"
		print "\"threads\": {\"traced\": 1, \"pinned\": 0, \"migrations\": 0},"
		print "\"warnings\": [], \"functions\": ["
		for (i = 0; i < n; i++) {
			k = i + off
			c = k % 7 + 1
			if (alias)
				printf "%s{\"name\": \"f%d|g%d\", \"names\": [\"f%d\", \"g%d\"], ",
					i ? "," : "", k, k, k, k
			else
				printf "%s{\"name\": \"f%d\", ", i ? "," : "", k
			printf "\"symbol\": \"f%d\", \"object\": \"/bin/gen\", ", k
			printf "\"hook\": \"got\", \"calls\": %d, \"timed\": %d, ", c, c
			print "\"unwound\": 0, \"migrated\": 0, \"dropped\": 0, \"first\": 1,"
			printf " \"cycles\": {\"min\": 10, \"median\": 10, \"p90\": 10, "
			printf "\"p99\": 10, \"max\": 10, \"mean\": 10, \"total\": %d},\n", 10 * c
			printf " \"raw\": {\"min\": 30, \"median\": 30, \"p90\": 30, "
			printf "\"p99\": 30, \"max\": 30, \"mean\": 30, \"total\": %d},\n", 30 * c
			printf " \"histogram\": {\"of\": \"cycles\", "
			printf "\"buckets\": [[10, 10, %d]]}}\n", c
		}
		print "]}"
	}'
}

# cpu_time ARGS...: the CPU seconds (user + system) of tsctrace ARGS run in $WORK/scale, or
# "fail" when it fails or runs past 120 s (a guard on the test's length, not its verdict).
cpu_time() {
	local TIMEFORMAT='%3U %3S' rc
	# Redirections inside, and no exec: bash times a subshell from within it, so it would
	# send its report to the command's stderr, or lose it with the exec'ed subshell.
	{ time (cd "$WORK/scale" && timeout -k 5 120 "$T" "$@" >/dev/null \
		2>"$WORK/scale/err"); } 2>"$WORK/scale/time"
	rc=$?
	if [ $rc -ne 0 ] || ! grep -qx '[0-9.]* [0-9.]*' "$WORK/scale/time"; then
		echo fail
	else
		awk '{ print $1 + $2 }' "$WORK/scale/time"
	fi
}

# SCALE_LIMIT: how many times the CPU time of 4,000 functions 40,000 may take. Linear code
# measures 11 to 16 here (jansson's own parsing grows 12 times for 10 times the text: caches),
# under ASan too; quadratic code 100. 30 leaves a factor of 2 either way. CPU time rather than
# wall time, so that other jobs on the machine count less; the least of three runs for 4,000
# and of up to three for 40,000 (stopping once within the limit), as noise only ever adds.
SCALE_LIMIT=${SCALE_LIMIT:-30}

# scale NAME ARGS...: tsctrace ARGS, where @ in an argument stands for the number of
# functions (4000, then 40000), takes at most SCALE_LIMIT times longer for 40,000.
scale() {
	local name=$1 small="" big="" t i why=""
	shift
	selected "$name" || return 0
	for i in 1 2 3; do
		t=$(cpu_time "${@//"@"/4000}")
		if [ "$t" = fail ]; then
			fail "$name" "4,000 functions: $(head -c 300 "$WORK/scale/err")"
			return
		fi
		small=$(awk -v a="$small" -v b="$t" 'BEGIN { print (a == "" || b < a) ? b : a }')
	done
	for i in 1 2 3; do
		t=$(cpu_time "${@//"@"/40000}")
		if [ "$t" = fail ]; then
			why="40,000 functions: failed, or still running after 120 s (4,000: $small s)"
			[ -s "$WORK/scale/err" ] && why="$why: $(head -c 300 "$WORK/scale/err")"
			break
		fi
		big=$(awk -v a="$big" -v b="$t" 'BEGIN { print (a == "" || b < a) ? b : a }')
		within "$small" "$big" && break
	done
	if [ -z "$why" ] && ! within "$small" "$big"; then
		why="40,000 functions took $big s of CPU, 4,000 took $small s: more than"
		why="$why $SCALE_LIMIT times"
	fi
	verdict "$name" "$why"
}

# within SMALL BIG: BIG seconds are at most SCALE_LIMIT times SMALL (taken as 10 ms at least).
within() {
	awk -v s="$1" -v b="$2" -v l="$SCALE_LIMIT" 'BEGIN { exit !(b <= l * (s > 0.01 ? s : 0.01)) }'
}

# Reports of 4,000 and 40,000 functions: a, and b whose second half is new and whose first
# half is a's second half under two names (f<k>|g<k>); merged as a, a, b.
t_scale() {
	local why n s=$WORK/scale
	selected merge/scale || selected merge/scale-sums || selected diff/scale ||
		selected report/scale || return 0
	mkdir -p "$s"
	for n in 4000 40000; do
		gen_report $n 0 1 0 >"$s/a$n.json"
		gen_report $n $((n / 2)) 2 1 >"$s/b$n.json"
	done
	scale report/scale report a@.json
	scale diff/scale diff a@.json b@.json
	scale merge/scale merge --allow-duplicates -o m@.json a@.json a@.json b@.json
	selected merge/scale-sums || return 0
	# Exact sums: f<k> of a counted twice, of b once; names joined where a and b differ.
	why=""
	selected merge/scale || cpu_time merge --allow-duplicates -o m40000.json a40000.json a40000.json \
		b40000.json >/dev/null
	jq -e --argjson n 40000 '.merged_from == 3 and (.functions | length) == $n * 3 / 2 and
		all(.functions[]; (.names[0] | ltrimstr("f") | tonumber) as $k
		| ($k % 7 + 1) as $c
		| ((if $k < $n then 2 * $c else 0 end) + (if $k >= $n / 2 then $c else 0 end)) as $m
		| .calls == $m and .timed == $m and .cycles.total == 10 * $m
		and .raw.total == 30 * $m and .histogram.buckets == [[10, 10, $m]]
		and .cycles.median == 10 and .raw.median == 30
		and if $k < $n / 2 then .name == "f\($k)" and .names == ["f\($k)"]
		    else .name == "f\($k)|g\($k)" and .names == ["f\($k)", "g\($k)"] end)' \
		"$s/m40000.json" >/dev/null 2>&1 ||
		why="the merge of 40,000 functions is not the exact sums"
	verdict merge/scale-sums "$why"
}

# ---- run ----------------------------------------------------------------------------------

t_run() {
	local why
	if selected run/exit-status; then
		why=""
		traced -f strlen -o "$WORK/x.%p.txt" -- sh -c 'exit 7' >/dev/null 2>&1
		[ $? -eq 7 ] || why="the program's exit status was not passed through"
		verdict run/exit-status "$why"
	fi
	if selected run/env-funcs; then
		why=""
		(cd "$WORK" && TSC_FUNCS=strlen traced --json -o "$WORK/env.json" -- sh -c 'echo hi') \
			>"$WORK/out" 2>"$WORK/err"
		[ "$(cat "$WORK/out")" = hi ] || why="stdout: $(cat "$WORK/out")"
		jq -e '.schema == 1' "$WORK/env.json" >/dev/null 2>&1 || why="no JSON report from TSC_FUNCS"
		verdict run/env-funcs "$why"
	fi
	if selected run/preload-kept; then
		why=""
		local other=/lib/x86_64-linux-gnu/libm.so.6 got
		got=$(LD_PRELOAD="${ASAN_RT:+$ASAN_RT:}$other" "$T" run -f strlen -o "$WORK/r.%p.txt" \
			-- sh -c 'printf %s "$LD_PRELOAD"' 2>/dev/null)
		[ "$got" = "${ASAN_RT:+$ASAN_RT:}$other:$(readlink -f "$LIB")" ] ||
			why="LD_PRELOAD became '$got'"
		got=$(LD_PRELOAD="${ASAN_RT:+$ASAN_RT:}$LIB" "$T" run -f strlen -o "$WORK/r.%p.txt" \
			-- sh -c 'printf %s "$LD_PRELOAD"' 2>/dev/null)
		[ "$got" = "${ASAN_RT:+$ASAN_RT:}$LIB" ] || why="$why; the shim was added twice: '$got'"
		verdict run/preload-kept "$why"
	fi
	if selected run/tsctrace-lib; then
		why=""
		cp "$LIB" "$WORK/libcopy.so"
		got=$(LD_PRELOAD=$ASAN_RT TSCTRACE_LIB=$WORK/libcopy.so "$T" run -f strlen \
			-o "$WORK/r.%p.txt" \
			-- sh -c 'printf %s "$LD_PRELOAD"' 2>/dev/null)
		case $got in *"$WORK/libcopy.so") ;; *) why="TSCTRACE_LIB ignored: '$got'" ;; esac
		verdict run/tsctrace-lib "$why"
	fi
	# --no-follow: the program writes its report, the child it starts runs without the shim.
	if selected run/no-follow; then
		why=""
		rm -rf "$WORK/nf" && mkdir "$WORK/nf"
		(cd "$WORK/nf" && traced --no-follow -f strlen --json -o "$WORK/nf/r.%p.json" -- \
			sh -c 'echo $$ >sh.pid; sh -c "printf %s \"\${LD_PRELOAD-unset}\" >kid.env"; :') \
			>"$WORK/out" 2>"$WORK/err"
		got=$(cd "$WORK/nf" && ls r.*.json 2>/dev/null | tr '\n' ' ')
		if [ "$got" != "r.$(cat "$WORK/nf/sh.pid" 2>/dev/null).json " ]; then
			why="reports [$got], expected only the shell's, r.$(cat "$WORK/nf/sh.pid" 2>/dev/null).json"
		elif [ "$(cat "$WORK/nf/kid.env")" != "${ASAN_RT:-unset}" ]; then
			why="the child's LD_PRELOAD is '$(cat "$WORK/nf/kid.env")'"
		fi
		verdict run/no-follow "$why"
	fi
	bad run/no-program "no program given" run -f strlen
	bad run/no-funcs "no functions to trace" run -- true
	bad run/empty-funcs "-f needs at least one function name" run -f "" true
	bad run/option "unknown option '--bogus'" run --bogus true
	bad run/missing-value "option '-f' needs a value" run -f
	bad run/exec "cannot run /nonexistent/prog: No such file or directory" \
		run -f strlen -- /nonexistent/prog
	if selected run/bad-lib; then
		TSCTRACE_LIB=/nonexistent/libtsctrace.so bad run/bad-lib \
			"TSCTRACE_LIB=/nonexistent/libtsctrace.so: No such file" run -f strlen true
	fi
}

# ---- help, man pages, install -------------------------------------------------------------

t_help() {
	local cmd why
	for cmd in run report diff merge plot export; do
		selected "help/$cmd" || continue
		tsc "$cmd" --help
		why=""
		[ $RC -eq 0 ] || why="status $RC"
		head -n 1 "$WORK/out" | grep -q "^usage: tsctrace $cmd" || why="no usage line"
		[ -s "$WORK/err" ] && why="stderr: $(cat "$WORK/err")"
		verdict "help/$cmd" "$why"
	done
	if selected help/top; then
		why=""
		tsc --help
		grep -q '^usage: tsctrace COMMAND' "$WORK/out" || why="--help"
		tsc help merge
		grep -q '^usage: tsctrace merge' "$WORK/out" || why="help merge"
		tsc --version
		grep -qx 'tsctrace [0-9.]*' "$WORK/out" || why="--version: $(cat "$WORK/out")"
		verdict help/top "$why"
	fi
	if selected man/lint; then
		if ! command -v groff >/dev/null 2>&1; then
			skip man/lint "groff is not installed"
		else
			why=""
			for m in "$TOP/docs/man/tsctrace.1" "$TOP/docs/man/libtsctrace.7"; do
				LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$m" >"$WORK/groff.out" 2>&1
				[ -s "$WORK/groff.out" ] && why="$why$(basename "$m"): $(head -c 200 "$WORK/groff.out") "
			done
			verdict man/lint "$why"
		fi
	fi
	# make install into a scratch DESTDIR, with LIBDIR at PREFIX/lib and at a Debian-style
	# multiarch directory: command and man pages installed, `run` finding the staged shim,
	# and uninstall leaving nothing.
	if selected install/layout; then
		local d=$WORK/destdir pfx=/opt/tsctrace-cli f libdir
		why=""
		for libdir in lib lib/x86_64-linux-gnu; do
			[ -n "$why" ] && break
			rm -rf "$d"
			(unset MAKEFLAGS MAKELEVEL MFLAGS
			 make -s -C "$TOP" install SANITIZE= DESTDIR="$d" PREFIX=$pfx \
				LIBDIR=$pfx/$libdir >"$WORK/install.log" 2>&1) ||
				why="make install failed: $(tail -3 "$WORK/install.log")"
			for f in bin/tsctrace share/man/man1/tsctrace.1 share/man/man7/libtsctrace.7 \
				"$libdir/libtsctrace.so"; do
				[ -z "$why" ] && [ ! -f "$d$pfx/$f" ] && why="$pfx/$f not installed"
			done
			if [ -z "$why" ]; then
				got=$(cd "$WORK" && "$d$pfx/bin/tsctrace" run -f strlen \
					-o "$WORK/r.%p.txt" -- sh -c 'printf %s "$LD_PRELOAD"' 2>/dev/null)
				[ "$got" = "$d$pfx/$libdir/libtsctrace.so" ] ||
					why="installed run preloads '$got', not $d$pfx/$libdir/libtsctrace.so"
			fi
			(unset MAKEFLAGS MAKELEVEL MFLAGS
			 make -s -C "$TOP" uninstall SANITIZE= DESTDIR="$d" PREFIX=$pfx \
				LIBDIR=$pfx/$libdir >/dev/null 2>&1)
			[ -z "$why" ] && [ -n "$(find "$d$pfx" -type f 2>/dev/null)" ] &&
				why="uninstall left files: $(find "$d$pfx" -type f | head -3 | tr '\n' ' ')"
		done
		verdict install/layout "$why"
	fi
}

# diff over runs, merge's runs, -o's format, plot axes, rows never called (cases_analysis.sh)
# shellcheck source=tests/cli/cases_analysis.sh
. "$HERE/cases_analysis.sh"
# shellcheck source=tests/cli/cases_weighted.sh
. "$HERE/cases_weighted.sh"
# tsctrace run's directory and answer (cases_rundir.sh)
# shellcheck source=tests/cli/cases_rundir.sh
. "$HERE/cases_rundir.sh"
# merge of call sites in real reports (cases_sites.sh)
# shellcheck source=tests/cli/cases_sites.sh
. "$HERE/cases_sites.sh"
# Call paths as folded stacks, pprof profiles and flame graphs: paths.sh.
. "$HERE/paths.sh"
. "$HERE/cases_symbols.sh"
. "$HERE/cases_paths_trust.sh"
# p99.9, slowest calls, latency by argument, perfetto and exemplars (cases_tail.sh)
# shellcheck source=tests/cli/cases_tail.sh
. "$HERE/cases_tail.sh"
# text reports read by every command (cases_textload.sh)
# shellcheck source=tests/cli/cases_textload.sh
. "$HERE/cases_textload.sh"

# ---- main ---------------------------------------------------------------------------------

if [ ! -x "$T" ]; then
	fail build "$T was not built"
	exit 1
fi
make_fixtures
t_report
t_diff
t_merge
t_merge_weighted
t_self_weighted
t_real
t_plot
t_export
t_paths
t_fleet
t_names
t_cxx_names
t_debug_sites
t_paths_trust
t_errors
t_limits
t_run
t_rundir
t_diff_runs
t_merge_runs
t_run_format
t_plot_axes
t_report_uncalled
t_merge_sites
t_tail
t_textload
t_help

echo "  cli     $NPASS passed, $NFAIL failed${NSKIP:+, $NSKIP skipped}"
if [ $NFAIL -eq 0 ] && [ "${KEEP:-0}" != 1 ]; then
	rm -rf "$WORK"
else
	echo "  cli     scratch directory kept: $WORK"
fi
[ $NFAIL -eq 0 ]
