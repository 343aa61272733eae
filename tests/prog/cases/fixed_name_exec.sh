# fixed_name_exec: a fixed TSC_OUTPUT through a /bin/sh wrapper that execs the program. The
# shell's image reports at its exec, first, under the plain name; the exec'd image, the
# program the user asked for, used to go beside it (fx.PID.json). Now an image takes the
# plain name over from its own pid's report from before its exec, which moves beside it.
test_fixed_name_exec() {
	local sh_rep
	OUTTPL="$T/fx.json"
	run_pair fixed_name_exec strlen sh -c "exec '$B/t_basic' run '$T/side'" || return 1
	REPORT=$T/fx.json
	ck "fx.json is the program's report" '.program == "t_basic"' '{program, pid}' || return 1
	sh_rep=$(find "$T" -maxdepth 1 -name 'fx.[0-9]*.json')
	[ "$(printf '%s\n' "$sh_rep" | grep -c .)" -eq 1 ] ||
		fail_because "not one report beside fx.json: $(ls "$T" | tr '\n' ' ')" || return 1
	REPORT=$sh_rep
	ck "the shell's report from before its exec is beside it" '.program == "sh"' '{program, pid}' ||
		return 1
	grep -q "moved to $T/fx\.[0-9]*\.json" "$T/t.shim" ||
		fail_because "no line saying where the earlier report went: $(tail -1 "$T/t.shim")"
}
