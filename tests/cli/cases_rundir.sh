# cases_rundir.sh - sourced by run.sh: `tsctrace run` without -o, one run directory and the
# answer at the end (docs/runs.md): the shell loop of issue 32 leaves exactly one entry in the
# current directory and prints a summary whose malloc calls are the sum over the process
# reports; the command's exit status passes through (a signal as 128+N); a wrapper that cd's
# elsewhere writes nothing there; `tsctrace report` with no file prints the latest run's
# merged.json, --per-process each process's report; --quiet and --top; processes with nothing
# traced write nothing and are counted, TSC_EMPTY=1 brings their report back.
# shellcheck shell=bash disable=SC2016

# rd_run DIR ARGS...: `tsctrace run ARGS` started in DIR (made empty first); status in RC,
# stdout and stderr in DIR.out and DIR.err beside it.
rd_run() {
	local d=$1
	shift
	rm -rf "$d" && mkdir -p "$d"
	(cd "$d" && traced "$@") >"$d.out" 2>"$d.err"
	RC=$?
}

# rd_dir DIR: the one run directory in DIR, or "" (printed).
rd_dir() {
	local e
	e=$(cd "$1" && ls -A)
	case $e in tsctrace-run.[0-9]*-[0-9]*.[0-9]*) [ -d "$1/$e" ] && echo "$1/$e" ;; esac
}

# rd_jq PROGRAM FILE: jq PROGRAM over the array of FILE's reports (a JSON text sequence,
# RS before each: jq --seq, whose output has RS bytes too, taken out).
rd_jq() {
	jq --seq -s "$1" "$2" | tr -d '\036'
}

t_rundir() {
	local d=$WORK/rd why got want rdir n
	if selected rundir/sh-loop; then
		why=""
		rd_run "$d/loop" -f strlen,malloc -- sh -c 'for i in 1 2 3 4 5; do echo hello | cat >/dev/null; done'
		rdir=$(rd_dir "$d/loop")
		if [ $RC -ne 0 ]; then
			why="status $RC: $(head -c 300 "$d/loop.err")"
		elif [ -z "$rdir" ]; then
			why="not one run directory in the current directory: $(cd "$d/loop" && ls -A | head -5 | tr '\n' ' ')"
		elif [ ! -s "$rdir/merged.json" ]; then
			why="no merged.json in $rdir"
		else
			got=$(awk '$1 == "malloc" { print $2 }' "$d/loop.err")
			want=$(rd_jq 'map(.functions[] | select(.name == "malloc") | .calls) | add' \
				"$rdir/reports.json-seq")
			n=$(rd_jq length "$rdir/reports.json-seq")
			[ "$(ls -A "$rdir" | tr '\n' ' ')" = "merged.json reports.json-seq " ] ||
				why="the run directory holds $(ls -A "$rdir" | tr '\n' ' ')"
			[ -n "$got" ] && [ "$got" = "$want" ] && [ "$n" -ge 6 ] ||
				why="$why; summary says $got malloc calls, the $n process reports $want: $(head -c 400 "$d/loop.err")"
			[ "$(jq '.functions[] | select(.name == "malloc") | .calls' "$rdir/merged.json")" = "$want" ] ||
				why="$why; merged.json's malloc calls are not the sum $want"
			grep -q "^tsctrace: $n processes reported" "$d/loop.err" ||
				why="$why; no '$n processes reported' line: $(head -1 "$d/loop.err")"
			grep -q "^tsctrace: run data in ${rdir##*/}/" "$d/loop.err" ||
				why="$why; the last line does not say where the data is"
			[ "$(tail -1 "$d/loop.err" | cut -c1-23)" = "tsctrace: run data in t" ] ||
				why="$why; the location is not the last line"
			grep -q 'report written' "$d/loop.err" && why="$why; a 'report written' line"
		fi
		verdict rundir/sh-loop "$why"
	fi
	if selected rundir/report-latest; then
		why=""
		rdir=$(rd_dir "$d/loop")
		[ -n "$rdir" ] || { rd_run "$d/loop" -f strlen,malloc -- sh -c 'echo hello | cat >/dev/null'; rdir=$(rd_dir "$d/loop"); }
		if [ -z "$rdir" ]; then
			why="no run to read: $(head -c 200 "$d/loop.err")"
		else
			# an older run beside it must not be the one read
			mkdir "$d/loop/tsctrace-run.19990101-000000.1"
			(cd "$d/loop" && "$T" report) >"$d/rep.out" 2>"$d/rep.err" || why="status $?: $(head -c 200 "$d/rep.err")"
			(cd "$d/loop" && "$T" report "${rdir##*/}/merged.json") >"$d/rep.want" 2>&1
			cmp -s "$d/rep.out" "$d/rep.want" || why="$why; report with no file is not the latest merged.json"
			(cd "$d/loop" && "$T" report "${rdir##*/}") >"$d/rep.dir" 2>&1
			cmp -s "$d/rep.dir" "$d/rep.want" || why="$why; report DIR is not its merged.json"
			(cd "$d/loop" && "$T" report --per-process) >"$d/rep.pp" 2>"$d/rep.err" ||
				why="$why; --per-process: status $?: $(head -c 200 "$d/rep.err")"
			n=$(rd_jq length "$rdir/reports.json-seq")
			[ "$(grep -c '^==> .*reports\.json-seq, #[0-9]* (.*, pid [0-9]*) <==$' "$d/rep.pp")" = "$n" ] ||
				why="$why; --per-process shows $(grep -c '^==> ' "$d/rep.pp") reports, the run has $n"
			grep -q 'merged\.json' "$d/rep.pp" && why="$why; --per-process shows merged.json"
			# a record cut short (a process killed while writing) is named and left out
			printf '\036{"schema": 1, "tool": "tsc' >>"$rdir/reports.json-seq"
			(cd "$d/loop" && "$T" report --per-process) >"$d/rep.pp2" 2>"$d/rep.err2"
			[ $? = 0 ] && [ "$(grep -c '^==> ' "$d/rep.pp2")" = "$n" ] &&
				grep -q "reports.json-seq, #$((n + 1)) (?, pid -1): not a JSON report (cut short?)" "$d/rep.err2" ||
				why="$why; a cut record: $(head -c 300 "$d/rep.err2")"
			# two records of one image (a dump, then the report at exit): the later is read
			local dup=$d/loop/tsctrace-run.20990101-000000.1
			mkdir -p "$dup"
			rd_jq '.[0]' "$rdir/reports.json-seq" 2>/dev/null | jq -c '.functions[0].calls += 0' |
				sed 's/^/\x1e/' >"$dup/reports.json-seq"
			rd_jq '.[0]' "$rdir/reports.json-seq" 2>/dev/null | jq -c '.warnings += ["the later one"]' |
				sed 's/^/\x1e/' >>"$dup/reports.json-seq"
			(cd "$d/loop" && "$T" report --per-process "${dup##*/}") >"$d/dup.out" 2>"$d/dup.err"
			[ "$(grep -c '^==> ' "$d/dup.out")" = 0 ] && grep -q 'the later one' "$d/dup.out" &&
				[ ! -s "$d/dup.err" ] || why="$why; two records of one image: $(grep -c '^warning' "$d/dup.out") warnings, $(head -c 200 "$d/dup.err")"
			rm -rf "$dup"
			mkdir "$d/none"
			(cd "$d/none" && "$T" report) >"$d/none.out" 2>"$d/none.err"
			[ $? = 2 ] && [ "$(wc -l <"$d/none.err")" = 1 ] && [ ! -s "$d/none.out" ] &&
				grep -q '^tsctrace: report: no report given, and no tsctrace-run' "$d/none.err" ||
				why="$why; with no run here: $(head -c 200 "$d/none.err")"
		fi
		verdict rundir/report-latest "$why"
	fi
	if selected rundir/exit-status; then
		why=""
		rd_run "$d/st" -f strlen -- sh -c 'exit 7'
		[ $RC = 7 ] || why="sh -c 'exit 7' gave $RC"
		[ -n "$(rd_dir "$d/st")" ] || why="$why; not one run directory"
		rd_run "$d/sig" -f strlen -- sh -c 'kill -TERM $$'
		[ $RC = 143 ] || why="$why; killed by SIGTERM gave $RC, not 143"
		verdict rundir/exit-status "$why"
	fi
	# A wrapper that cd's elsewhere: the reports still go to the run directory.
	if selected rundir/wrapper-cd; then
		why=""
		rm -rf "$d/elsewhere" && mkdir -p "$d/elsewhere"
		rd_run "$d/cd" -f malloc -- sh -c 'cd "$1" && cat /dev/null && sh -c "cat </dev/null"' sh "$d/elsewhere"
		rdir=$(rd_dir "$d/cd")
		[ $RC = 0 ] || why="status $RC: $(head -c 200 "$d/cd.err")"
		[ -z "$(ls -A "$d/elsewhere")" ] || why="$why; written where the wrapper cd'd: $(ls -A "$d/elsewhere" | head -3 | tr '\n' ' ')"
		[ -n "$rdir" ] && [ "$(rd_jq 'map(select((.program | split("/") | last) == "cat")) | length' "$rdir/reports.json-seq")" = 2 ] ||
			why="$why; not the two reports of cat in the run directory"
		verdict rundir/wrapper-cd "$why"
	fi
	if selected rundir/quiet; then
		why=""
		rd_run "$d/q" --quiet -f strlen,malloc -- sh -c 'echo hi | cat'
		rdir=$(rd_dir "$d/q")
		[ "$(cat "$d/q.out")" = hi ] || why="stdout: $(head -c 100 "$d/q.out")"
		[ "$(wc -l <"$d/q.err")" = 1 ] && grep -q "^tsctrace: run data in ${rdir##*/}/ " "$d/q.err" ||
			why="$why; stderr is not the one location line: $(head -c 300 "$d/q.err")"
		[ -s "$rdir/merged.json" ] || why="$why; no merged.json"
		verdict rundir/quiet "$why"
	fi
	if selected rundir/top; then
		why=""
		rd_run "$d/top" --top 1 -f strlen,malloc -- sh -c 'echo hi | cat'
		rdir=$(rd_dir "$d/top")
		got=$(jq -r '[.functions[] | select(.calls > 0)] | max_by(.cycles.total) | .name' "$rdir/merged.json" 2>/dev/null)
		n=$(grep -cE '^  (strlen|malloc) ' "$d/top.err")
		[ "$n" = 1 ] || why="$n function rows with --top 1: $(head -c 300 "$d/top.err")"
		grep -qE "^  $got " "$d/top.err" || why="$why; the row is not the heaviest, $got"
		grep -q '^  (1 of 2 functions called shown' "$d/top.err" || why="$why; no '1 of 2' line"
		verdict rundir/top "$why"
	fi
	# Nothing traced: no function found (and under a run, none called) leaves no report, one
	# line in the run's `empty` file, counted by the summary; TSC_EMPTY=1 brings the report.
	if selected rundir/empty; then
		why=""
		rd_run "$d/e" -f no_such_function_tt -- sh -c '/bin/true; /bin/true'
		rdir=$(rd_dir "$d/e")
		[ $RC = 0 ] || why="status $RC"
		[ -e "$rdir/reports.json-seq" ] && why="$why; reports written: $(ls "$rdir")"
		[ "$(wc -l <"$rdir/empty")" = 3 ] || why="$why; $(wc -l <"$rdir/empty") lines in empty, not 3"
		grep -q '^tsctrace: 0 processes reported, 3 ran with nothing traced' "$d/e.err" ||
			why="$why; the summary does not count 3: $(grep -v 'no function' "$d/e.err" | head -c 300)"
		grep -q 'no function' "$d/e.err" && why="$why; a 'no function' line per process"
		grep -q '^  not called in any process (not found, or never called): no_such_function_tt$' "$d/e.err" ||
			why="$why; the answer does not name no_such_function_tt"
		rd_run "$d/e1" -f no_such_function_tt -- env TSC_EMPTY=1 sh -c '/bin/true; /bin/true'
		rdir=$(rd_dir "$d/e1")
		[ "$(rd_jq length "$rdir/reports.json-seq" 2>/dev/null)" = 3 ] ||
			why="$why; TSC_EMPTY=1 gave $(ls "$rdir" | tr '\n' ' '), not 3 reports"
		# outside a run: no report unless TSC_EMPTY=1
		rm -rf "$d/o" && mkdir -p "$d/o"
		(cd "$d/o" && LD_PRELOAD="${ASAN_RT:+$ASAN_RT:}$LIB" TSC_FUNCS=no_such_function_tt \
			TSC_OUTPUT="$d/o/r.%p.txt" /bin/true) 2>/dev/null
		[ -z "$(ls -A "$d/o")" ] || why="$why; a report without TSC_EMPTY: $(ls -A "$d/o")"
		(cd "$d/o" && LD_PRELOAD="${ASAN_RT:+$ASAN_RT:}$LIB" TSC_FUNCS=no_such_function_tt \
			TSC_EMPTY=1 TSC_OUTPUT="$d/o/r.%p.txt" /bin/true) 2>/dev/null
		[ "$(ls -A "$d/o" | wc -l)" = 1 ] || why="$why; TSC_EMPTY=1 outside a run: $(ls -A "$d/o")"
		verdict rundir/empty "$why"
	fi
	# -o inside a run (a TSC_RUN_DIR inherited): the report goes where -o says
	if selected rundir/o-in-run; then
		why=""
		rm -rf "$d/oi" && mkdir -p "$d/oi/outer"
		(cd "$d/oi" && TSC_RUN_DIR=$d/oi/outer traced -f strlen -o "$d/oi/r.json" -- sh -c 'echo hi') \
			>/dev/null 2>"$d/oi.err"
		jq -e '.schema == 1' "$d/oi/r.json" >/dev/null 2>&1 || why="no report at -o's name: $(ls -A "$d/oi" | tr '\n' ' ')"
		[ -z "$(ls -A "$d/oi/outer")" ] || why="$why; written to the inherited run directory"
		verdict rundir/o-in-run "$why"
	fi
	bad rundir/bad-top "--top takes a positive count, not '0'" run --top 0 -f strlen -- true
	bad rundir/text-needs-o "--text needs -o" run --text -f strlen -- true
}
