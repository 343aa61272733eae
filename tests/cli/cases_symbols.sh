# cases_symbols.sh - names in the command's output, sourced by run.sh (which has the helpers):
# C++ functions shown demangled by report, diff, plot and export, and found by plot -f under
# their demangled name; call sites of a stripped program named function+offset at file:line
# from its separate debug file (found by build ID under --debug-dir, or by .gnu_debuglink),
# also once the program is gone from where it ran or another file has taken its place.
# shellcheck shell=bash disable=SC2016

# A C++ program with two overloads of ns::foo and a method, built here with g++.
cxx_program() {
	cat >"$1/cxx.cc" <<'CXX'
#include <cstdio>
namespace ns {
volatile long sink;
__attribute__((noinline)) long foo(int i) { sink += i; return i; }
__attribute__((noinline)) long foo(const char *s) { sink += s[0]; return s[0]; }
struct Klass { long method(long v); };
__attribute__((noinline)) long Klass::method(long v) { sink += v; return v; }
}
int main()
{
	ns::Klass k;
	long s = 0;
	for (int i = 0; i < 40; i++)
		s += ns::foo(i) + ns::foo("x") + (i < 25 ? k.method(i) : 0);
	std::printf("%ld\n", s);
	return 0;
}
CXX
	g++ -O1 -g -rdynamic -o "$1/cxx" "$1/cxx.cc"
}

t_cxx_names() {
	local d=$WORK/cxxnames why=""
	selected names/cxx-demangled || return 0
	if ! command -v g++ >/dev/null 2>&1; then
		skip names/cxx-demangled "g++ is not installed"
		return 0
	fi
	mkdir -p "$d"
	cxx_program "$d" || { fail names/cxx-demangled "g++ failed"; return 0; }
	for i in 1 2; do
		(cd "$d" && traced -f 'ns::foo,ns::Klass::method' -o "$d/r$i.json" --json -- ./cxx) \
			>"$d/out" 2>"$d/err" || why="traced run $i: $(head -c 300 "$d/err")"
	done
	[ -z "$why" ] && ! jq -e '[.functions[] | {demangled, calls}] | sort_by(.calls, .demangled) ==
		[{demangled: "ns::Klass::method(long)", calls: 25},
		 {demangled: "ns::foo(char const*)", calls: 40}, {demangled: "ns::foo(int)", calls: 40}]' \
		"$d/r1.json" >/dev/null && why="report: $(jq -c '[.functions[] | {name, demangled, calls}]' "$d/r1.json")"
	if [ -z "$why" ]; then
		tsc report "$d/r1.json"
		grep -qE '^ns::foo\(int\) +40 ' "$WORK/out" && grep -qE '^ns::Klass::method\(long\) +25 ' "$WORK/out" &&
			grep -qF 'histogram of ns::foo(char const*) in ' "$WORK/out" ||
			why="report: not demangled: $(head -c 400 "$WORK/out")"
	fi
	if [ -z "$why" ]; then
		tsc diff "$d/r1.json" "$d/r2.json"
		grep -qE '^ *ns::foo\(char const\*\) ' "$WORK/out" && ! grep -q '_ZN2ns' "$WORK/out" ||
			why="diff: not demangled: $(head -c 400 "$WORK/out")"
	fi
	if [ -z "$why" ]; then
		tsc plot -f 'ns::Klass::method(long)' -o "$d/p.svg" "$d/r1.json"
		[ $RC -eq 0 ] && grep -qF '>ns::Klass::method(long)</text>' "$d/p.svg" ||
			why="plot -f ns::Klass::method(long): status $RC, $(head -c 200 "$WORK/err")"
	fi
	if [ -z "$why" ]; then
		tsc export --openmetrics "$d/r1.json"
		grep -qF 'function="ns::foo(int)"' "$WORK/out" ||
			why="export: no function=\"ns::foo(int)\" label: $(grep -m1 _bucket "$WORK/out")"
	fi
	verdict names/cxx-demangled "$why"
}

# A C program whose two functions call getpid from known lines, built with -g, stripped.
stripped_program() {
	cat >"$1/app.c" <<'C'
#include <stdio.h>
#include <unistd.h>
__attribute__((noinline)) static long first(void)
{
	return getpid(); /* site first */
}
__attribute__((noinline)) static long second(void)
{
	return getpid(); /* site second */
}
int main(void)
{
	long s = 0;
	for (int i = 0; i < 30; i++)
		s += first();
	for (int i = 0; i < 20; i++)
		s += second();
	printf("%ld\n", s > 0);
	return 0;
}
C
	gcc -O1 -g -fno-inline -fno-optimize-sibling-calls -o "$1/full" "$1/app.c"
}

# sites_named WHAT: the last `tsctrace report --callers` names both sites with function and
# line, 30 and 20 calls; "" or why not.
sites_named() {
	local l1 l2
	l1=$(grep -n 'site first' "$d/app.c" | cut -d: -f1)
	l2=$(grep -n 'site second' "$d/app.c" | cut -d: -f1)
	[ $RC -eq 0 ] || { echo "$1: status $RC: $(head -c 200 "$WORK/err")"; return; }
	grep -qE "^ +30 .* first\+0x[0-9a-f]+ at app\.c:$l1 \(app\)\$" "$WORK/out" &&
		grep -qE "^ +20 .* second\+0x[0-9a-f]+ at app\.c:$l2 \(app\)\$" "$WORK/out" ||
		echo "$1: sites not named first at app.c:$l1, second at app.c:$l2: $(grep -A3 'callers of' "$WORK/out" | tr '\n' '|' | head -c 400)"
}

t_debug_sites() {
	local d=$WORK/stripped why="" id
	selected report/callers-debug-dir || selected report/callers-debuglink || return 0
	if ! command -v objcopy >/dev/null 2>&1 || ! command -v strip >/dev/null 2>&1; then
		skip report/callers-debug-dir "binutils (objcopy, strip) not installed"
		return 0
	fi
	mkdir -p "$d"
	stripped_program "$d" || { fail report/callers-debug-dir "gcc failed"; return 0; }
	id=$(readelf -n "$d/full" | awk '/Build ID/ { print $3 }')
	if selected report/callers-debug-dir; then
		# Debug file under a scratch directory by build ID; the program stripped of all.
		mkdir -p "$d/dbg/.build-id/${id:0:2}"
		objcopy --only-keep-debug "$d/full" "$d/dbg/.build-id/${id:0:2}/${id:2}.debug"
		strip -s -o "$d/app" "$d/full"
		(cd "$d" && TSC_CALLERS=1 traced -f getpid -o "$d/r.json" --json -- ./app) \
			>/dev/null 2>"$d/err" || why="traced run: $(head -c 300 "$d/err")"
		if [ -z "$why" ]; then
			tsc report --callers "$d/r.json"
			grep -q 'at app\.c' "$WORK/out" && why="named without its debug file: $(grep -A3 'callers of' "$WORK/out")"
			grep -qE '^ +30 .* app\+0x[0-9a-f]+$' "$WORK/out" ||
				why="without --debug-dir: not app+0x...: $(grep -A3 'callers of' "$WORK/out" | tr '\n' '|')"
		fi
		if [ -z "$why" ]; then
			tsc report --callers --debug-dir "$d/nothing-here" --debug-dir "$d/dbg" "$d/r.json"
			why=$(sites_named "--debug-dir")
		fi
		if [ -z "$why" ]; then # gone from where it ran: the debug file alone, by build ID
			mv "$d/app" "$d/app.moved"
			tsc report --callers --debug-dir "$d/dbg" "$d/r.json"
			why=$(sites_named "program moved away")
		fi
		if [ -z "$why" ]; then # another file at its path: not taken for it
			gcc -O0 -g -o "$d/app" "$d/app.c" # another build ID
			tsc report --callers "$d/r.json"
			grep -q 'at app\.c' "$WORK/out" &&
				why="another program at its path was taken for it: $(grep -A3 'callers of' "$WORK/out" | tr '\n' '|')"
			tsc report --callers --debug-dir "$d/dbg" "$d/r.json"
			[ -n "$why" ] || why=$(sites_named "another program at its path, --debug-dir")
		fi
		verdict report/callers-debug-dir "$why"
	fi
	if selected report/callers-debuglink; then
		# Debug file beside the program, named by its .gnu_debuglink: no option needed.
		why=""
		rm -rf "$d/link" && mkdir -p "$d/link"
		cp "$d/app.c" "$d/link/"
		objcopy --only-keep-debug "$d/full" "$d/link/app.debug"
		strip -s -o "$d/link/app" "$d/full"
		(cd "$d/link" && objcopy --add-gnu-debuglink=app.debug app)
		(cd "$d/link" && TSC_CALLERS=1 traced -f getpid -o "$d/link/r.json" --json -- ./app) \
			>/dev/null 2>"$d/err" || why="traced run: $(head -c 300 "$d/err")"
		if [ -z "$why" ]; then
			tsc report --callers "$d/link/r.json"
			why=$(d=$d/link sites_named ".gnu_debuglink")
		fi
		verdict report/callers-debuglink "$why"
	fi
}
