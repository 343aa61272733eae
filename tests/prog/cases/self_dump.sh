# shellcheck shell=bash disable=SC2016,SC2034
# (jq programs single-quoted on purpose; XENV, NOTE are read by run.sh's helpers)
# Self time stays each call's own across TSC_DUMP_SIGNAL dumps when a function's calls make
# few or many traced calls by turns (t_self_dump: sd_outer spins 20,000 ticks and calls
# sd_inner once, then 200 times, then once again, a dump after each phase). What a traced
# call costs its caller beyond its reading (overhead.nested) was removed from every call at
# the function's mean number of traced calls: after the phase of 200 each call of one lost
# about 100 of them, its self read far below its own work, and calls already reported left
# their buckets (redis-server's processCommand: self median 1,725 ticks, then 0).

# self_dump_bound REPORT: how far sd_outer's self may lie from sd_leaf's cycles (the same
# spin, measured as a leaf) below it: half a coarse self bucket (6.25%), 2 granularity steps,
# the overhead's spread, two iterations of the spin loop, 4 ticks.
self_dump_bound() {
	jq -r -s "$JQDEFS .[0] | (fn(\"sd_leaf\").cycles.median / 16 | floor) + 2 * .clock.granularity +
		(.overhead.median - .overhead.min) + 2 * $(side spin_iteration) + 4" "$1"
}

# self_dump_band REPORT BOUND: the lowest and highest self sd_outer's calls may have: sd_leaf's
# least and greatest bulk cycles (min, p90) less/plus BOUND, plus, above, the overhead's spread
# for each of the MANY traced calls (a call of sd_inner may cost its caller more than the
# calibrated nested cost, never much less).
self_dump_band() {
	jq -r -s "$JQDEFS .[0] | [fn(\"sd_leaf\").cycles.min - $2, fn(\"sd_leaf\").cycles.p90 + $2 +
		$(side many) * (.overhead.median - .overhead.min + .clock.granularity)] | join(\" \")" "$1"
}

# self_dump_in REPORT LO HI: sd_outer's calls whose self buckets lie within [LO, HI], and
# those below LO, from its self histogram.
self_dump_in() {
	jq -r -s "$JQDEFS .[0] | fn(\"sd_outer\").self_histogram.buckets as \$b |
		[([\$b[] | select(.[0] >= $2 and .[1] <= $3) | .[2]] | add // 0),
		 ([\$b[] | select(.[1] < $2) | .[2]] | add // 0)] | join(\" \")" "$1"
}

# self_dump_fell PREV REPORT: sd_outer's self buckets of PREV whose count is lower in REPORT,
# but those holding PREV's self.min or self.max: the extremes are exact, and calls placed at
# them move when a later call goes beyond.
self_dump_fell() {
	jq -c -n --slurpfile p "$1" --slurpfile r "$2" "$JQDEFS
		def outer(\$x): \$x[0] | fn(\"sd_outer\");
		outer(\$p) as \$a | outer(\$r) as \$z |
		([\$z.self_histogram.buckets[] | {key: \"\\(.[0])-\\(.[1])\", value: .[2]}] | from_entries) as \$now |
		[\$a.self_histogram.buckets[] |
		 select((.[0] <= \$a.self.min and \$a.self.min <= .[1]) or
			(.[0] <= \$a.self.max and \$a.self.max <= .[1]) | not) |
		 select((\$now[\"\\(.[0])-\\(.[1])\"] // 0) < .[2])]"
}

test_self_dump() {
	local d b lo hi in below fell prev_in=0 prev_below=0 want notes=""
	XENV+=(TSC_DUMP_SIGNAL=USR2 TSC_CLOCK=tsc)
	run_pair self_dump sd_outer,sd_inner,sd_leaf "$B/t_self_dump" "$T" "$T/side" || return 1
	one_report && check_expects "$T/t.out" || sub_failed "final report" || return 1
	[ -n "$(side spin_iteration)" ] || fail_because "test setup: no spin_iteration in the side file" || return 1
	cp "$REPORT" "$T/dump4.json"
	echo "dump4_outer $(jq -r -s "$JQDEFS .[0] | fn(\"sd_outer\").calls" "$REPORT")" >>"$T/side"
	echo "dump4 ok" >>"$T/side"
	# One band for every dump, from the final report's sd_leaf (all its calls).
	b=$(self_dump_bound "$REPORT")
	read -r lo hi < <(self_dump_band "$REPORT" "$b")
	for d in 1 2 3 4; do
		grep -qx "dump$d ok" "$T/side" ||
			fail_because "dump$d: $(grep "^dump$d " "$T/side" || echo "not attempted")" || return 1
		REPORT=$T/dump$d.json
		is_json "$REPORT" || fail_because "dump$d.json is not one JSON object" || return 1
		want=$(side "dump${d}_outer")
		ck "dump$d: sd_outer calls == $want, none lost, the same timed in its self buckets" \
			"fn(\"sd_outer\") | .calls == $want and .self_unknown == 0 and
			 ([.self_histogram.buckets[][2]] | add) == .timed" \
			'fn("sd_outer") | {calls, timed, self_unknown, n: ([.self_histogram.buckets[][2]] | add)}' ||
			return 1
		ck "dump$d: sd_outer self.median <= cycles.median" \
			'fn("sd_outer") | .self.median <= .cycles.median' 'fn("sd_outer") | {cycles, self}' ||
			return 1
		read -r in below < <(self_dump_in "$REPORT" "$lo" "$hi")
		notes="$notes d$d: median $(jq -r -s "$JQDEFS .[0] | fn(\"sd_outer\").self.median" "$REPORT") in [$lo, $hi] $in, below $below;"
		ck "dump$d: sd_outer self.median within [$lo, $hi] (sd_leaf's cycles, bound $b)" \
			"fn(\"sd_outer\").self.median | . >= $lo and . <= $hi" \
			'{leaf: fn("sd_leaf").cycles, outer: fn("sd_outer") | {cycles, self}, overhead}' ||
			return 1
		# A call once reported within its work's band stays there: dumps add calls, never
		# move them out (to 0, as they were when later calls made many traced calls).
		[ "$d" -eq 1 ] || { [ "$in" -ge "$prev_in" ] && [ "$below" -le "$prev_below" ]; } ||
			fail_because "dump$d: sd_outer calls with self in [$lo, $hi] $in (dump$((d - 1)): $prev_in), below it $below (was $prev_below)" ||
			return 1
		fell=$([ "$d" -eq 1 ] || self_dump_fell "$T/dump$((d - 1)).json" "$REPORT")
		[ "$d" -eq 1 ] || [ "$fell" = "[]" ] ||
			fail_because "dump$d: sd_outer self buckets [lo, hi, count] of dump$((d - 1)) that lost calls: $fell" ||
			return 1
		prev_in=$in prev_below=$below
	done
	NOTE="${notes% ;}"
}
