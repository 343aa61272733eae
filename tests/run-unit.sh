#!/bin/sh
# run-unit.sh BIN... - run cmocka unit-test binaries in TAP mode; append one PASS/FAIL line
# per test case to $RESULTS (see summary.sh). A binary that crashes counts as one failure.
: "${RESULTS:=/dev/null}"
status=0
for bin in "$@"; do
	name=$(basename "$bin")
	out=$(CMOCKA_MESSAGE_OUTPUT=TAP "$bin" 2>&1)
	rc=$?
	printf '%s\n' "$out" | grep -E '^(not )?ok ' | while read -r line; do
		case "$line" in
		*"# SKIP"*) echo "SKIP unit/$name: ${line#*ok }" ;;
		"not ok"*) echo "FAIL unit/$name: ${line#not ok }" ;;
		*) echo "PASS unit/$name: ${line#ok }" ;;
		esac
	done >>"$RESULTS"
	if [ $rc -ne 0 ]; then
		status=1
		printf '%s\n' "$out" | grep -vE '^ok ' >&2
		printf '%s\n' "$out" | grep -qE '^not ok ' ||
			echo "FAIL unit/$name: exited with status $rc" >>"$RESULTS"
	fi
	echo "  unit    $name: $(printf '%s\n' "$out" | grep -cE '^ok ') ok, $(printf '%s\n' "$out" | grep -cE '^not ok ') not ok"
done
exit $status
