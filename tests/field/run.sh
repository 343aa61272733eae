#!/bin/sh
# run.sh BUILD_DIR [CASE...] - the field suite (`make check-field`): real Debian programs
# (servers on loopback, generated data), run untraced and then traced with
# BUILD_DIR/libtsctrace.so the way a performance engineer would, each bounded in time.
#
# Each case is tests/field/cases/NAME.sh defining field_NAME (found by glob; CASE names or
# globs select some). A case runs its workload untraced first and traced second in $T (a fresh
# directory under BUILD_DIR/field, or $FIELD_WORK), compares what the program did (output, exit status, files,
# the server's replies), finds every process's report, checks exact counts against a count the
# program keeps itself, and applies tests/field/invariants.py to every report.
# Each case appends one `PASS NAME`, `FAIL NAME: why` or `SKIP NAME: why` line to $RESULTS
# (default /dev/null) and one row to the table of programs it has been run on (program,
# version, functions, calls, slowdown: traced/untraced wall and CPU time of the workload),
# printed at the end and kept in BUILD_DIR/field/programs.md; with $FIELD_ROWS set, also as
# bench rows (bench/field.sh). Ends with "N passed, N failed, N skipped".
# KEEP=1 keeps the scratch directories (they are kept anyway when a case failed).

# shellcheck shell=bash disable=SC2016	# jq programs are single-quoted on purpose
if [ -z "${BASH_VERSION:-}" ]; then
	exec bash "$0" "$@"
fi
set -u
shopt -s nullglob	# a glob that matches nothing is no word: counts of reports stay right

B=${1:?usage: run.sh BUILD_DIR [CASE...]}
shift
case $B in /*) ;; *) B=$PWD/$B ;; esac
ONLY=("$@")
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../.." && pwd)
LIB=$B/libtsctrace.so
CLI=$B/tsctrace
SCHEMA=$TOP/docs/report.schema.json
RESULTS=${RESULTS:-/dev/null}
WORK=${FIELD_WORK:-$B/field}
# Every case's workload is bounded; this is the bound of any one command in it.
TIMEOUT=${FIELD_TIMEOUT:-120}
# Debian's Python (with python3-jsonschema), not whatever python3 comes first on PATH.
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3

# No shim, no TSC_* of the caller, and no make of ours around the builds a case runs.
unset LD_PRELOAD LD_LIBRARY_PATH MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
for v in $(compgen -e); do
	case $v in TSC_*) unset "$v" ;; esac
done
mkdir -p "$WORK"
export XDG_CACHE_HOME=$WORK/cache
TABLE=$WORK/programs.tsv
: >"$TABLE"
NPASS=0 NFAIL=0 NSKIP=0
PIDS_TO_KILL=()

# start_time PID: the process's start time (clock ticks since boot), empty once it is gone.
start_time() {
	sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $20 }'
}

# own PID...: servers this suite started, killed at the end of the case whatever happens.
# Each is kept with its start time: a pid the system has given to another process since is
# never signalled.
own() {
	local p
	for p in "$@"; do PIDS_TO_KILL+=("$p:$(start_time "$p")"); done
}

kill_started() {
	local e
	for e in "${PIDS_TO_KILL[@]}"; do
		[ -n "${e#*:}" ] && [ "$(start_time "${e%%:*}")" = "${e#*:}" ] &&
			kill -KILL "${e%%:*}" 2>/dev/null
	done
	PIDS_TO_KILL=()
}
trap 'kill_started' EXIT
trap 'kill_started; exit 130' INT TERM

# ---- helpers ------------------------------------------------------------------------------

# fail_because WHY...: the first reason the current case fails; returns 1.
fail_because() {
	[ -n "$WHY" ] || WHY=$(printf '%s' "$*" | tr '\n\t' '  ' | cut -c1-500)
	return 1
}

# skip_because WHY...: this machine cannot stage the case; returns 0.
skip_because() {
	[ -n "$SKIP_WHY" ] || SKIP_WHY=$(printf '%s' "$*" | tr '\n\t' '  ' | cut -c1-300)
	return 0
}

# need CMD...: each command is on PATH, else the case is skipped (returns 1).
need() {
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 && continue
		skip_because "$c is not installed (make check-field installs it as root)"
		return 1
	done
}

# free_port: a loopback TCP port nobody listens on, from the ephemeral range.
free_port() {
	"$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# wait_for SECONDS CMD...: retry CMD every 0.1 s until it succeeds; 1 if it never did.
wait_for() {
	local n=$(($1 * 10))
	shift
	while [ "$n" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}

# gone PID: the process PID no longer exists.
gone() { ! kill -0 "$1" 2>/dev/null; }

# now_ns: wall clock in nanoseconds.
now_ns() { date +%s%N; }

# cpu_ticks PID: user + system clock ticks of a live process (/proc/PID/stat).
cpu_ticks() {
	sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $12 + $13 }'
}

# children_ticks PID: user + system ticks of the waited-for children of the shell PID, and theirs.
children_ticks() {
	sed 's/^.*) //' "/proc/$1/stat" | awk '{ print $14 + $15 }'
}

# measure LABEL CMD...: run CMD in the foreground; append "LABEL wall_ns cpu_ticks" to
# $T/times (CPU of CMD and every descendant it waited for). Returns CMD's status.
measure() {
	local label=$1 t0 c0 st me=$BASHPID
	shift
	c0=$(children_ticks $me)
	t0=$(now_ns)
	"$@"
	st=$?
	echo "$label $(($(now_ns) - t0)) $(($(children_ticks $me) - c0))" >>"$T/times"
	return $st
}

# record LABEL WALL_NS CPU_TICKS: append a measure taken otherwise (a server's CPU).
record() { echo "$1 $2 $3" >>"$T/times"; }

# ratio KIND: traced/untraced of the wall (kind 2) or CPU (kind 3) figures in $T/times,
# summed over the labels u.* and t.*.
ratio() {
	awk -v k="$1" '$1 ~ /^u\./ { u += $k } $1 ~ /^t\./ { t += $k }
		END { if (u > 0) printf "%.2f", t / u; else print "-" }' "$T/times"
}

# check_reports FILE...: every report is valid against the schema and keeps the invariants
# (tests/field/invariants.py); fails with the first lines it printed.
check_reports() {
	local out
	[ $# -gt 0 ] || fail_because "no report to check" || return 1
	out=$("$PY" "$HERE/invariants.py" "$SCHEMA" "$@" 2>&1) ||
		fail_because "invariants: $(printf '%s\n' "$out" | sed "s|$T/||g" | head -3)"
}

# fcalls REPORT NAME: the calls of the function named NAME (or NAME among `a|b`), 0 if absent.
fcalls() {
	jq -r --arg n "$2" '[.functions[] | select(.names | index($n)) | .calls] | add // 0' "$1"
}

# sum_calls NAME REPORT...: the calls of NAME summed over the reports.
sum_calls() {
	local n=$1 f s=0
	shift
	for f in "$@"; do s=$((s + $(fcalls "$f" "$n"))); done
	echo "$s"
}

# not_open_to_others FILE...: no report is group- or world-writable.
not_open_to_others() {
	local f m
	for f in "$@"; do
		m=$(stat -c %a "$f")
		[ $((8#$m & 8#022)) -eq 0 ] ||
			fail_because "report $(basename "$f") is mode $m: writable by others" || return 1
	done
}

# table_row PROGRAM VERSION FUNCS CALLS: the case's row of the programs table, the slowdown
# from $T/times. Rows for bench/field.sh go to $FIELD_ROWS too.
table_row() {
	local w c
	w=$(ratio 2)
	c=$(ratio 3)
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$w" "$c" >>"$TABLE"
	NOTE="wall x$w, CPU x$c"
	if [ -n "${FIELD_ROWS:-}" ]; then
		printf 'field.%s\t%s traced/untraced wall\t%s\t-\t-\t%s\n' "$CASE" "$1" "$w" "$3" >>"$FIELD_ROWS"
		printf 'field.%s.cpu\t%s traced/untraced CPU\t%s\t-\t-\t%s\n' "$CASE" "$1" "$c" "$3" >>"$FIELD_ROWS"
	fi
}


selected() {
	local p
	[ ${#ONLY[@]} -eq 0 ] && return 0
	for p in "${ONLY[@]}"; do
		# shellcheck disable=SC2254	# patterns on purpose
		case $1 in $p) return 0 ;; esac
	done
	return 1
}

# run_case NAME: run field_NAME in a fresh $T and record its result.
run_case() {
	local t0=$SECONDS
	CASE=$1
	selected "$CASE" || return 0
	T=$WORK/$CASE
	rm -rf "$T"
	mkdir -p "$T"
	: >"$T/times"
	WHY="" SKIP_WHY="" NOTE=""
	# The environment every traced run starts from (a case adds its TSC_*): `env "${TRACED[@]}"`.
	TRACED=("LD_PRELOAD=$LIB" TSC_FORMAT=json "TSC_OUTPUT=$T/r.%p.json")
	if [ ! -f "$LIB" ]; then
		fail_because "shim $LIB not built"
	elif ! "field_$CASE"; then
		fail_because "failed without a reason (test bug)"
	fi
	kill_started
	if [ -z "$WHY" ] && [ -n "$SKIP_WHY" ]; then
		NSKIP=$((NSKIP + 1))
		echo "SKIP field_$CASE: $SKIP_WHY" >>"$RESULTS"
		printf '  SKIP  %-10s %3ss  %s\n' "$CASE" $((SECONDS - t0)) "$SKIP_WHY"
	elif [ -z "$WHY" ]; then
		NPASS=$((NPASS + 1))
		echo "PASS field_$CASE" >>"$RESULTS"
		printf '  PASS  %-10s %3ss  %s\n' "$CASE" $((SECONDS - t0)) "$NOTE"
		[ "${KEEP:-0}" = 1 ] || rm -rf "$T"
	else
		NFAIL=$((NFAIL + 1))
		echo "FAIL field_$CASE: $WHY" >>"$RESULTS"
		printf '  FAIL  %-10s %3ss  %s\n' "$CASE" $((SECONDS - t0)) "$WHY"
		echo "        (kept in $T)"
	fi
}

# ---- cases --------------------------------------------------------------------------------

for f in "$HERE"/cases/*.sh; do
	# shellcheck source=/dev/null
	. "$f"
done
echo "field suite: real programs, untraced then traced ($(nproc) CPUs)"
for f in "$HERE"/cases/*.sh; do
	n=$(basename "$f" .sh)
	run_case "$n"
done

# The table of docs/field.md ("Programs it has been run on") is made from.
{
	echo "| program | version | functions | calls | slowdown wall | slowdown CPU |"
	echo "|---|---|---|---|---|---|"
	awk -F'\t' '{ printf "| %s | %s | `%s` | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6 }' "$TABLE"
} >"$WORK/programs.md"
echo "programs it has been run on (slowdown: traced/untraced time of the workload):"
sed 's/^/  /' "$WORK/programs.md"
echo "field suite: $NPASS passed, $NFAIL failed, $NSKIP skipped"
[ "$NFAIL" -eq 0 ] && [ "$NPASS" -gt 0 ]
