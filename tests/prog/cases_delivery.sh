# cases_delivery.sh - program tests sourced by run.sh (which has the helpers and the run_test
# lines): the report always reaches the user. A private stderr that survives programs closing
# theirs (coreutils) and never writes into a program's own file on fd 2; the "report written
# to" line; one fixed TSC_OUTPUT shared by the processes of a run; a file that is not a report
# kept; $TMPDIR as the last resort; TSC_FOLLOW=0.
# shellcheck shell=bash disable=SC2016,SC2012,SC2034,SC2015
# (jq programs single-quoted on purpose; ls of our own files; WANT_STATUS, OUTTPL... are read
# by run.sh's helpers; `a && b || fail` as in run.sh)

# stderr_report WHAT: the program's stderr (tsctrace lines removed) is exactly one JSON report
# of WHAT (its argv[0]); REPORT is then that.
stderr_report() {
	REPORT=$T/stderr-report.json
	cp "$T/t.err.prog" "$REPORT"
	is_json "$REPORT" ||
		fail_because "the report on stderr is not one JSON object: $(head -c 200 "$REPORT")" ||
		return 1
	ck "the report on stderr is $1's" ".argv[0] == \"$1\"" '.argv'
}

# r_files: the names of the r.* files in $T, one a line.
r_files() {
	(cd "$T" && LC_ALL=C ls -d r.* 2>/dev/null)
}

# abs_dir: $T as the shim sees it (getcwd: no symbolic link in it).
abs_dir() {
	(cd "$T" && pwd -P)
}

# coreutils close stderr in an atexit handler, before the shim's destructor: the report still
# arrives on stderr, through the shim's private duplicate.
test_delivery_stderr_sort() {
	make_input
	OUTTPL=- CMP_STDERR=0
	run_pair delivery_stderr_sort "$REAL_FUNCS" sort -k2,2 -k1,1n in.txt || return 1
	stderr_report sort && ck "malloc: calls > 0" 'fn("malloc").calls > 0' '[.functions[] | counts]'
}

test_delivery_stderr_grep() {
	make_input
	OUTTPL=- CMP_STDERR=0
	run_pair delivery_stderr_grep "$REAL_FUNCS" grep -c alpha in.txt || return 1
	stderr_report grep &&
		ck "calls == timed + unwound + migrated + dropped for every function" \
			'all(.functions[]; .calls == .timed + .unwound + .migrated + .dropped)' \
			'[.functions[] | counts]'
}

# No such directory: one line, and the report on stderr (sort, which closes its stderr). With
# stderr gone too (t_closeall closes every descriptor), a new file in $TMPDIR, mode 0600.
test_delivery_bad_dir() {
	local f
	make_input
	OUTTPL=/nonexistent/dir/r.%p.json CMP_STDERR=0
	run_pair delivery_bad_dir "$REAL_FUNCS" sort -r in.txt || return 1
	[ "$(shim_lines '^tsctrace: cannot write the report to /nonexistent/dir/r\.[0-9]+\.json: .*stderr')" -eq 1 ] ||
		fail_because "expected one line about /nonexistent/dir and stderr: $(head -3 "$T/t.shim")" ||
		return 1
	stderr_report sort || return 1

	mkdir "$T/tmp"
	printf 'data\n' >"$T/data"
	XENV+=("TMPDIR=$T/tmp")
	run_pair delivery_bad_dir work_add "$B/t_closeall" closeall "$T/data" || return 1
	f=$(ls "$T/tmp")
	[ "$(echo "$f" | wc -w)" -eq 1 ] && [[ $f == tsctrace.t_closeall.[0-9]*.json ]] ||
		fail_because "stderr gone: expected one tsctrace.t_closeall.PID.*.json in \$TMPDIR, found: $f" ||
		return 1
	[ "$(stat -c %a "$T/tmp/$f")" = 600 ] ||
		fail_because "$f has mode $(stat -c %a "$T/tmp/$f"), not 600" || return 1
	REPORT=$T/tmp/$f
	is_json "$REPORT" || fail_because "$f is not one JSON object" || return 1
	ck "work_add: calls == 1000" 'fn("work_add").calls == 1000' 'fn("work_add") | counts'
}

# One line "report written to ABSOLUTE-PATH" per report written to a file, even for a relative
# TSC_OUTPUT; none with TSC_QUIET=1; none for stderr.
test_delivery_written_line() {
	local pid dir
	dir=$(abs_dir)
	run_pair delivery_written_line strlen "$B/t_basic" run "$T/side" || return 1
	pid=$(side pid)
	one_report || return 1
	[ "$(cat "$T/t.said")" = "tsctrace: report written to $dir/r.$pid.json" ] ||
		fail_because "expected exactly the line 'tsctrace: report written to $dir/r.$pid.json', got: $(head -3 "$T/t.shim")" ||
		return 1
	rm -f "$T"/r.*
	OUTTPL=r.%p.txt FORMAT=text
	run_pair delivery_written_line strlen "$B/t_basic" run "$T/side" || return 1
	pid=$(side pid)
	[ -s "$T/r.$pid.txt" ] && [ "$(cat "$T/t.said")" = "tsctrace: report written to $dir/r.$pid.txt" ] ||
		fail_because "relative TSC_OUTPUT: expected r.$pid.txt and the line 'tsctrace: report written to $dir/r.$pid.txt', got: $(head -3 "$T/t.shim")" ||
		return 1
	rm -f "$T"/r.*
	OUTTPL="$T/r.%p.json" FORMAT=json XENV=(TSC_QUIET=1)
	run_pair delivery_written_line strlen "$B/t_basic" run "$T/side" || return 1
	one_report || return 1
	[ ! -s "$T/t.said" ] || fail_because "TSC_QUIET=1 still printed: $(head -3 "$T/t.shim")" || return 1
	XENV=() OUTTPL=- CMP_STDERR=0
	run_pair delivery_written_line strlen "$B/t_basic" run "$T/side" || return 1
	[ "$(shim_lines 'written to')" -eq 0 ] ||
		fail_because "TSC_OUTPUT=-: a 'written to' line: $(head -3 "$T/t.shim")"
}

# One fixed TSC_OUTPUT, a traced shell and three children, one after the other: the first to
# finish keeps the name, each other writes beside it with its pid inserted and says so: four
# reports, each with its own argv. Then a later run replaces the report at the name.
test_delivery_fixed_shell() {
	local f pid argvs want n
	make_input
	OUTTPL="$T/r.json"
	run_pair delivery_fixed_shell "$REAL_FUNCS" \
		sh -c 'sort in.txt >/dev/null; grep -c alpha in.txt; sort -r in.txt >/dev/null; :' ||
		return 1
	n=$(r_files | wc -l)
	[ "$n" -eq 4 ] && [ -f "$T/r.json" ] ||
		fail_because "expected r.json and three r.PID.json, found: $(r_files | tr '\n' ' ')" ||
		return 1
	argvs=""
	for f in $(r_files); do
		REPORT=$T/$f
		is_json "$REPORT" || fail_because "$f is not one JSON object" || return 1
		if [ "$f" != r.json ]; then
			pid=${f#r.}
			pid=${pid%.json}
			[[ $pid =~ ^[0-9]+$ ]] && ck "$f: pid $pid" ".pid == $pid" '.pid' ||
				fail_because "$f: not named r.PID.json after its writer" || return 1
		fi
		argvs="$argvs$(jq -c .argv "$REPORT")"$'\n'
	done
	want='["grep","-c","alpha","in.txt"]
["sh","-c","sort in.txt >/dev/null; grep -c alpha in.txt; sort -r in.txt >/dev/null; :"]
["sort","-r","in.txt"]
["sort","in.txt"]'
	[ "$(printf '%s' "$argvs" | sort)" = "$want" ] ||
		fail_because "argv of the four reports: $(printf '%s' "$argvs" | sort | tr '\n' ' ')" ||
		return 1
	[ "$(shim_lines "^tsctrace: report written to $(abs_dir)/r\\.[0-9]+\\.json \\($(abs_dir)/r\\.json holds the report of pid [0-9]+, of the same run\\)$")" -eq 3 ] ||
		fail_because "expected three lines 'report written to .../r.PID.json (.../r.json holds the report of pid N, of the same run)': $(grep -v 'written to [^ ]*r.json$' "$T/t.shim" | head -2)" ||
		return 1

	# A report of an earlier run is replaced (the shell's run began before this one).
	sleep 0.1
	run_pair delivery_fixed_shell strlen "$B/t_basic" run "$T/side" || return 1
	pid=$(side pid)
	REPORT=$T/r.json
	ck "r.json: replaced by the later run (pid $pid)" ".pid == $pid" '.pid' || return 1
	[ "$(r_files | wc -l)" -eq 4 ] ||
		fail_because "the later run wrote beside r.json: $(r_files | tr '\n' ' ')"
}

# An existing file that is not a report is kept byte for byte; the report goes beside it, with
# one line. The same for a name without an extension.
test_delivery_not_report() {
	local pid dir
	dir=$(abs_dir)
	printf 'my own data\n\001\002\n' >"$T/r.json"
	cp "$T/r.json" "$T/keep"
	OUTTPL="$T/r.json"
	run_pair delivery_not_report strlen "$B/t_basic" run "$T/side" || return 1
	pid=$(side pid)
	cmp -s "$T/r.json" "$T/keep" || fail_because "r.json was changed" || return 1
	REPORT=$T/r.$pid.json
	[ -f "$REPORT" ] || fail_because "no report beside r.json: $(ls "$T" | tr '\n' ' ')" ||
		return 1
	is_json "$REPORT" && ck "pid $pid" ".pid == $pid" '.pid' || return 1
	[ "$(cat "$T/t.said")" = "tsctrace: not replacing $dir/r.json: it is not a tsctrace report; report written to $dir/r.$pid.json" ] ||
		fail_because "expected one line naming r.json and r.$pid.json, got: $(head -3 "$T/t.shim")" ||
		return 1
	cp "$T/keep" "$T/rdata"
	OUTTPL="$T/rdata"
	run_pair delivery_not_report strlen "$B/t_basic" run "$T/side" || return 1
	pid=$(side pid)
	cmp -s "$T/rdata" "$T/keep" && [ -s "$T/rdata.$pid" ] ||
		fail_because "no extension: rdata changed or no rdata.$pid: $(ls "$T" | tr '\n' ' ')"
}

# closeall_case MODE TEMPLATE: t_closeall MODE on a fresh data file, which must come out
# unchanged.
closeall_case() {
	printf 'data file, 26 bytes long\n' >"$T/data"
	cp "$T/data" "$T/data.orig"
	rm -f "$T"/r.* "$T"/tmp/*
	OUTTPL=$2
	run_pair delivery_closeall work_add "$B/t_closeall" "$1" "$T/data" ||
		sub_failed "$1, TSC_OUTPUT=$2" || return 1
	cmp -s "$T/data" "$T/data.orig" ||
		fail_because "$1, TSC_OUTPUT=$2: the program's data file on fd 2 was written to: $(head -c 120 "$T/data" | tr '\n' ' ')"
}

# report_in_file: exactly one r.PID.json and it is JSON with work_add's 1000 calls.
report_in_file() {
	one_report && ck "$1: work_add: calls == 1000" 'fn("work_add").calls == 1000' 'fn("work_add") | counts'
}

# A program that closes every descriptor and opens its data file on fd 2 (closeall), or dup2s
# it over every descriptor but 0-2 (dup2all), or over every one its limit allows (fdfull, with
# the hard limit lowered too: fdfull_hard), or closes everything above 2 (close3): the data
# file is never written to, and the report is delivered: to its file (and a line says so
# where stderr is left), to stderr for TSC_OUTPUT=-, in $TMPDIR when no stderr is left.
test_delivery_closeall() {
	local f
	mkdir "$T/tmp"
	XENV+=("TMPDIR=$T/tmp")
	CMP_STDERR=0
	closeall_case closeall "$T/r.%p.json" && report_in_file closeall || return 1
	closeall_case closeall - || return 1
	f=$(ls "$T/tmp")
	[[ $f == tsctrace.t_closeall.[0-9]*.json ]] && is_json "$T/tmp/$f" ||
		fail_because "closeall, TSC_OUTPUT=-: no JSON report in \$TMPDIR: $f" || return 1
	for m in dup2all fdfull close3; do
		closeall_case $m "$T/r.%p.json" && report_in_file $m || return 1
		[ "$(shim_lines '^tsctrace: report written to .*/r\.[0-9]+\.json$')" -eq 1 ] ||
			fail_because "$m: no 'report written to' line: $(head -2 "$T/t.shim")" || return 1
		closeall_case $m - && stderr_report "$B/t_closeall" || sub_failed "$m, TSC_OUTPUT=-" ||
			return 1
	done
	# Not one descriptor free and the limit cannot be raised: stderr (fd 2 itself), one line.
	closeall_case fdfull_hard "$T/r.%p.json" || return 1
	[ "$(shim_lines 'cannot write the report to .*stderr')" -eq 1 ] && stderr_report "$B/t_closeall" ||
		sub_failed "fdfull_hard" || return 1
	[ -z "$(ls "$T/tmp")" ] || fail_because "reports left in \$TMPDIR: $(ls "$T/tmp")"
}

# TSC_FOLLOW=0: t_kids starts t_basic in every way (fork + exec, vfork + exec, posix_spawn,
# posix_spawnp, system, popen), forks a child, then execs t_basic itself. Only t_kids reports,
# and the t_basic it became (the same process), which takes r.PID.json over from the image
# before its exec (moved beside it). By default every one of them reports.
test_delivery_follow() {
	local pid n
	XENV+=(TSC_FOLLOW=0)
	run_pair delivery_follow strlen,work_add "$B/t_kids" "$T/side" || return 1
	pid=$(side pid)
	[ "$(r_files | tr '\n' ' ')" = "r.$pid.$pid.json r.$pid.json " ] ||
		fail_because "TSC_FOLLOW=0: expected only r.$pid.json (the t_basic t_kids exec'd) and r.$pid.$pid.json (t_kids, moved there by its exec'd image), found: $(r_files | tr '\n' ' ')" ||
		return 1
	REPORT=$T/r.$pid.$pid.json
	ck "r.$pid.$pid.json is t_kids's" '.argv[0] | endswith("t_kids")' '.argv' || return 1
	REPORT=$T/r.$pid.json
	ck "r.$pid.json is t_basic's" '.argv[0] == "t_basic"' '.argv' || return 1
	rm -f "$T"/r.*
	XENV=()
	run_pair delivery_follow strlen,work_add "$B/t_kids" "$T/side" || return 1
	n=$(r_files | wc -l)
	[ "$n" -ge 9 ] ||
		fail_because "by default, children report too: expected at least 9 reports, found $n" ||
		return 1
	NOTE="$n reports when following"
}

# daemon(): the parent ends in the _exit libc calls itself, which no wrapper sees; libc's _exit
# is detoured at its entry (at start-up with inline hooks, at the daemon() call under
# TSC_HOOK=got): both the parent's report (250 calls) and the daemon child's (40: a fork child
# starts from zero) are written. [TSC_HOOK value]
delivery_daemon_case() {
	local n i
	[ -z "${1:-}" ] || XENV+=("TSC_HOOK=$1")
	OUTTPL="$T/r.%p.json"
	run_pair delivery_daemon work_add "$B/t_daemon" >/dev/null 2>&1
	# The child may still be running: wait for its report, as long as a run may take (a busy
	# machine can keep the daemon from running for seconds).
	for i in $(seq $((TIMEOUT * 10))); do
		n=$(r_files | wc -l)
		[ "$n" -ge 2 ] && break
		sleep 0.1
	done
	[ "$n" -eq 2 ] || fail_because "$n reports, expected 2 (parent and daemon child): $(r_files | tr '\n' ' '); shim: $(head -3 "$T/t.shim")" ||
		return 1
	calls=$(for f in $(r_files); do jq -r '.functions[] | select(.name == "work_add") | .calls' "$T/$f"; done | sort -n | tr '\n' ' ')
	[ "$calls" = "40 250 " ] || fail_because "work_add calls per report: $calls, expected 40 250" ||
		return 1
	NOTE="parent 250 calls, daemon child 40"
}
test_delivery_daemon() { delivery_daemon_case; }
test_delivery_daemon_got() { delivery_daemon_case got; }
test_delivery_daemon_inline() { delivery_daemon_case inline; }

