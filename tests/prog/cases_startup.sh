# cases_startup.sh - program tests of what start-up does and does not do, sourced by run.sh
# (which has the helpers and the run_test lines): TSC_DEBUG=startup's line, and a process in
# which no asked-for function is found loading no instruction decoder.
# shellcheck shell=bash disable=SC2016,SC2034,SC2015
# (jq programs single-quoted on purpose; XENV... are read by run.sh's helpers; `a && b || fail`)

# TSC_DEBUG=startup: one line per report naming every phase with a number, not kept among the
# report's warnings; the program's output and report as without it.
test_debug_startup() {
	local line ph
	XENV+=("TSC_DEBUG=startup")
	run_pair debug_startup strlen "$B/t_basic" && one_report && check_expects "$T/t.out" ||
		return 1
	[ "$(shim_lines 'start-up us:')" -eq 1 ] ||
		fail_because "expected one 'start-up us:' line, got: $(grep 'start-up us' "$T/t.shim")" ||
		return 1
	line=$(grep 'start-up us:' "$T/t.shim")
	for ph in config clock stubs resolve decoder inline got other constructor calibrate report; do
		printf '%s\n' "$line" | grep -qE "[ ,;]$ph [0-9]+\.[0-9]" ||
			fail_because "phase $ph missing from: $line" || return 1
	done
	ck "the line is not among the report's warnings" \
		'all(.warnings[]; contains("start-up us") | not)' '.warnings'
}

# libZydis is loaded (LD_DEBUG=files names it) when an inline hook is to be made, and not when
# no asked-for function is found.
test_decoder_lazy() {
	local found missing
	(cd "$T" && env LD_PRELOAD="$PRELOAD" TSC_FUNCS=strlen TSC_HOOK=auto TSC_QUIET=1 \
		TSC_OUTPUT="$T/found.txt" LD_DEBUG=files "$B/t_basic" >/dev/null 2>"$T/found.err") ||
		fail_because "traced t_basic (strlen) failed: $(tail -n 2 "$T/found.err")" || return 1
	(cd "$T" && env LD_PRELOAD="$PRELOAD" TSC_FUNCS=no_such_function_here TSC_HOOK=auto \
		TSC_QUIET=1 TSC_OUTPUT="$T/missing.txt" LD_DEBUG=files "$B/t_basic" >/dev/null \
		2>"$T/missing.err") ||
		fail_because "traced t_basic (missing name) failed: $(tail -n 2 "$T/missing.err")" ||
		return 1
	found=$(grep -c 'libZydis' "$T/found.err")
	missing=$(grep -c 'libZydis' "$T/missing.err")
	if [ "$found" -eq 0 ]; then
		skip_because "no decoder loads here even for strlen (libZydis missing?)"
		return
	fi
	[ "$missing" -eq 0 ] ||
		fail_because "libZydis loaded although no asked-for function was found: $(grep libZydis "$T/missing.err" | head -2)"
}
