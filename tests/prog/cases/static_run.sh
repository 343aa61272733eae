# `tsctrace run` of a statically linked program (no PT_INTERP): no dynamic loader runs in it,
# so LD_PRELOAD cannot bring the shim. One line says so and that no report will be written;
# the program runs as untraced (output, status). A C program built -static, and (with `go`)
# a pure-Go one, CGO_ENABLED=0, which the Go linker makes static.

# static_run_check PROG: PROG untraced, then under `tsctrace run`, compared.
static_run_check() {
	local tt ust tst n
	tt=$(dirname "$LIB")/tsctrace
	[ -x "$tt" ] || { skip_because "no tsctrace command beside $LIB"; return; }
	(cd "$T" && exec "$1") >"$T/u.out" 2>"$T/u.err"
	ust=$?
	(cd "$T" && exec "$tt" run -f main -o "$T/r.%p.json" -- "$1") >"$T/t.out" 2>"$T/t.err"
	tst=$?
	[ $ust = 5 ] || fail_because "test setup: untraced status $ust, expected 5" || return 1
	[ $tst = $ust ] || fail_because "status $tst under tsctrace run, $ust untraced" || return 1
	cmp -s "$T/u.out" "$T/t.out" || fail_because "stdout differs" || return 1
	n=$(wc -l <"$T/t.err")
	[ "$n" = 1 ] && grep -q "^tsctrace: run: $1 is statically linked .*LD_PRELOAD cannot reach it.*no report will be written$" "$T/t.err" ||
		fail_because "expected the one line on a static program, got: $(head -c 300 "$T/t.err")" ||
		return 1
	[ -z "$(find "$T" -maxdepth 1 -name 'r.*')" ] || fail_because "a report was written"
}

test_static_run() {
	printf '#include <stdio.h>\nint main(void) { puts("static"); return 5; }\n' >"$T/s.c"
	${CC:-gcc} -static -O2 -o "$T/static_c" "$T/s.c" 2>"$T/build.log" ||
		{ skip_because "no static libc to link with: $(head -c 200 "$T/build.log")"; return; }
	static_run_check "$T/static_c"
}

test_static_run_go() {
	command -v go >/dev/null || { skip_because "go is not installed (Debian: golang-go)"; return; }
	mkdir "$T/src"
	printf 'module puregostatic\n\ngo 1.19\n' >"$T/src/go.mod"
	printf 'package main\n\nimport "os"\n\nfunc main() {\n\tos.Stdout.WriteString("pure go\\n")\n\tos.Exit(5)\n}\n' \
		>"$T/src/main.go"
	(cd "$T/src" && GOFLAGS=-mod=mod GOPROXY=off GOCACHE=$B/gocache GOPATH=$B/gopath \
		CGO_ENABLED=0 go build -o "$T/static_go" .) >"$T/build.log" 2>&1 ||
		fail_because "go build: $(head -c 300 "$T/build.log")" || return 1
	static_run_check "$T/static_go"
}
run_test static_run_go test_static_run_go
