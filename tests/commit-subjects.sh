#!/bin/sh
# commit-subjects.sh [DIR] - every commit subject since the rule was made reads
# `area: what changed` in at most 72 characters (CONTRIBUTING.md, Commits).
#
# Only commits after START are held to it: older history cannot be rewritten. Merge commits
# are not checked (their subject is git's). Outside a git checkout, without git, or where
# START is absent (a tarball, a shallow clone) or not an ancestor of HEAD, it says why it
# skipped and passes. TT_SUBJECTS_START overrides START (the selftest's own history).
# Appends one PASS/FAIL/SKIP line to $RESULTS.
: "${RESULTS:=/dev/null}"
START=${TT_SUBJECTS_START:-55f1991efe1159d81b7540a5dc2b8eb048ec34cb}
MAX=72
dir=${1:-$(dirname "$0")/..}

skip() {
	echo "SKIP audit/commit-subjects: $1" >>"$RESULTS"
	echo "  audit   commit-subjects: skipped, $1"
	exit 0
}

command -v git >/dev/null 2>&1 || skip "git is not installed"
cd "$dir" 2>/dev/null || skip "no directory $dir"
[ "$(git rev-parse --is-inside-work-tree 2>/dev/null)" = true ] || skip "not a git checkout"
short=$(printf '%.7s' "$START")
git cat-file -e "$START^{commit}" 2>/dev/null ||
	skip "commit $short is not in this clone (a shallow clone?)"
git merge-base --is-ancestor "$START" HEAD 2>/dev/null || skip "HEAD does not descend from $short"

# Area: a folder or part (`hook`, `tests/prog`, `README`), several joined by ", ".
area='[A-Za-z0-9][A-Za-z0-9_./+-]*'
shape="^$area(, $area)*: [^ ]"
bad=$(git log --no-merges --format='%h %s' "$START..HEAD" | while read -r hash subject; do
	n=$(printf '%s' "$subject" | LC_ALL=C.UTF-8 wc -m)
	if ! printf '%s\n' "$subject" | grep -Eq "$shape"; then
		echo "$hash is not 'area: what changed': $subject"
	elif [ "$n" -gt "$MAX" ]; then
		echo "$hash has $n characters, over $MAX: $subject"
	fi
done)
if [ -z "$bad" ]; then
	echo "PASS audit/commit-subjects" >>"$RESULTS"
	echo "  audit   commit-subjects: ok"
else
	echo "FAIL audit/commit-subjects: $(printf '%s\n' "$bad" | head -1)" >>"$RESULTS"
	echo "  audit   commit-subjects: FAILED"
	printf '%s\n' "$bad" | sed 's/^/          /'
	exit 1
fi
