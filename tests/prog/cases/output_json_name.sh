# output_json_name: TSC_OUTPUT=r.json with no TSC_FORMAT writes JSON (it used to write text into
# r.json, which every tsctrace command then refused); TSC_FORMAT=text still wins over the name,
# and a name ending .txt keeps the text default.
test_output_json_name() {
	FORMAT="" OUTTPL="$T/r.json"
	run_pair output_json_name strlen "$B/t_basic" run "$T/side" || return 1
	one_report && ck "strlen counted" 'fn("strlen").calls >= 1000' || return 1
	rm -f "$T"/r.*
	XENV=(TSC_FORMAT=text)
	run_pair output_json_name strlen "$B/t_basic" run "$T/side" || sub_failed "TSC_FORMAT=text" || return 1
	head -1 "$T/r.json" | grep -q '^tsctrace .* report$' ||
		fail_because "TSC_FORMAT=text TSC_OUTPUT=r.json: not text" || return 1
	rm -f "$T"/r.*
	XENV=() OUTTPL="$T/r.txt"
	run_pair output_json_name strlen "$B/t_basic" run "$T/side" || sub_failed "r.txt" || return 1
	head -1 "$T/r.txt" | grep -q '^tsctrace .* report$' || fail_because "TSC_OUTPUT=r.txt: not text"
}
