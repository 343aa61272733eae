#!/bin/sh
# summary.sh RESULTS - total the PASS/FAIL lines every test runner appended to RESULTS and
# print the closing line "N passed, N failed". Fails when anything failed or nothing ran.
f=${1:?results file}
[ -f "$f" ] || { echo "0 passed, 1 failed (no test results: the test build failed)"; exit 1; }
pass=$(grep -c '^PASS ' "$f")
fail=$(grep -c '^FAIL ' "$f")
skip=$(grep -c '^SKIP ' "$f")
if [ "$fail" -gt 0 ]; then
	echo "failed:"
	grep '^FAIL ' "$f" | sed 's/^FAIL /  /'
fi
[ "$skip" -gt 0 ] && echo "skipped ($skip): $(grep '^SKIP ' "$f" | sed 's/^SKIP //' | cut -d: -f1 | tr '\n' ' ')"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
