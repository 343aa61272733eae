#!/bin/sh
# layers-selftest.sh - tests/layers.py must say no: a small tree whose lower layer calls
# the upper one (a layer violation and a cycle between files), and whose upper layer's README
# names a layer it never uses, and one of whose files includes a header without its folder,
# fails each check it should.
# Appends one PASS/FAIL line to $RESULTS.
: "${RESULTS:=/dev/null}"
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d "${TMPDIR:-/tmp}/tsctrace-layers.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/src/low" "$t/src/high" "$t/src/hot" "$t/b/low" "$t/b/high" "$t/b/hot"
printf 'May call: nothing\n' >"$t/src/low/README.md"
printf 'May call: low, hot\n' >"$t/src/high/README.md"
printf 'May call: nothing\n' >"$t/src/hot/README.md"
printf 'int tt_high(void);\n' >"$t/src/low/low.h"
printf '#include "low.h"\nint tt_low(void) { return tt_high(); }\n' >"$t/src/low/low.c"
printf 'int tt_low(void);\nint tt_high(void) { return tt_low() + 1; }\n' >"$t/src/high/high.c"
printf 'int tt_hot(void);\nint tt_hot(void) { return puts("x"); }\nint puts(const char *);\n' \
	>"$t/src/hot/hot.c"
for f in low/low high/high hot/hot; do
	${CC:-cc} -c -w -o "$t/b/$f.o" "$t/src/$f.c" || exit 1
done
out=$(RESULTS=/dev/null python3 "$here/layers.py" "$t/src" "$t/b" 2>&1)
missing=""
for want in "no-file-cycles: FAILED" "layers: FAILED" "low may not call high" \
	"hot-calls-only-hot: FAILED" "may-call-used: FAILED" "high/README.md names hot," \
	"low/low.c:1 includes \"low.h\""; do
	printf '%s\n' "$out" | grep -q "$want" || missing="$missing; $want"
done
if [ -z "$missing" ]; then
	echo "PASS audit/layers-can-fail" >>"$RESULTS"
	echo "  audit   layers-can-fail: ok"
else
	echo "FAIL audit/layers-can-fail: layers.py did not say${missing#;}" >>"$RESULTS"
	echo "  audit   layers-can-fail: FAILED, layers.py did not say${missing#;}"
	exit 1
fi
