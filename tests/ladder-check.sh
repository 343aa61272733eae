#!/bin/sh
# ladder-check.sh BUILD - the bench's ladder (bench/ladder/tramp_ladder.S, `make -C bench
# ladder`) still builds from the shim's macros (src/tramp/tramp_body.S): every step assembles,
# each takes something out (its .text is smaller than the step before), and step 0 is the
# shim's own bodies (BUILD/tramp/tramp_bodies.o) byte for byte. Catches a part macro renamed
# or dropped in tramp_body.S before anyone runs the ladder.
# Appends one PASS/FAIL line to $RESULTS.
B=${1:?build dir}
: "${RESULTS:=/dev/null}"
TOP=$(cd "$(dirname "$0")/.." && pwd)
W=$B/ladder-check
mkdir -p "$W"
fail() {
	echo "FAIL audit/ladder-steps: $1" >>"$RESULTS"
	echo "  audit   ladder-steps: FAILED $1"
	exit 1
}

last=
for s in 0 1 2 3 4; do
	o=$W/s$s/ladder/tramp_ladder.o
	rm -f "$o"
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$TOP" B="$W/s$s" LADDER_STEP=$s \
		LADDER_PAD=0 "$o" >"$W/build.$s.log" 2>&1 ||
		fail "step $s does not assemble (see $W/build.$s.log)"
	objcopy -O binary -j .text "$o" "$W/s$s.text" || fail "objcopy $o"
	size=$(wc -c <"$W/s$s.text")
	[ -z "$last" ] || [ "$size" -lt "$last" ] ||
		fail "step $s takes nothing out ($size bytes of .text, step $((s - 1)) $last)"
	last=$size
done
objcopy -O binary -j .text "$B/tramp/tramp_bodies.o" "$W/shim.text" ||
	fail "objcopy $B/tramp/tramp_bodies.o"
cmp -s "$W/shim.text" "$W/s0.text" || fail "step 0 is not the shim's bodies byte for byte"
echo "PASS audit/ladder-steps" >>"$RESULTS"
echo "  audit   ladder-steps: ok"
