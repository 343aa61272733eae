#!/bin/sh
# audit.sh BUILD LIB MAP - structural checks of the shim (README.md, How it works 4):
#  - hot-path objects call nothing outside the shim (no libc, no sanitizer runtime);
#  - hot-path objects touch no vector or x87 register;
#  - the library exports exactly what the version script lists.
# Appends one PASS/FAIL line per check to $RESULTS.
B=${1:?build dir}; LIB=${2:?lib}; MAP=${3:?map}
: "${RESULTS:=/dev/null}"
status=0
result() { # name ok|fail [detail]
	if [ "$2" = ok ]; then echo "PASS audit/$1" >>"$RESULTS"; echo "  audit   $1: ok"
	else echo "FAIL audit/$1: $3" >>"$RESULTS"; echo "  audit   $1: FAILED $3"; status=1; fi
}

# hook.o, pin.o, emul_step.o: the return path of every traced call and the first-call path. Only our
# own hidden symbols may be called (glibc's rseq location is data, read, not called).
for o in hook pin emul_step; do
	bad=$(nm -u "$B/$o.o" | awk '{print $2}' |
		grep -v -E '^(tt_[a-z_]+|_GLOBAL_OFFSET_TABLE_|__rseq_offset|__rseq_size)$')
	[ -z "$bad" ] && result "$o-calls-nothing" ok || result "$o-calls-nothing" fail "$bad"
done

# thread.o runs on the first-call path: libc allowed only for what is proven register-safe.
bad=$(nm -u "$B/thread.o" | awk '{print $2}' |
	grep -v -E '^(tt_[a-z_]+|_GLOBAL_OFFSET_TABLE_|pthread_setspecific|pthread_key_create|memset)$')
[ -z "$bad" ] && result thread-calls ok || result thread-calls fail "$bad"

# elfdyn.o serves the dl* wrappers before libc (or a sanitizer's interceptors) is ready.
bad=$(nm -u "$B/elfdyn.o" | awk '{print $2}' | grep -v -E '^(dl_iterate_phdr|_r_debug|_GLOBAL_OFFSET_TABLE_)$')
[ -z "$bad" ] && result elfdyn-calls-no-libc ok || result elfdyn-calls-no-libc fail "$bad"

for o in hook thread pin emul_step; do
	n=$(objdump -d --no-show-raw-insn "$B/$o.o" | grep -c -E '%[xyz]mm[0-9]|%st(\(|$)|\bf(ld|st|ild)')
	[ "$n" -eq 0 ] && result "$o-no-vector-regs" ok ||
		result "$o-no-vector-regs" fail "$n instructions use vector/x87 registers"
done

want=$(sed -n '/global:/,/local:/p' "$MAP" | grep -E '^[[:space:]]+[A-Za-z_][A-Za-z0-9_]*;' | tr -d ' \t;' | sort)
have=$(nm -D --defined-only "$LIB" | awk '$2 ~ /^[TW]$/ {print $3}' | sort)
[ "$want" = "$have" ] && result exports-match-map ok ||
	result exports-match-map fail "exports: $(echo $have) vs map: $(echo $want)"
exit $status
