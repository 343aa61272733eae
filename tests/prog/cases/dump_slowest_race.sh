# shellcheck shell=bash disable=SC2016,SC2034
# (jq programs single-quoted on purpose; XENV is read by run_pair)
# A report taken while threads run on (a dump, attach's detach, exit with threads alive) read
# each function's histograms, then its kept slowest calls: a slow call ending in between was
# among the slowest but in no histogram, above the report's own cycles.max, and `tsctrace
# report` refused the file (attach_light failed so once in CI; here 4-9 dumps of 600 did).
# The lists are read first now, and a call enters them after its histogram.
test_dump_slowest_race() {
	local n bad
	XENV+=("TSC_OUTPUT=$T/live.json" TSC_SLOWEST=8)
	run_pair dump_slowest_race growing_work "$B/t_dump_slowest_race" 600 || return 1
	n=$(find "$T" -maxdepth 1 -name 'd.*.json' | wc -l)
	[ "$n" -ge 100 ] || fail_because "only $n dumps written of 600" || return 1
	bad=$(find "$T" -maxdepth 1 -name 'd.*.json' -exec cat {} + |
		jq -n '[inputs | .functions[] | select(.name == "growing_work") |
			select((.slowest | length) > 0 and .slowest[0].cycles > .cycles.max) |
			"\(.slowest[0].cycles) > max \(.cycles.max)"] | "\(length) \(.[0] // "")"')
	[ "${bad%% *}" = '"0' ] ||
		fail_because "dumps whose slowest call is above their cycles.max: $bad" || return 1
	"$(dirname "$LIB")/tsctrace" report "$T/live.json" >/dev/null 2>"$T/cli.err" ||
		fail_because "tsctrace report: $(head -c 200 "$T/cli.err")" || return 1
	# Checked: the schema test need not read 600 more reports.
	find "$T" -maxdepth 1 -name 'd.*.json' -delete
	NOTE="$n dumps"
}
