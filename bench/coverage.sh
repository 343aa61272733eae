#!/bin/sh
# coverage.sh B LIB [TARGET...] - inline coverage: of every function of an object, how many
# TSC_HOOK=inline traces inline, through a trap, through its GOT slots only, or not at all,
# and why.
#
# TARGETs (default: all of them):
#   libc libz libsqlite3  every exported function of libc.so.6, libz.so.1, libsqlite3.so.0
#                         (each name once, its default version), run in B/cov/covload,
#                         covload_z, covload_sqlite3 (covload.c), which load the library at
#                         start-up and work with it
#   tests-O0 tests-O2     every .symtab function of t_basic, t_callers, t_recursion and their
#                         libraries (tests/prog), built at -O0 and -O2 in B/cov/O0 and O2, each
#                         object in its own program
# Built by `make -C bench cov`. Names go to the shim as `object:name` (a name the shim exports
# itself, dlopen or execve, goes without the object: the shim traces its wrapper), in batches
# of at most COV_BATCH (default and most 1000: the shim traces at most 1023 functions), one
# traced run per batch. The route per function is the report's `hook` ("count" when the report
# says `count_only`: every call counted, none timed); a function the report
# leaves out is not traced; the reason is the shim's `tsctrace:` line about it. Every traced run
# must exit and print as the program does without the shim.
#
# COV_ROWS=FILE appends the summary rows (run.sh's rows.tsv), COV_MD=FILE writes the tables as
# markdown. Exit status 1 only when something broke (a traced run crashed or printed otherwise);
# the target (100% traced, >= 99% inline of the functions of 5 bytes or more) is only printed.
set -u

B=$1
LIB=$2
shift 2
TARGETS=${*:-libc libz libsqlite3 tests-O0 tests-O2}
BATCH=${COV_BATCH:-1000}
[ "$BATCH" -ge 1 ] 2>/dev/null && [ "$BATCH" -le 1000 ] || BATCH=1000
C=$B/cov
CW=$B/work/coverage
SHIM=$(basename "$LIB")
broken=0

rm -rf "$CW"
mkdir -p "$CW"
command -v jq >/dev/null 2>&1 || {
	echo "bench: coverage: jq is needed to read the JSON reports" >&2
	exit 1
}

fail() {
	echo "bench: BROKEN: coverage: $*"
	broken=1
}

# The toolchain's start-up code (crt1.o, crti.o, crtbegin.o...) in every program and library:
# not the project's functions, left out of the tests' counts (and said so).
CRT=" _start _init _fini deregister_tm_clones register_tm_clones __do_global_dtors_aux "
CRT="$CRT frame_dummy _dl_relocate_static_pie __libc_csu_init __libc_csu_fini "

# funcs FILE dyn|sym [CRTFILE]: "name<TAB>size<TAB>@VERSION" per function that FILE defines:
# its exported functions, each name once (its default version; a name with only older
# versions, which programs linked long ago still use, is named name@VERSION, the last listed),
# or every function of its .symtab but the toolchain's (CRT: their names are appended to
# CRTFILE). Size "?" when unknown (an IFUNC, whose symbol size is its resolver's, or a symbol
# without size).
funcs() {
	if [ "$2" = dyn ]; then readelf -W --dyn-syms "$1"; else readelf -W -s "$1"; fi 2>/dev/null |
		awk -v want="$2" -v crt="$CRT" -v crtf="${3:-/dev/null}" '
		/^Symbol table/ { symtab = $3 ~ /symtab/; next }
		want == "sym" && !symtab { next }
		($4 != "FUNC" && $4 != "IFUNC") || $7 == "UND" || $7 == "ABS" { next }
		want == "dyn" && ($5 == "LOCAL" || $6 == "HIDDEN" || $6 == "INTERNAL") { next }
		{ n = $8; v = ""
		  s = ($4 == "IFUNC" || $3 == "0") ? "?" : ($3 ~ /^0x/ ? 65536 : $3) }
		want == "sym" { sub(/@.*/, "", n)
		  if (index(crt, " " n " ")) print n >> crtf; else print n "\t" s "\t"; next }
		index(n, "@") && !index(n, "@@") { v = substr(n, index(n, "@")); sub(/@.*/, "", n)
		  if (!(n in def)) { if (!(n in old)) ord[++k] = n; old[n] = s "\t" v }; next }
		{ sub(/@.*/, "", n); if (!(n in def) && !(n in old)) ord[++k] = n; def[n] = s "\t" }
		END { for (i = 1; i <= k; i++)
			print ord[i] "\t" (ord[i] in def ? def[ord[i]] : old[ord[i]]) }'
}

# loaded PROGRAM SONAME: the file the loader gives PROGRAM for SONAME.
loaded() {
	ldd "$1" 2>/dev/null | awk -v s="$2" '$1 == s && $3 ~ /^\// { print $3; exit }'
}

# Names the shim exports (its wrappers): named without an object, they trace the wrapper.
readelf -W --dyn-syms "$LIB" 2>/dev/null |
	awk '$4 == "FUNC" && $7 != "UND" { sub(/@.*/, "", $8); print $8 }' >"$CW/shim.names"

# ---- one object: traced runs in batches, then per function its route and reason -------------

# measure TARGET OBJECT SPECOBJ PROGRAM NAMES: every function in NAMES (from funcs) traced with
# TSC_FUNCS=SPECOBJ:name while PROGRAM runs; appends "route<TAB>reason<TAB>5+" per function
# to $CW/TARGET.inst (5+: 1 for a function of 5 bytes or more, or of unknown size).
measure() {
	t=$1 obj=$2 spec=$3 prog=$4 names=$5
	u=$CW/$t.$obj
	[ -s "$names" ] || return 0
	(cd "$CW" && "$prog") >"$u.bare.out" 2>"$u.bare.err"
	bare_rc=$?
	awk -F '\t' '!seen[$1]++ { print $1 $3 }' "$names" |
		awk -v b="$BATCH" -v u="$u" '{ print > (u ".batch." int((NR - 1) / b)) }'
	: >"$u.report"
	: >"$u.lines"
	for bf in "$u".batch.*; do
		k=${bf##*.}
		funcs_list=$(awk -v o="$spec" 'NR == FNR { shim[$0] = 1; next }
			{ printf "%s%s", (FNR > 1 ? "," : ""), ($0 in shim ? "" : o ":") $0 }' \
			"$CW/shim.names" "$bf")
		json=$u.$k.json
		# env after timeout: only the program is traced, not timeout.
		(cd "$CW" && timeout -k 5 120 env LD_PRELOAD="$LIB" TSC_FUNCS="$funcs_list" \
			TSC_HOOK=inline TSC_FORMAT=json TSC_OUTPUT="$json" TSC_QUIET=1 "$prog") \
			>"$u.$k.out" 2>"$u.$k.err"
		rc=$?
		why=""
		if [ "$rc" != "$bare_rc" ]; then
			why="exited $rc, not $bare_rc as without the shim"
		elif ! cmp -s "$u.bare.out" "$u.$k.out"; then
			why="printed otherwise than without the shim"
		elif [ ! -s "$json" ]; then
			why="wrote no report"
		fi
		if [ -n "$why" ]; then
			fail "$obj batch $k ($(wc -l <"$bf") names) under $(basename "$prog"): $why" \
				"($(grep -v '^tsctrace: ' "$u.$k.err" | tail -n 1 | cut -c1-100))"
			sed "s/@.*//; s/\$/	none	its traced run failed/" "$bf" >>"$u.lines"
			continue
		fi
		# name, hook ("count" for a function counted only), object, entry (names of one
		# address share an entry and a line), why counted only
		jq -r --arg k "$k" '.functions | to_entries[] | .key as $i | .value |
			(if .count_only then "count" else .hook end) as $h |
			(.object | split("/") | last) as $o | (.count_only // "") as $c |
			.names[] | [., $h, $o, "\($k).\($i)", $c] | @tsv' \
			"$json" >>"$u.report"
		lines "$u.$k.err" >>"$u.lines"
	done
	grep -q 'functions are hooked through their GOT slots only' "$u".*.err 2>/dev/null &&
		: >"$CW/no_decoder"
	awk -F '\t' -v shim="$SHIM" '
		FILENAME == ARGV[1] { if (!($1 in m)) order[++n] = $1; m[$1]++
			if ($2 == "?" || $2 + 0 >= 5) e[$1]++; next }
		FILENAME == ARGV[2] { if ($3 == shim) wrapped[$1] = 1
			entry[$1] = $4
			if ($2 == "inline") ri[$1]++; else if ($2 == "trap") rt[$1]++
			else if ($2 == "count") { rc[$1]++; cw[$1] = $5 }
			else if ($2 == "got") rg[$1]++; next }
		# names of one address: one line, "a|b"
		{ np = split($1, part, "|") }
		$2 == "got" { for (q = 1; q <= np; q++) { x = part[q]; gr[x, ++ng[x]] = $3
				if ((x in entry) && !(entry[x] in er)) er[entry[x]] = $3 }
			next }
		{ for (q = 1; q <= np; q++) nr[part[q], ++nn[part[q]]] = $3 }
		END { for (j = 1; j <= n; j++) { x = order[j]; i = ri[x] + 0; g = rg[x] + 0
			tp = rt[x] + 0; co = rc[x] + 0
			if (i > m[x]) i = m[x]; if (tp > m[x] - i) tp = m[x] - i
			if (co > m[x] - i - tp) co = m[x] - i - tp; tp += co # count: after trap
			if (g > m[x] - i - tp) g = m[x] - i - tp
			for (k = 1; k <= m[x]; k++) {
				el = k <= e[x] ? 1 : 0
				if (k <= i) { r = "inline"; why = "-" }
				else if (k <= i + tp - co) { r = "trap"; why = "shorter than the jump: an int3" }
				else if (k <= i + tp) { r = "count"; why = "counted only, never timed: it " cw[x] }
				else if (k <= i + tp + g) { r = "got"; why = gr[x, k - i - tp]
					if (why == "" && (x in entry)) why = er[entry[x]] }
				else { r = "none"; why = nr[x, k - i - tp - g] }
				if (why == "") why = "(no line from the shim)"
				if (wrapped[x]) why = "wrapped by tsctrace: traced at its wrapper"
				print r "\t" why "\t" el } } }' \
		"$names" "$u.report" "$u.lines" >>"$CW/$t.inst"
}

# lines ERRFILE: the shim's lines about functions it did not patch inline or did not trace, as
# "name<TAB>got|none<TAB>reason", numbers in the reason replaced by N.
lines() {
	awk '
	function name(s) { sub(/^[^:]*:/, "", s); return s }
	function norm(r,   out) {
		gsub(/[+-]?0x[0-9a-f]+/, "+0xN", r)
		out = ""
		r = r " "
		while (match(r, /[+-]?[0-9]+ bytes? /)) {
			out = out substr(r, 1, RSTART - 1) "N bytes "
			r = substr(r, RSTART + RLENGTH)
		}
		r = out r
		return substr(r, 1, length(r) - 1) }
	!sub(/^tsctrace: /, "") { next }
	{ ne = " it is not exported, so no GOT slot reaches it: not traced"
	  gs = "): traced through its GOT slots" }
	/\): not patched inline \(.*\); it is not exported, so no GOT slot reaches it: not traced$/ {
		i = index($0, " (in "); nm = substr($0, 1, i - 1)
		j = index($0, "): not patched inline (")
		r = substr($0, j + 23); r = substr(r, 1, length(r) - length(ne) - 2)
		print nm "\tnone\t" norm(r); next }
	/: not patched inline \(.*\): traced through its GOT slots$/ {
		j = index($0, ": not patched inline ("); nm = substr($0, 1, j - 1)
		r = substr($0, j + 22); r = substr(r, 1, length(r) - length(gs))
		print name(nm) "\tgot\t" norm(r); next }
	/ cannot be timed: it .*; counted only$/ { next } # the report says so (count_only)
	/ cannot be timed: it .*; not traced$/ {
		j = index($0, " cannot be timed: "); r = substr($0, j + 1)
		print name(substr($0, 1, j - 1)) "\tnone\t" substr(r, 1, length(r) - 12); next }
	/: too many traced functions \(at most [0-9]*\)/ {
		print name(substr($0, 1, index($0, ": too many") - 1)) "\tnone\t" \
			"too many traced functions (the cap)"; next }
	/^no function .* in the loaded objects/ {
		split($0, w, " "); print name(w[3]) "\tnone\tnot found in the loaded objects"; next }
	/ is not exported \(.*\): only inline hooks can trace it/ {
		print name(substr($0, 1, index($0, " ") - 1)) "\tnone\tnot exported, no inline hooks"
		next }
	/ is inside the dynamic loader: not traced$/ || / is not a function \(a variable\?\): not traced$/ ||
	/ is part of tsctrace itself: not traced$/ {
		j = index($0, " is "); r = substr($0, j + 1)
		print name(substr($0, 1, j - 1)) "\tnone\t" substr(r, 1, length(r) - 12); next }
	' "$1"
}

# ---- the targets ----------------------------------------------------------------------------

# skip TARGET REASON
skip() {
	t_=$1
	shift
	echo "$*" >"$CW/$t_.skip"
}

t_start=$(date +%s)
for t in $TARGETS; do
	: >"$CW/$t.inst"
	case $t in
	libc | libz | libsqlite3)
		case $t in
		libc) prog=$C/covload so=libc.so.6 pkg=libc6 ;;
		libz) prog=$C/covload_z so=libz.so.1 pkg=zlib1g ;;
		libsqlite3) prog=$C/covload_sqlite3 so=libsqlite3.so.0 pkg=libsqlite3-0 ;;
		esac
		if [ ! -x "$prog" ]; then
			skip "$t" "$(cat "$prog.why" 2>/dev/null || echo "$prog not built")" \
				"(apt-get install $pkg, then make -C bench cov)"
			continue
		fi
		path=$(loaded "$prog" "$so")
		[ -n "$path" ] || { skip "$t" "$so: not found by the loader"; continue; }
		funcs "$path" dyn >"$CW/$t.names"
		echo "$path" >"$CW/$t.what"
		measure "$t" "$so" "$so" "$prog" "$CW/$t.names"
		;;
	tests-O0 | tests-O2)
		d=$C/${t#tests-}
		what=""
		for p in t_basic:libwork.so t_callers:libspin.so t_recursion:librec.so; do
			prog=$d/${p%%:*}
			lib=${p#*:}
			[ -x "$prog" ] || { skip "$t" "$prog not built (make -C bench cov)"; break; }
			for o in "${p%%:*}" "$lib"; do
				funcs "$d/$o" sym "$CW/$t.crt" >"$CW/$t.$o.names"
				measure "$t" "$o" "$o" "$prog" "$CW/$t.$o.names"
				what="$what $o"
			done
		done
		echo "$d:$what" >"$CW/$t.what"
		;;
	*)
		echo "bench: coverage: unknown target $t (libc libz libsqlite3 tests-O0 tests-O2)" >&2
		exit 2
		;;
	esac
done
secs=$(($(date +%s) - t_start))

# ---- tables and rows --------------------------------------------------------------------------

[ -f "$CW/no_decoder" ] && for t in $TARGETS; do
	skip "$t" "the shim has no decoder here (libzydis4): nothing is patched inline"
done

TOP=3
echo "inline coverage: TSC_HOOK=inline on every function of each object, at most $BATCH names" \
	"per traced run ($secs s); target 100% traced and >= 99% inline of the functions of 5 bytes or more"
printf '  %-16s %9s %7s %5s %5s %6s %6s %8s %20s  %s\n' object functions inline trap count got none traced \
	"inline of >=5 bytes" target
: >"$CW/rows.tsv"
: >"$CW/reasons.md"
for t in $TARGETS; do
	case $t in
	libc) label=libc.so.6 ;; libz) label=libz.so.1 ;; libsqlite3) label=libsqlite3.so.0 ;;
	*) label=$t ;;
	esac
	if [ -f "$CW/$t.skip" ]; then
		printf '  %-16s skipped: %s\n' "$label" "$(cat "$CW/$t.skip")"
		printf 'coverage.%s\tinline coverage %s, %% inline of >= 5 bytes\tskipped\t%s\tskipped\t%s\n' \
			"$t" "$label" ">= 99% inline, 100% traced" "$(cat "$CW/$t.skip")" >>"$CW/rows.tsv"
		continue
	fi
	[ -s "$CW/$t.inst" ] || continue
	crt=""
	if [ -s "$CW/$t.crt" ]; then
		n_crt=$(wc -l <"$CW/$t.crt")
		crt=" ($n_crt functions of the toolchain's start-up code not counted:"
		crt="$crt $(sort -u "$CW/$t.crt" | tr '\n' ' ' | sed 's/ $//'))"
	fi
	awk -F '\t' -v t="$t" -v label="$label" -v top="$TOP" -v rows="$CW/rows.tsv" \
		-v md="$CW/reasons.md" -v what="$(cat "$CW/$t.what")" -v crt="$crt" '
		{ n++; c[$1]++; if ($3) { e++; if ($1 == "inline") ei++ }
		  if ($2 != "-") { k = $1 "\t" $2; if (!(k in rc)) ord[++nk] = k; rc[k]++ } }
		END {
			tr = 100 * (c["inline"] + c["trap"] + c["count"] + c["got"]) / n
			sh = e ? 100 * ei / e : 0
			v = (tr >= 100 && sh >= 99) ? "met" : "missed"
			printf "  %-16s %9d %7d %5d %5d %6d %6d %7.1f%% %8.1f%% of %-7d  %s\n", label, n,
				c["inline"], c["trap"], c["count"], c["got"], c["none"], tr, sh, e, v
			# reasons by count, then first seen
			for (i = 1; i <= nk; i++) for (j = i + 1; j <= nk; j++)
				if (rc[ord[j]] > rc[ord[i]]) { x = ord[i]; ord[i] = ord[j]; ord[j] = x }
			det = sprintf("%d functions: %d inline, %d trap, %d counted only, %d GOT only, " \
				"%d not traced (%.1f%% traced)", n, c["inline"], c["trap"], c["count"],
				c["got"], c["none"], tr)
			if (crt != "") printf "                   %s\n", substr(crt, 2)
			printf "\n### %s (%s)\n\n%s%s| route | functions | reason |\n|---|---:|---|\n",
				label, what, det, crt ".\n\n" >> md
			for (i = 1; i <= nk; i++) {
				split(ord[i], f, "\t")
				printf "                   %-6s %6d  %s\n", f[1], rc[ord[i]], f[2]
				printf "| %s | %d | %s |\n", f[1], rc[ord[i]], f[2] >> md
				if (i <= top) det = det (i == 1 ? "; " : ", ") f[2] " (" f[1] ") " rc[ord[i]]
			}
			printf "coverage.%s\tinline coverage %s, %% inline of >= 5 bytes\t%.1f\t" \
				">= 99%% inline, 100%% traced\t%s\t%s\n", t, label, sh, v, det >> rows }' \
		"$CW/$t.inst"
done
echo "  (route: trap = an int3 (too short for the jump), count = counted only (returns twice or" \
	"on another stack: every call counted, none timed), got = traced through GOT slots only," \
	"none = not traced; reasons from the" \
	"shim's lines, numbers as N; scratch files in $CW)"

[ -n "${COV_ROWS:-}" ] && cat "$CW/rows.tsv" >>"$COV_ROWS"
if [ -n "${COV_MD:-}" ]; then
	{
		echo "## inline coverage"
		echo
		echo "TSC_HOOK=inline on every function of each object, at most $BATCH names per" \
			"traced run, $secs s. Target: 100% traced, >= 99% inline of the functions of 5" \
			"bytes or more."
		cat "$CW/reasons.md"
	} >"$COV_MD"
fi
exit "$broken"
