# program_name: a program run through a symlink (redis-server -> redis-check-rdb) is reported
# by the name the user ran, argv[0]'s base name: "program", the report file's %e and the
# metrics' program label; "exe" beside it is the executable behind the link. Before, all
# three said the link's target.
test_program_name() {
	local tsctrace prom
	tsctrace=$(dirname "$LIB")/tsctrace
	ln -s "$B/t_basic" "$T/alias-prog"
	OUTTPL="$T/r.%e.%p.json"
	run_pair program_name strlen "$T/alias-prog" run "$T/side" || return 1
	one_report || return 1
	case $(basename "$REPORT") in
	r.alias-prog.*.json) ;;
	*) fail_because "report file $(basename "$REPORT"), expected r.alias-prog.PID.json" || return 1 ;;
	esac
	ck "program is the name run, exe the executable behind the link" \
		'.program == "alias-prog" and .exe == "'"$B/t_basic"'"' '{program, exe}' || return 1
	prom=$("$tsctrace" export --format prometheus "$REPORT" 2>&1)
	printf '%s\n' "$prom" | grep -q 'program="alias-prog"' ||
		fail_because "metrics lack program=\"alias-prog\": $(printf '%s' "$prom" | grep -m1 program=)"
}
