# exec_missing: a shell looking for its command tries each directory of PATH with execve;
# the attempts that fail (here in five missing directories, then the last through execvp's
# own search) end no process image. Before, each wrote a report of the shell's image (7
# files for `sh -c 'exec true'`); now the shell's image reports once, at the exec that
# succeeds, and `true` once: one report per image, each pid's calls counted once.
test_exec_missing() {
	local n
	XENV=("PATH=/nonexistent1:/nonexistent2:/nonexistent3:/nonexistent4:/nonexistent5:$PATH")
	OUTTPL="$T/r.%e.%p.json"
	run_pair exec_missing malloc sh -c 'exec true' || return 1
	n=$(find "$T" -maxdepth 1 -name 'r.*' | wc -l)
	[ "$n" -eq 2 ] || fail_because "$n reports, expected 2 (sh's at its exec, true's): $(ls "$T" | tr '\n' ' '); shim said: $(head -3 "$T/t.shim")" ||
		return 1
	[ "$(grep -c 'report written' "$T/t.shim")" -eq 2 ] ||
		fail_because "not two 'report written' lines: $(grep -c 'report written' "$T/t.shim")" || return 1
	REPORT=$(find "$T" -maxdepth 1 -name 'r.true.*.json')
	[ -n "$REPORT" ] || fail_because "no report of true: $(ls "$T" | tr '\n' ' ')" || return 1
	ck "the final image is true's" '.program == "true"' '.program'
}
