# A Go program with cgo (standard library only, no network, built here with GOCACHE in the
# build directory): 4 goroutines call a C function of its own 5,000 times each, tt_go_mix,
# traced: exactly 20,000 calls in the report. Output and exit status as untraced.
# Before the shim caught runtime.exit, a Go program got no report and no line saying why.
GO_PROG='package main

/*
#include <stdint.h>
__attribute__((noinline)) uint64_t tt_go_mix(uint64_t x) { return x * 2654435761u ^ (x >> 7); }
*/
import "C"

import (
	"fmt"
	"sync"
)

func main() {
	var wg sync.WaitGroup
	sums := make([]uint64, 4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 5000; i++ {
				sums[g] += uint64(C.tt_go_mix(C.uint64_t(g*5000 + i)))
			}
		}(g)
	}
	wg.Wait()
	fmt.Println(sums)
}'

field_go() {
	need go gcc || return 0
	local gob=$WORK/go got
	mkdir -p "$gob/src"
	printf '%s\n' "$GO_PROG" >"$gob/src/main.go"
	(cd "$gob/src" && GOCACHE=$gob/cache GOPATH=$gob/path GOFLAGS=-mod=mod GO111MODULE=off \
		CGO_ENABLED=1 timeout "$TIMEOUT" go build -o "$T/gomix" main.go) >"$T/build.log" 2>&1 ||
		fail_because "go build failed: $(tail -2 "$T/build.log")" || return 1
	(cd "$T" && measure u.run timeout "$TIMEOUT" ./gomix >u.out 2>u.err)
	echo $? >"$T/u.st"
	(cd "$T" && measure t.run timeout "$TIMEOUT" env "${TRACED[@]}" TSC_FUNCS=tt_go_mix \
		./gomix >t.out 2>t.err)
	echo $? >"$T/t.st"
	cmp -s "$T/u.st" "$T/t.st" || fail_because "exit status $(cat "$T/t.st") traced, $(cat "$T/u.st") untraced" || return 1
	cmp -s "$T/u.out" "$T/t.out" || fail_because "output differs: $(diff "$T/u.out" "$T/t.out" | head -3)" || return 1
	local reps=("$T"/r.*.json)
	got=0
	[ -f "${reps[0]:-}" ] && got=$(sum_calls tt_go_mix "${reps[@]}")
	table_row "Go program with cgo (4 goroutines)" "$(go version | awk '{ print $3 }')" tt_go_mix "$got"
	[ -f "${reps[0]:-}" ] && [ ${#reps[@]} -eq 1 ] ||
		fail_because "${#reps[@]} reports, expected 1; shim said: $(grep tsctrace: "$T/t.err" | grep -v rdtscp | head -2)" ||
		return 1
	[ "$got" = 20000 ] || fail_because "tt_go_mix: $got calls, the program made 20000" || return 1
	check_reports "${reps[@]}" || return 1
	not_open_to_others "${reps[@]}" || return 1
}
