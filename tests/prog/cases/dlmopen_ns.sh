# shellcheck shell=bash disable=SC2034	# XENV is read by run_pair
# dlmopen_ns: a library loaded into a link-map namespace of its own (dlmopen LM_ID_NEWLM,
# t_dlmopen_ns.c) has dlmns_step called 1,001 times, through a dlsym pointer and from the
# library itself. Before, dl_iterate_phdr (which shows only its caller's namespace) was the
# shim's only view of the objects: the function was never found and the report said calls 0.
# Now the other namespaces are walked too (src/elf/elfdyn.c): every call is counted, under
# TSC_HOOK=auto (or HOOK_ALL), inline and got. dlmopen_ns_got also loads it RTLD_LAZY with
# malloc traced: the library's unbound malloc slot must keep binding to its own namespace's
# libc (before that check, got.c aimed it at the base libc's malloc, and its free crashed).

# dlmns_case HOOK(or "") FUNCS [ARG]: run t_dlmopen_ns traced, check dlmns_step's 1001 calls
# and, when HOOK is given, the route it took.
dlmns_case() {
	local hook=$1 funcs=$2
	shift 2
	XENV=()
	[ -n "$hook" ] && XENV=("TSC_HOOK=$hook")
	run_pair dlmopen_ns "$funcs" "$B/t_dlmopen_ns" "$@" || return 1
	one_report && check_expects "$T/t.out" || return 1
	grep -q '^sum 1251001, the library counted 1001 calls$' "$T/u.out" ||
		fail_because "test setup: the untraced run did not make its 1001 calls" || return 1
	[ -z "$hook" ] || ck "dlmns_step hooked $hook" "fn(\"dlmns_step\").hook == \"$hook\"" \
		'fn("dlmns_step") | {hook, symbol}'
}

test_dlmopen_ns() { dlmns_case "" dlmns_step; }
test_dlmopen_ns_inline() { dlmns_case inline dlmns_step; }
test_dlmopen_ns_got() { dlmns_case got dlmns_step,malloc lazy; }
run_test dlmopen_ns_inline test_dlmopen_ns_inline
run_test dlmopen_ns_got test_dlmopen_ns_got
