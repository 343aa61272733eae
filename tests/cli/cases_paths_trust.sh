# cases_paths_trust.sh - sourced by run.sh (which has the helpers; cases_symbols.sh's
# stripped_program too): `report --callers` reads only regular files from the paths a report
# names, in bounded time, and builds no path from a build_id that is not hex. A report is
# input: its objects[].path may name a FIFO (a plain open waits forever), a directory or
# /dev/zero, and its build_id "../../x" would lead out of --debug-dir.
# shellcheck shell=bash disable=SC2016

# trust_objects FILTER: the real report $d/r.json with jq's FILTER applied to the program's
# object (the one whose path ends in /app), into $d/x.json.
trust_objects() {
	jq ".objects |= map(if (.path | endswith(\"/app\")) then ($1) else . end)" "$d/r.json" \
		>"$d/x.json"
}

# one_refusal WHAT PATTERN: the last tsc run finished (status 0, the callers table printed)
# with exactly one "tsctrace:" line on stderr, matching PATTERN; "" or why not.
one_refusal() {
	if [ $RC -eq 124 ]; then
		echo "$1: still running after the time limit (killed)"
	elif [ $RC -ne 0 ]; then
		echo "$1: status $RC: $(head -c 300 "$WORK/err")"
	elif [ "$(grep -c '^tsctrace: ' "$WORK/err")" != 1 ] || [ "$(wc -l <"$WORK/err")" != 1 ]; then
		echo "$1: not one tsctrace: line: $(head -c 300 "$WORK/err" | tr '\n' '|')"
	elif ! grep -qE "$2" "$WORK/err"; then
		echo "$1: the line does not say /$2/: $(head -c 300 "$WORK/err")"
	elif ! grep -qE '^ +30 .* first\+0x[0-9a-f]+ \(app\)$' "$WORK/out"; then
		echo "$1: frames not as recorded: $(grep -A3 'callers of' "$WORK/out" | tr '\n' '|')"
	fi
}

t_paths_trust() {
	local d=$WORK/trust why="" w pid port
	for w in fifo directory dev-zero build-id-escape debuglink-fifo deadline ''; do
		[ -n "$w" ] || return 0 # none selected
		selected "paths-trust/$w" && break
	done
	mkdir -p "$d"
	stripped_program "$d" || { fail paths-trust/build "gcc failed"; return 0; }
	cp "$d/full" "$d/app"
	(cd "$d" && TSC_CALLERS=1 traced -f getpid -o "$d/r.json" --json -- ./app) \
		>/dev/null 2>"$d/err" || { fail paths-trust/build "traced run: $(head -c 300 "$d/err")"; return 0; }

	if selected paths-trust/fifo; then
		rm -f "$d/fifo" && mkfifo "$d/fifo"
		trust_objects ".path = \"$d/fifo\"" &&
			TIMEOUT=20 tsc report --callers "$d/x.json"
		verdict paths-trust/fifo "$(one_refusal "objects[].path a FIFO" "fifo: a FIFO")"
	fi
	if selected paths-trust/directory; then
		trust_objects ".path = \"$d\"" && TIMEOUT=20 tsc report --callers "$d/x.json"
		verdict paths-trust/directory "$(one_refusal "objects[].path a directory" "a directory")"
	fi
	if selected paths-trust/dev-zero; then
		trust_objects '.path = "/dev/zero"' && TIMEOUT=20 tsc report --callers "$d/x.json"
		verdict paths-trust/dev-zero "$(one_refusal "objects[].path /dev/zero" \
			"/dev/zero: a character device")"
	fi
	if selected paths-trust/build-id-escape; then
		# The program gone from its path; its debug file planted where the build ID
		# "../../x" would lead from DIR/.build-id/: DIR/../x.debug, and at DIR/../x.
		why=""
		mkdir -p "$d/esc/dbg/.build-id"
		objcopy --only-keep-debug "$d/full" "$d/esc/x.debug"
		cp "$d/full" "$d/esc/x"
		trust_objects ".path = \"$d/esc/gone/app\" | .build_id = \"../../x\"" &&
			TIMEOUT=60 tsc report --callers --debug-dir "$d/esc/dbg" "$d/x.json"
		why=$(one_refusal "build_id ../../x" "build_id is not a build ID in hex")
		if [ -z "$why" ] && command -v strace >/dev/null 2>&1; then
			(cd "$DATA" && timeout 60 strace -f -e trace=open,openat -o "$d/strace.log" \
				"$T" report --callers --debug-dir "$d/esc/dbg" "$d/x.json") \
				>/dev/null 2>&1
			grep -q "$d/esc/dbg" "$d/strace.log" &&
				why="a path was built from the build ID: $(grep "$d/esc" "$d/strace.log" | head -3 | tr '\n' '|')"
		fi
		verdict paths-trust/build-id-escape "$why"
	fi
	if selected paths-trust/debuglink-fifo; then
		# A stripped program whose .gnu_debuglink names a FIFO beside it: the search for
		# its debug file must not open it.
		mkdir -p "$d/link"
		objcopy --only-keep-debug "$d/full" "$d/link/app.debug"
		strip -s -o "$d/link/app" "$d/full"
		(cd "$d/link" && objcopy --add-gnu-debuglink=app.debug app)
		rm -f "$d/link/app.debug" && mkfifo "$d/link/app.debug"
		jq ".objects |= map(if (.path | endswith(\"/app\")) then (.path = \"$d/link/app\")
			else . end)" "$d/r.json" >"$d/link.json"
		TIMEOUT=20 tsc report --callers "$d/link.json"
		w=$(one_refusal ".gnu_debuglink a FIFO" "app.debug: a FIFO")
		# Stripped: the frames stay as the shim named them from the unstripped file.
		verdict paths-trust/debuglink-fifo "$w"
	fi
	if selected paths-trust/deadline; then
		# A debuginfod server that takes connections and never answers, the only place
		# left for the stripped program's debug file: the wait is bounded, then a line.
		why=""
		if ! command -v python3 >/dev/null 2>&1; then
			skip paths-trust/deadline "python3 is not installed"
		else
			rm -f "$d/port"
			python3 -c '
import socket, sys, time
s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8)
open(sys.argv[1], "w").write(str(s.getsockname()[1]))
conns = []
end = time.time() + 90
while time.time() < end:
    s.settimeout(1)
    try:
        conns.append(s.accept()[0])
    except OSError:
        pass
' "$d/port" &
			pid=$!
			for w in 1 2 3 4 5 6 7 8 9 10; do [ -s "$d/port" ] && break; sleep 0.5; done
			port=$(cat "$d/port" 2>/dev/null)
			rm -f "$d/link/app.debug"
			DEBUGINFOD_URLS="http://127.0.0.1:$port" DEBUGINFOD_TIMEOUT=600 \
				DEBUGINFOD_CACHE_PATH="$d/dcache" TIMEOUT=45 \
				tsc report --callers "$d/link.json"
			kill "$pid" 2>/dev/null
			wait "$pid" 2>/dev/null
			if [ -z "$port" ]; then
				why="the silent server did not start"
			elif [ $RC -ne 2 ]; then
				why="status $RC, not 2 (124: still running after 45 s): $(head -c 300 "$WORK/err")"
			elif [ "$(wc -l <"$WORK/err")" != 1 ] ||
				! grep -q "^tsctrace: report: $d/link/app: no answer after" "$WORK/err"; then
				why="not one line naming the file: $(head -c 300 "$WORK/err" | tr '\n' '|')"
			fi
			verdict paths-trust/deadline "$why"
		fi
	fi
}
