# A Go program with cgo (dynamically linked: LD_PRELOAD applies) leaves by the Go runtime's raw
# exit_group, never by libc's exit: the shim hooks runtime.exit so that the report is written
# (hook/go_runtime.c). Its C function go_work is traced with exact counts however it leaves;
# Go functions are refused in one line saying why, and the program runs on as untraced.
# Skipped without `go`.

GO_CGO_CALLS=1000

# go_cgo_build: build the program once per run into $WORK (offline: only the standard library
# is needed; Go's caches in the build directory, kept between runs); GO_CGO is its path.
go_cgo_build() {
	local src=${BASH_SOURCE[0]%.sh}
	GO_CGO=$WORK/go_cgo.bin
	[ -x "$GO_CGO" ] && return 0
	(cd "$src" && GOFLAGS=-mod=mod GOPROXY=off GOCACHE=$B/gocache GOPATH=$B/gopath \
		CGO_ENABLED=1 go build -o "$GO_CGO" .) >"$T/build.log" 2>&1 ||
		fail_because "go build: $(head -c 300 "$T/build.log")"
}

# go_cgo_case HOW STATUS: leave by HOW (main.go), expecting STATUS untraced.
go_cgo_case() {
	command -v go >/dev/null || { skip_because "go is not installed (Debian: golang-go)"; return; }
	go_cgo_build || return 1
	WANT_STATUS=$2
	[ "$1" = panic ] && CMP_STDERR=0 # the panic's trace names goroutine addresses
	run_pair "go_cgo_$1" go_work "$GO_CGO" $GO_CGO_CALLS "$1" || return 1
	one_report || return 1
	ck "go_work: calls == $GO_CGO_CALLS" "fn(\"go_work\").calls == $GO_CGO_CALLS" \
		'fn("go_work") | counts' || return 1
	ck "go_work: calls == timed + dropped" \
		'fn("go_work") | .calls == .timed + .dropped' 'fn("go_work") | counts' || return 1
	grep -q '^tsctrace: a Go program: its C functions' "$T/t.said" ||
		fail_because "no line saying this is a Go program: $(head -3 "$T/t.said")"
}
test_go_cgo_return() { go_cgo_case return 0; }
test_go_cgo_exit3() { go_cgo_case exit3 3; }
test_go_cgo_panic() { go_cgo_case panic 2; }
run_test go_cgo_return test_go_cgo_return
run_test go_cgo_exit3 test_go_cgo_exit3
run_test go_cgo_panic test_go_cgo_panic

# Go functions named: runtime.memmove (found in .symtab; patched inline it crashed the
# program), runtime.mallocgc, runtime.nanotime1 (its symbol is runtime.nanotime1.abi0: found
# nowhere). One line names all three and says why; go_work is traced all the same.
test_go_cgo_names() {
	local n
	command -v go >/dev/null || { skip_because "go is not installed (Debian: golang-go)"; return; }
	go_cgo_build || return 1
	run_pair go_cgo_names go_work,runtime.memmove,runtime.mallocgc,runtime.nanotime1 \
		"$GO_CGO" $GO_CGO_CALLS return || return 1
	n=$(grep -c 'Go functions cannot be traced' "$T/t.said")
	[ "$n" = 1 ] || fail_because "$n lines on Go functions, expected 1: $(head -3 "$T/t.said")" ||
		return 1
	grep -q '^tsctrace: runtime.memmove, runtime.mallocgc, runtime.nanotime1: Go functions' \
		"$T/t.said" || fail_because "the line names not the three: $(grep Go "$T/t.said")" ||
		return 1
	! grep -q 'later dlopen' "$T/t.said" ||
		fail_because "a Go name promised to a later dlopen: $(grep dlopen "$T/t.said")" || return 1
	[ "$(wc -l <"$T/t.said")" = 2 ] ||
		fail_because "more lines than the Go line and the report's: $(cat "$T/t.said")" || return 1
	one_report || return 1
	ck "only go_work traced" '[.functions[].name] == ["go_work"]' '[.functions[].name]' || return 1
	ck "go_work: calls == $GO_CGO_CALLS" "fn(\"go_work\").calls == $GO_CGO_CALLS" \
		'fn("go_work") | counts' || return 1
	# A glob matching Go functions only: the same one line, and no "matches no function".
	rm -f "$T"/r.*
	run_pair go_cgo_names go_work,'runtime.mallocg*' "$GO_CGO" $GO_CGO_CALLS return || return 1
	[ "$(cat "$T/t.said")" = "$(printf '%s\n%s' \
		"tsctrace: runtime.mallocg*: Go functions cannot be traced: Go's calls keep no register the trampoline needs, and goroutines change stack and thread mid-call; only C functions can (cgo's, libraries')" \
		"tsctrace: report written to $T/$(basename "$REPORT")")" ] ||
		fail_because "a glob of Go functions: $(head -c 300 "$T/t.said")"
}
run_test go_cgo_names test_go_cgo_names

# A Go program without cgo built as a PIE is dynamically linked (the loader brings the shim
# and libc) but its runtime sets each thread's %fs to a block of its own: the shim's
# thread-local state and libc's errno are not there. Nothing is hooked at its exit (hooked,
# it died of SIGSEGV in the report), one line says why, no report; it runs as untraced.
test_go_nocgo_pie() {
	command -v go >/dev/null || { skip_because "go is not installed (Debian: golang-go)"; return; }
	mkdir "$T/src"
	printf 'module gopie\n\ngo 1.19\n' >"$T/src/go.mod"
	printf 'package main\n\nimport "os"\n\nfunc main() {\n\tos.Stdout.WriteString("pie\\n")\n\tos.Exit(4)\n}\n' \
		>"$T/src/main.go"
	(cd "$T/src" && GOFLAGS=-mod=mod GOPROXY=off GOCACHE=$B/gocache GOPATH=$B/gopath \
		CGO_ENABLED=0 go build -buildmode=pie -o "$T/gopie" .) >"$T/build.log" 2>&1 ||
		fail_because "go build: $(head -c 300 "$T/build.log")" || return 1
	readelf -lW "$T/gopie" | grep -q INTERP ||
		{ skip_because "this Go links a PIE without cgo statically"; return; }
	WANT_STATUS=4
	run_pair go_nocgo_pie strlen "$T/gopie" || return 1
	[ "$(cat "$T/t.said")" = "tsctrace: a Go program without cgo: the Go runtime gives its threads a thread pointer of its own, not libc's, so nothing in it is traced and no report is written" ] ||
		fail_because "expected the one line on a Go program without cgo: $(head -c 300 "$T/t.said")" ||
		return 1
	[ -z "$REPORT" ] || fail_because "a report was written"
}
run_test go_nocgo_pie test_go_nocgo_pie

# The same program stripped: no .symtab, so runtime.exit is found by its bytes (goprog.c), and
# go_work through the dynamic symbols cgo's external link exports.
test_go_cgo_stripped() {
	command -v go >/dev/null || { skip_because "go is not installed (Debian: golang-go)"; return; }
	go_cgo_build || return 1
	strip -o "$T/go_cgo_s" "$GO_CGO" || fail_because "test setup: strip failed" || return 1
	WANT_STATUS=3
	run_pair go_cgo_stripped go_work "$T/go_cgo_s" $GO_CGO_CALLS exit3 || return 1
	one_report || return 1
	ck "go_work: calls == $GO_CGO_CALLS" "fn(\"go_work\").calls == $GO_CGO_CALLS" \
		'fn("go_work") | counts'
}
run_test go_cgo_stripped test_go_cgo_stripped
