#!/bin/sh
# summary.sh RESULTS - total the PASS/FAIL lines every test runner appended to RESULTS and
# print the closing line "N passed, N failed, N skipped". Fails when anything failed or nothing ran.
# A skip is a scenario this machine cannot stage (the test printed why); it is never a pass.
f=${1:?results file}
[ -f "$f" ] || { echo "0 passed, 1 failed (no test results: the test build failed)"; exit 1; }
pass=$(grep -c '^PASS ' "$f")
fail=$(grep -c '^FAIL ' "$f")
skip=$(grep -c '^SKIP ' "$f")
if [ "$fail" -gt 0 ]; then
	echo "failed:"
	grep '^FAIL ' "$f" | sed 's/^FAIL /  /'
fi
if [ "$skip" -gt 0 ]; then
	echo "skipped:"
	grep '^SKIP ' "$f" | sed 's/^SKIP /  /'
fi
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
