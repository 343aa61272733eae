#!/bin/sh
# run.sh B LIB [LINES] - sort a few hundred thousand lines under tsctrace and print each text
# report: once in the C locale (sort compares lines with memcmp), once in a UTF-8 locale (sort
# compares them with strcoll): en_US.UTF-8 when installed, else C.UTF-8.
#
#   B      build directory holding real_program/gen_lines (absolute)
#   LIB    path of libtsctrace.so (absolute)
#   LINES  input size, default 300000
#
# Needs only coreutils (sort, date, cksum), grep, sed and the shim. Each traced run's output is
# checked against an untraced run of the same command: tsctrace must not change what sort writes.
set -eu

B=$1
LIB=$2
LINES=${3:-300000}
D=$B/real_program
IN=$D/input.txt
SORT=$(command -v sort)
# Hot libc functions that sort imports (nm -D --undefined-only /usr/bin/sort):
#   memcmp  line comparison in the C locale    strcoll  line comparison in other locales
#   memchr  finds each line's end when reading malloc/free  buffers and line tables
FUNCS=memcmp,strcoll,memchr,malloc,free

[ -x "$D/gen_lines" ] || { echo "run.sh: $D/gen_lines missing: run make first" >&2; exit 1; }
[ -f "$LIB" ] || { echo "run.sh: $LIB missing: build tsctrace first" >&2; exit 1; }

# Say which of the names sort really imports (nm comes with binutils, which gcc needs).
if command -v nm >/dev/null 2>&1; then
	imported=$(nm -D --undefined-only "$SORT" | sed -n 's/^ *U \([^@]*\).*/\1/p')
	for f in $(echo "$FUNCS" | tr ',' ' '); do
		echo "$imported" | grep -qx "$f" ||
			echo "note: $SORT does not import $f; its row can only count calls made inside libc (inline hook)"
	done
fi

"$D/gen_lines" "$LINES" >"$IN"

ms_since() { # start_ns -> elapsed milliseconds
	echo $((($(date +%s%N) - $1) / 1000000))
}

# The second locale: a real one with collation rules if installed (en_US.UTF-8 from the locales
# package), else C.UTF-8 (built into glibc: code-point order, no rules).
UTF8=$(locale -a 2>/dev/null | grep -ix -m1 "en_US.utf-\{0,1\}8") ||
	UTF8=$(locale -a 2>/dev/null | grep -ix -m1 "c.utf-\{0,1\}8") || UTF8=
[ -n "$UTF8" ] || echo "(no UTF-8 locale installed here: only the C locale run)"

for loc in C $UTF8; do
	tag=$(echo "$loc" | tr 'A-Z.' 'a-z_')
	report=$D/report.$tag.txt
	rm -f "$report" "$D/out.$tag" "$D/ref.$tag"
	echo "=== real_program: LC_ALL=$loc sort $LINES lines, TSC_FUNCS=$FUNCS ==="

	t=$(date +%s%N)
	LC_ALL=$loc "$SORT" -o "$D/ref.$tag" "$IN"
	plain_ms=$(ms_since "$t")

	t=$(date +%s%N)
	LC_ALL=$loc LD_PRELOAD=$LIB TSC_FUNCS=$FUNCS TSC_OUTPUT=$report \
		"$SORT" -o "$D/out.$tag" "$IN"
	traced_ms=$(ms_since "$t")

	if [ "$(cksum <"$D/ref.$tag")" != "$(cksum <"$D/out.$tag")" ]; then
		echo "run.sh: traced sort wrote different output than untraced sort" >&2
		exit 1
	fi
	echo "sort took $plain_ms ms untraced, $traced_ms ms traced; same output"
	if [ ! -s "$report" ]; then
		echo "run.sh: no report at $report" >&2
		exit 1
	fi
	cat "$report"
	echo
done
