#!/bin/sh
# audit.sh BUILD LIB MAP - structural checks of the shim (docs/architecture.md):
#  - hot-path objects (BUILD/hot/*.o) touch no vector or x87 register;
#  - elf/elfdyn.o calls no libc but the loader's own entry points;
#  - the library exports exactly what the version script lists.
# What each layer may call, the hot path's calls included, is tests/layers.py's.
# Appends one PASS/FAIL line per check to $RESULTS.
B=${1:?build dir}; LIB=${2:?lib}; MAP=${3:?map}
: "${RESULTS:=/dev/null}"
status=0
result() { # name ok|fail [detail]
	if [ "$2" = ok ]; then echo "PASS audit/$1" >>"$RESULTS"; echo "  audit   $1: ok"
	else echo "FAIL audit/$1: $3" >>"$RESULTS"; echo "  audit   $1: FAILED $3"; status=1; fi
}

hot=$(ls "$B"/hot/*.o 2>/dev/null)
if [ -z "$hot" ]; then
	result hot-no-vector-regs fail "no objects in $B/hot"
fi
for o in $hot; do
	name=$(basename "$o" .o)
	n=$(objdump -d --no-show-raw-insn "$o" | grep -c -E '%[xyz]mm[0-9]|%st(\(|$)|\bf(ld|st|ild)')
	[ "$n" -eq 0 ] && result "$name-no-vector-regs" ok ||
		result "$name-no-vector-regs" fail "$n instructions use vector/x87 registers"
done

# elfdyn.o serves the dl* wrappers before libc (or a sanitizer's interceptors) is ready.
if [ -f "$B/elf/elfdyn.o" ]; then
	bad=$(nm -u "$B/elf/elfdyn.o" | awk '{print $2}' |
		grep -v -E '^(dl_iterate_phdr|_r_debug|_GLOBAL_OFFSET_TABLE_)$')
	[ -z "$bad" ] && result elfdyn-calls-no-libc ok || result elfdyn-calls-no-libc fail "$bad"
else
	result elfdyn-calls-no-libc fail "$B/elf/elfdyn.o missing"
fi

want=$(sed -n '/global:/,/local:/p' "$MAP" | grep -E '^[[:space:]]+[A-Za-z_][A-Za-z0-9_]*;' | tr -d ' \t;' | sort)
have=$(nm -D --defined-only "$LIB" | awk '$2 ~ /^[TW]$/ {print $3}' | sort)
[ "$want" = "$have" ] && result exports-match-map ok ||
	result exports-match-map fail "exports: $(echo $have) vs map: $(echo $want)"
exit $status
