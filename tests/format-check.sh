#!/bin/sh
# format-check.sh - list C files whose layout differs from .clang-format; changes nothing.
#
#   sh tests/format-check.sh [FILE...]
#
# Default FILEs: every *.c and *.h tracked by git under src tests examples bench (not *.S).
# Prints one line per file that would change, then "format: N files checked, M would change".
# Exit: 0 clean (or clang-format missing: skipped), 1 some file would change, 2 could not check.
# Fix a file with `clang-format -i FILE`. CLANG_FORMAT=clang-format-14 picks another binary.

cf=${CLANG_FORMAT:-clang-format}
root=$(cd "$(dirname "$0")/.." && pwd) || exit 2

if ! command -v "$cf" >/dev/null 2>&1; then
	echo "format: skipped: $cf is not installed (Debian package clang-format)"
	exit 0
fi

if [ $# -eq 0 ]; then
	cd "$root" || exit 2
	# Outside a git checkout, fall back to find.
	files=$(git ls-files -- 'src/*.[ch]' 'tests/*.[ch]' 'examples/*.[ch]' 'bench/*.[ch]' \
		2>/dev/null) ||
		files=$(find src tests examples bench -type f -name '*.[ch]' | sort)
	# One path a line: split on newlines only, no globbing.
	set -f
	IFS='
'
	# shellcheck disable=SC2086
	set -- $files
	unset IFS
	set +f
fi

for f in "$@"; do
	if [ ! -f "$f" ]; then
		echo "format: $f: no such file" >&2
		exit 2
	fi
done

if [ $# -gt 0 ]; then
	# One run for all files; the style is always the project's, wherever the files are.
	out=$("$cf" --dry-run -Werror --style="file:$root/.clang-format" -- "$@" 2>&1)
	rc=$?
else
	out='' rc=0
fi

# Each violation is reported as "FILE:LINE:COL: error: code should be clang-formatted".
changed=$(printf '%s\n' "$out" | awk '
	match($0, /:[0-9]+:[0-9]+: (error|warning): code should be clang-formatted/) {
		f = substr($0, 1, RSTART - 1)
		if (!(f in n))
			order[++k] = f
		n[f]++
	}
	END {
		for (i = 1; i <= k; i++)
			printf "%s: would change (%d place%s)\n", order[i], n[order[i]],
				(n[order[i]] > 1 ? "s" : "")
	}')

if [ "$rc" -ne 0 ] && [ -z "$changed" ]; then
	# Not a layout difference: a bad .clang-format, an unreadable file...
	printf '%s\n' "$out" >&2
	echo "format: $cf failed (exit $rc)" >&2
	exit 2
fi

[ -n "$changed" ] && printf '%s\n' "$changed"
m=$(printf '%s' "$changed" | grep -c .)
echo "format: $# files checked, $m would change"
[ "$m" -eq 0 ]
