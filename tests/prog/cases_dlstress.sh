# cases_dlstress.sh - program tests sourced by run.sh (which has the helpers and the run_test
# lines): threads that dlopen a library defining traced functions, dlsym them, call them and
# dlclose, all at once (t_dlstress), on different libraries and on one library. The shim
# keeps its tables in step with the loader under one lock (src/runtime/dllock.h); these crashed (an
# unmapped object read by another thread's bookkeeping), hung, or lost counts before it.
# Every call the program made, while the library was loaded by its own handle, is counted
# exactly; each run loops DLSTRESS_MS milliseconds per thread at most.
# shellcheck shell=bash disable=SC2034,SC2015
# (TIMEOUT, XENV... are read by run.sh's helpers; `a && b || fail` as in run.sh)

DLSTRESS_MS=${DLSTRESS_MS:-1000}

# dlstress NAME same|diff THREADS [HOOK]: t_dlstress traced; the counts it wrote to its side
# file must be the report's.
dlstress() {
	local name=$1 how=$2 nt=$3 hook=${4:-} cycles
	local TIMEOUT=30
	[ -z "$hook" ] || XENV+=("TSC_HOOK=$hook")
	plt_call libdsa.so dsa_outer dsa_fn && plt_call libdsb.so dsb_outer dsb_fn || return 1
	run_pair "$name" dsa_fn,dsa_outer,dsb_fn,dsb_outer \
		"$B/t_dlstress" "$how" "$nt" "$DLSTRESS_MS" "$T/side" || return 1
	one_report && check_expects "$T/side" || return 1
	[ -z "$hook" ] || ck "every function hooked through $hook" \
		"all(.functions[]; .hook == \"$hook\")" '[.functions[] | {name, hook}]' || return 1
	cycles=$(side iterations)
	NOTE="$cycles dlopen/dlclose cycles traced in $nt threads"
	# The threads stop at a deadline: a machine too busy to run them gives too few cycles to
	# stress anything (the counts, exact, were checked all the same).
	[ "${cycles:-0}" -ge "$nt" ] ||
		skip_because "only ${cycles:-0} dlopen/dlclose cycles ran in $DLSTRESS_MS ms in $nt threads: the machine is too busy to stage the stress"
}

test_dlstress_diff() { dlstress dlstress_diff diff 2; }
test_dlstress_same() { dlstress dlstress_same same 2; }
# Hooks through GOT slots and dlsym's stubs: the mode whose counts were lost.
test_dlstress_same_got() { dlstress dlstress_same_got same 2 got; }
test_dlstress_diff_got() { dlstress dlstress_diff_got diff 2 got; }
