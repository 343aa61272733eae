# A Go program (cgo, so dynamically linked and LD_PRELOAD applies) with TSC_DUMP_SIGNAL=USR2,
# SIGUSR2 sent to each of its threads: it lives on as untraced (the Go runtime ends the process
# for a signal on a thread it does not know: the shim's threads must not take it), and with
# signal.Notify(USR2) it gets the signal; the dump is written each time. Skipped without `go`.
test_sig_go() {
	local src=${BASH_SOURCE[0]%.sh} mode
	command -v go >/dev/null || { skip_because "go is not installed (Debian: golang-go)"; return; }
	# Offline, its caches in this run's directory: only the standard library is needed.
	(cd "$src" && GOFLAGS=-mod=mod GOPROXY=off GOCACHE=$T/gocache GOPATH=$T/gopath \
		CGO_ENABLED=1 go build -o "$T/sig_go" .) >"$T/build.log" 2>&1 ||
		fail_because "go build: $(head -c 300 "$T/build.log")" || return 1
	XENV=(TSC_DUMP_SIGNAL=USR2)
	for mode in plain notify; do
		rm -f "$T"/r.*
		run_pair sig_go write "$T/sig_go" "$T" $mode || sub_failed "$mode" || return 1
		one_report || sub_failed "$mode: the dump" || return 1
		ck "$mode: the dump is a report" '.schema == 1' '.schema' || return 1
	done
}
