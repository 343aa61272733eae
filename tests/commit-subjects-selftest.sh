#!/bin/sh
# commit-subjects-selftest.sh - tests/commit-subjects.sh must say no to a subject without its
# area and to one over 72 characters, yes to good ones, and skip (passing) outside a git
# checkout and where its start commit is absent. Appends one PASS/FAIL line to $RESULTS.
: "${RESULTS:=/dev/null}"
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d "${TMPDIR:-/tmp}/tsctrace-subjects.XXXXXX") || exit 1
trap 'rm -rf "$t"' EXIT
# A temporary directory inside some checkout must still read as outside one.
export GIT_CEILING_DIRECTORIES="$t"
command -v git >/dev/null 2>&1 || {
	echo "SKIP audit/commit-subjects-can-fail: git is not installed" >>"$RESULTS"
	echo "  audit   commit-subjects-can-fail: skipped, git is not installed"
	exit 0
}
commit() {
	git -C "$t/repo" -c user.name=t -c user.email=t@example.invalid commit -q --allow-empty \
		-m "$1" -m "Why."
}
check() { # expected-status what-it-must-print
	out=$(RESULTS=/dev/null sh "$here/commit-subjects.sh" "$t/repo" 2>&1)
	s=$?
	if [ "$s" -ne "$1" ] || ! printf '%s\n' "$out" | grep -q "$2"; then
		wrong="$wrong; exit $s, not $1, or no '$2' in: $out"
	fi
}
wrong=""
mkdir "$t/repo"
check 0 "skipped, not a git checkout"
git -C "$t/repo" init -q
commit "old history: anything at all, of any length, as before the rule was made"
TT_SUBJECTS_START=$(git -C "$t/repo" rev-parse HEAD)
export TT_SUBJECTS_START
commit "hook: a refused function names the jump that refused it"
commit "tests/prog, docs: one file per program test"
check 0 "commit-subjects: ok"
commit "Fixed the thing"
check 1 "is not 'area: what changed': Fixed the thing"
git -C "$t/repo" reset -q --hard HEAD~1
commit "hook: $(printf '%070d' 0)"
check 1 "has 76 characters, over 72"
TT_SUBJECTS_START=0123456789abcdef0123456789abcdef01234567 check 0 "is not in this clone"
if [ -z "$wrong" ]; then
	echo "PASS audit/commit-subjects-can-fail" >>"$RESULTS"
	echo "  audit   commit-subjects-can-fail: ok"
else
	echo "FAIL audit/commit-subjects-can-fail:${wrong#;}" >>"$RESULTS"
	echo "  audit   commit-subjects-can-fail: FAILED${wrong#;}"
	exit 1
fi
