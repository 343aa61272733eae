# callers_tailcall.sh - a traced function re-entered by tail jumps (callers_tailcall.S): each
# re-entry finds, as its return address, the landing of the trampoline body that called the
# function it came from, not a caller's. Its calls were listed under a caller
# "tt_ibody_...+0x10c (libtsctrace.so)", and with TSC_CALLERS=4 the path went on from there to
# a 0x0 frame. Now such a frame is the traced call it came from ("tc_enter [tail call]"),
# and the path goes on from that call's real return address.
# shellcheck shell=bash disable=SC2034,SC2015
# (XENV is read by run.sh's helpers; `a && b || fail` as in run.sh)

# tailcall_run DEPTH: t_callers_tailcall traced with TSC_CALLERS=DEPTH; its report checked
# for what every path must be: no frame of the shim, no 0x0, counts adding up, self <= time.
tailcall_run() {
	objdump -d --no-show-raw-insn "$B/t_callers_tailcall" |
		awk '/<tc_helper>:/ { p = 1; next } p && /^$/ { p = 0 } p' |
		grep -q 'jmp.*<tc_enter>' ||
		fail_because "test setup: tc_helper does not jump into tc_enter" || return 1
	XENV+=(TSC_CALLERS="$1")
	run_pair callers_tailcall tc_enter "$B/t_callers_tailcall" || return 1
	one_report || return 1
	check_expects "$T/t.out" || return 1
	if ! jq -e '.functions[0].hook == "inline"' "$REPORT" >/dev/null; then
		# Through GOT slots only the program's calls are seen: a jump within it never.
		skip_because "tc_enter is hooked $(jq -r '.functions[0].hook' "$REPORT"), not inline: its tail jumps pass by"
		return 0
	fi
	ck "no frame of the shim, none 0x0" \
		'all(fn("tc_enter").callers[].frames[];
		     (contains("libtsctrace") or . == "0x0" or startswith("0x0 ")) | not)' \
		'[fn("tc_enter").callers[].site]' || return 1
	ck "the sites' calls add up to the function's" \
		'fn("tc_enter") | ([.callers[].calls] | add) == .calls' \
		'fn("tc_enter") | {calls, sites: [.callers[] | {site, calls}]}' || return 1
	ck "self <= cycles, for the function and every site" \
		'fn("tc_enter") | .self.total <= .cycles.total and
		 all(.callers[]; .self.total <= .cycles.total)' \
		'fn("tc_enter") | [{self: .self.total, cycles: .cycles.total}] +
		 [.callers[] | {site, self: .self.total, cycles: .cycles.total}]' || return 1
	ck "a location is tail exactly where its frame says [tail call]" \
		'all(fn("tc_enter").callers[]; [.frames[] | contains(" [tail call]")] ==
		     [.locations[] | .tail == true])' \
		'[fn("tc_enter").callers[] | {frames, locations}]'
}

# TSC_CALLERS=1: the re-entries' caller is tc_enter itself, by a tail call.
test_callers_tailcall() {
	local deep flat re
	tailcall_run 1 || return 1
	[ -z "$SKIP_WHY" ] || return 0
	deep=$(side deep) flat=$(side flat) re=$(side reentries)
	ck "deep_calls' site: $deep calls" \
		"[fn(\"tc_enter\").callers[] | select(.site | startswith(\"deep_calls+\"))] |
		 length == 1 and .[0].calls == $deep" '[fn("tc_enter").callers[] | {site, calls}]' ||
		return 1
	ck "flat_calls' site: $flat calls" \
		"[fn(\"tc_enter\").callers[] | select(.site | startswith(\"flat_calls+\"))] |
		 length == 1 and .[0].calls == $flat" '[fn("tc_enter").callers[] | {site, calls}]' ||
		return 1
	ck "the tail call's site: $((deep * re)) calls" \
		"[fn(\"tc_enter\").callers[] |
		  select(.site == \"tc_enter [tail call] (t_callers_tailcall)\")] |
		 length == 1 and .[0].calls == $((deep * re))" \
		'[fn("tc_enter").callers[] | {site, calls}]' || return 1
	ck "three sites" 'fn("tc_enter").callers | length == 3' '[fn("tc_enter").callers[].site]'
}

# TSC_CALLERS=4: the k-th re-entry's path is k tail frames, then deep_calls' real path.
test_callers_tailcall_paths() {
	local deep flat re k
	tailcall_run 4 || return 1
	[ -z "$SKIP_WHY" ] || return 0
	deep=$(side deep) flat=$(side flat) re=$(side reentries)
	ck "deep_calls' path: $deep calls, 4 frames" \
		"[fn(\"tc_enter\").callers[] | select(.frames[0] | startswith(\"deep_calls+\"))] |
		 length == 1 and .[0].calls == $deep and (.[0].frames | length) == 4" \
		'[fn("tc_enter").callers[] | {site, calls}]' || return 1
	for k in $(seq 1 "$re"); do
		ck "re-entry $k: $deep calls, $k tail frames, then deep_calls' path" \
			"([fn(\"tc_enter\").callers[] | select(.frames[0] | startswith(\"deep_calls+\"))][0].frames) as \$real |
			 [fn(\"tc_enter\").callers[] |
			  select(.frames[0:$k] == [range($k) | \"tc_enter [tail call] (t_callers_tailcall)\"] and
				 (.frames[$k] | startswith(\"deep_calls+\")))] |
			 length == 1 and .[0].calls == $deep and .[0].frames[$k:] == \$real[0:4 - $k]" \
			'[fn("tc_enter").callers[] | {frames, calls}]' || return 1
	done
	ck "flat_calls' path: $flat calls" \
		"[fn(\"tc_enter\").callers[] | select(.frames[0] | startswith(\"flat_calls+\"))] |
		 length == 1 and .[0].calls == $flat" '[fn("tc_enter").callers[] | {site, calls}]'
}

run_test callers_tailcall_paths test_callers_tailcall_paths
