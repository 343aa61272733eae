#!/bin/sh
# callpaths.sh B LIB - what TSC_CALLERS=4 costs a traced call (run.sh's "call paths" section;
# `make -C bench callpaths` runs it alone). CPU time (cputime.c) of
#   (a) deepstack: 1,000,000 calls of bench_fn 20 frames down (with and without frame
#       pointers in turn), and
#   (b) sqlite3 scanning a 200,000-row table with sqlite3BtreeNext traced (tests/field/
#       cases/sqlite.sh's workload; skipped without sqlite3 or that symbol),
# traced without call paths (TSC_CALLERS=0: the floor), with them by the cached frame walk
# (TSC_CALLERS=4) and by libunwind alone (TSC_CALLERS=4 TSC_CALLERS_UNWIND=libunwind: the
# route before the cache). Each row: ns of CPU time added per traced call over the floor
# (median over the repetitions), and the ratio of CPU times. Goal: <= 300 ns a call on
# sqlite's B-tree function (issue 36). Runs alternate (A B C, then C B A), BENCH_REPS times
# (default 9, at least 5). Rows go to $CP_ROWS (run.sh's rows.tsv) when set. Exit status 1
# only when something broke (a crash, a missing report, calls that differ).
set -u

B=$1
LIB=$2
HERE=$(cd "$(dirname "$0")" && pwd)
REPS=${BENCH_REPS:-9}
[ "$REPS" -ge 5 ] 2>/dev/null || REPS=5
W=$B/work-callpaths
ROWS=${CP_ROWS:-$W/rows.tsv}
broken=0
mkdir -p "$W"
rm -rf "${W:?}"/*

fail() {
	echo "bench: BROKEN: $*"
	broken=1
}
# shellcheck source=median.sh
. "$HERE/median.sh"
le() { awk -v v="$1" -v l="$2" 'BEGIN { print (v <= l) ? "met" : "missed" }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "inf" }'; }
per_call() { awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN { printf "%.0f", (a - b) / n }'; }
row() { printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$5" "$6" >>"$ROWS"; }

# measure NAME FUNC CMD...: the three variants of CMD, alternated, REPS times; CPU ns per
# run in $W/NAME.VARIANT.cpu, the traced function's calls per run in $W/NAME.VARIANT.calls.
measure() {
	name=$1 func=$2
	shift 2
	r=1
	while [ "$r" -le "$REPS" ]; do
		order="off cached libunwind"
		[ $((r % 2)) = 0 ] && order="libunwind cached off"
		for v in $order; do
			case $v in
			off) depth=0 unwind=cached ;;
			cached) depth=4 unwind=cached ;;
			libunwind) depth=4 unwind=libunwind ;;
			esac
			rm -f "$W/$name.json"
			"$B/cputime" "$W/t" env LD_PRELOAD="$LIB" TSC_FUNCS="$func" TSC_CALLERS=$depth \
				TSC_CALLERS_UNWIND=$unwind TSC_FORMAT=json TSC_OUTPUT="$W/$name.json" \
				TSC_QUIET=1 "$@" >"$W/$name.$v.out" || fail "$name ($v) exited $?"
			awk '{ print $2 }' "$W/t" >>"$W/$name.$v.cpu"
			[ -s "$W/$name.json" ] || fail "$name ($v): no report"
			jq -r --arg f "$func" '.functions[] | select(.name == $f) | .calls' \
				"$W/$name.json" >>"$W/$name.$v.calls"
		done
		r=$((r + 1))
	done
	for v in cached libunwind; do
		cmp -s "$W/$name.off.calls" "$W/$name.$v.calls" ||
			fail "$name: calls with paths ($v) differ from without"
	done
}

# report NAME LABEL GOAL: the rows of measure NAME.
report() {
	name=$1 label=$2 goal=$3
	calls=$(head -n 1 "$W/$name.off.calls")
	[ -n "$calls" ] && [ "$calls" -gt 0 ] || { fail "$name: no calls"; return; }
	off=$(median "$W/$name.off.cpu")
	for v in cached libunwind; do
		t=$(median "$W/$name.$v.cpu")
		ns=$(per_call "$t" "$off" "$calls")
		ra=$(ratio "$t" "$off")
		if [ "$v" = cached ] && [ "$goal" != - ]; then
			verdict=$(le "$ns" "$goal")
			g="<= $goal ns"
		else
			verdict=info g=-
		fi
		echo "  $label, TSC_CALLERS=4 ($v): +$ns ns of CPU a call, x$ra of TSC_CALLERS=0's CPU time"
		row "callpaths.$name.$v" "call paths: $label, TSC_CALLERS=4 by $v, ns of CPU per call over TSC_CALLERS=0" \
			"$ns" "$g" "$verdict" "CPU time x$ra; medians of $REPS alternated runs, $calls calls a run"
	done
}

echo "call paths (a): deepstack, 1,000,000 calls of bench_fn 20 frames down"
measure deep bench_fn "$B/deepstack" 1000000 20
report deep "deepstack (20 frames)" -

if command -v sqlite3 >/dev/null 2>&1 &&
	nm -D /usr/lib/x86_64-linux-gnu/libsqlite3.so.0 2>/dev/null | grep -qw 'T sqlite3BtreeNext'; then
	echo "call paths (b): sqlite3 scanning 200,000 rows, sqlite3BtreeNext traced"
	printf 'create table t(x integer, y text);\n%s\n' \
		"with recursive c(i) as (select 1 union all select i+1 from c where i<200000) insert into t select i, hex(randomblob(8)) from c;" |
		sqlite3 "$W/t.db" || fail "sqlite3: could not generate the database"
	measure sqlite sqlite3BtreeNext sqlite3 "$W/t.db" 'select count(*), sum(x), max(y) from t;'
	report sqlite "sqlite3 scan (sqlite3BtreeNext)" 300
else
	echo "call paths (b): skipped: no sqlite3, or its library does not export sqlite3BtreeNext"
	row callpaths.sqlite.cached "call paths: sqlite3 scan, TSC_CALLERS=4, ns per call" skipped \
		"<= 300 ns" skipped "no sqlite3 with sqlite3BtreeNext exported"
fi
exit $broken
