#!/bin/sh
# install.sh BUILD - `make install` into a scratch DESTDIR with a custom PREFIX, then use what
# was installed as a user would: compile against tsctrace.h with the .pc file, and preload the
# installed library by its path. `make uninstall` must leave nothing behind.
B=${1:?build dir}
: "${RESULTS:=/dev/null}"
top=$(cd "$(dirname "$0")/.." && pwd)
d=$(mktemp -d)
why=""
pfx=/opt/tsctrace-test
# A plain build, also under `make check SANITIZE=...` (whose settings MAKEFLAGS would pass on).
unset MAKEFLAGS MAKELEVEL MFLAGS
make -s -C "$top" install SANITIZE= DESTDIR="$d" PREFIX=$pfx >"$d/log" 2>&1 || why="make install failed: $(tail -3 "$d/log")"
for f in lib/libtsctrace.so include/tsctrace.h lib/pkgconfig/tsctrace.pc; do
	[ -z "$why" ] && [ ! -f "$d$pfx/$f" ] && why="$pfx/$f not installed"
done
if [ -z "$why" ]; then
	grep -q "^libdir=$pfx/lib\$" "$d$pfx/lib/pkgconfig/tsctrace.pc" || why="tsctrace.pc names the wrong libdir"
fi
if [ -z "$why" ]; then
	cat >"$d/app.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <tsctrace.h>
int main(int argc, char **argv)
{
	(void)argc;
	printf("%s %zu\n", tsctrace_version(), strlen(argv[0]));
	return tsctrace_dump() == 0 ? 0 : 1;
}
C
	gcc -fno-builtin -I"$d$pfx/include" "$d/app.c" -o "$d/app" -L"$d$pfx/lib" -ltsctrace \
		-Wl,-rpath,"$d$pfx/lib" 2>"$d/cc.err" || why="compiling against tsctrace.h failed: $(cat "$d/cc.err")"
fi
if [ -z "$why" ]; then
	# GOT hooks: only the program's own call counts (inline, printf's would too).
	(cd "$d" && LD_PRELOAD="$d$pfx/lib/libtsctrace.so" TSC_FUNCS=strlen TSC_QUIET=1 TSC_HOOK=got \
		TSC_FORMAT=json TSC_OUTPUT="$d/r.json" ./app >"$d/out" 2>"$d/err") ||
		why="the installed shim did not trace (tsctrace_dump failed): $(cat "$d/err")"
	[ -z "$why" ] && ! jq -e '.functions[] | select(.name == "strlen") | .calls == 1' "$d/r.json" >/dev/null &&
		why="report of the installed shim: strlen calls != 1"
fi
make -s -C "$top" uninstall SANITIZE= DESTDIR="$d" PREFIX=$pfx >/dev/null 2>&1
[ -z "$why" ] && [ -n "$(find "$d$pfx" -type f 2>/dev/null)" ] && why="uninstall left files behind"
if [ -z "$why" ]; then
	echo "PASS install/destdir-prefix" >>"$RESULTS"; echo "  install destdir-prefix: ok"
	rm -rf "$d"
else
	echo "FAIL install/destdir-prefix: $why" >>"$RESULTS"; echo "  install destdir-prefix: FAILED $why"
	exit 1
fi
