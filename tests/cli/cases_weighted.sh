# cases_weighted.sh - sourced by run.sh: `merge`, `report` and `diff` of reports written under
# TSC_BUDGET, whose median, p90, p99 and mean weight each timed call by the period that chose it
# (docs/report-format.md, "Merging weighted reports").
# shellcheck shell=bash disable=SC2016
#
# data/budget-a.json and budget-b.json: one function, spin, each with its weighted histogram
# (counts = sums of weights), its squared weights and weighted totals; overhead 20, 2 GHz.
#   a: 6 calls of 10 cycles at weight 150, 3 of 100 at 30, 1 of 1000 at 10 (weights 1000)
#   b: 8 calls of 10 cycles at weight 225, 2 of 100 at 100 (weights 2000)
# Merged by hand (data/budget-ab.expected.json): weighted buckets 10: 900 + 1800, 100: 90 + 200,
# 1000: 10, of 3000 weights: median (rank 1500) and p90 (rank 2700) 10, p99 (rank 2970) 100
# (unweighted, the 20 timed calls give 10, 100, 1000); mean (28000 + 38000) / 3000 = 22 (82
# unweighted), raw (48000 + 78000) / 3000 = 42, ns 11; squared weights 137800 + 425000 =
# 562800, so n_eff = 3000^2 / 562800 = 16: ranks 4..13 of 16 for the median, i.e. 750..2438
# of the weights, both at 10; p90 12..16 -> 2250..3000 (10..1000); p99 15..16 -> 2812..3000
# (100..1000). min, max, total, timed and the histogram stay the calls timed.
# data/fixed-c.json (TSC_SAMPLE=4: 10 calls of 1000 timed, no weights) and full-d.json (every
# call timed: 4 of 100) count each timed call as their period, 4, and 1.

t_merge_weighted() {
	local why o=$WORK/weighted
	mkdir -p "$o"
	if selected merge/weighted-known; then
		why=""
		tsc merge -o "$o/ab.json" budget-a.json budget-b.json
		if [ $RC -ne 0 ] || [ -s "$WORK/err" ]; then
			why="status $RC: $(cat "$WORK/err")"
		else
			jq '.functions[0] | {name, calls, timed, skipped, cycles, raw, ns, sampling,
				weighted_histogram, histogram}' "$o/ab.json" >"$o/ab.proj"
			same_json "$o/ab.proj" "$DATA/budget-ab.expected.json" ||
				why="differs from data/budget-ab.expected.json: $(json_diff \
					"$DATA/budget-ab.expected.json" "$o/ab.proj")"
			jq -e '.warnings == []' "$o/ab.json" >/dev/null ||
				why="${why:+$why; }warnings: $(jq -c .warnings "$o/ab.json")"
			if [ -n "$PY" ] && "$PY" -c 'import jsonschema' 2>/dev/null; then
				"$PY" "$TOP/tests/report-schema.py" "$TOP/docs/report.schema.json" \
					"$o/ab.json" >"$o/schema.out" 2>&1 ||
					why="${why:+$why; }schema: $(head -c 300 "$o/schema.out")"
			fi
		fi
		verdict merge/weighted-known "$why"
	fi

	# With a TSC_SAMPLE=4 report and a full-timing one: their calls at weight 4 and 1.
	# Weights 1000 + 4 x 10 + 4 = 1044: buckets 10: 900, 100: 90 + 4, 1000: 10 + 40; median
	# (rank 522) 10, p90 (rank 940) 100, p99 (rank 1034) 1000; weighted total 28000 + 4 x
	# 10000 + 400 = 68400 (mean 65.5); squares 137800 + 10 x 16 + 4 = 137964.
	if selected merge/weighted-mixed; then
		why=""
		tsc merge -o "$o/acd.json" budget-a.json fixed-c.json full-d.json
		if [ $RC -ne 0 ] || [ -s "$WORK/err" ]; then
			why="status $RC: $(cat "$WORK/err")"
		elif ! jq -e '.functions[0] | .calls == 1046 and .timed == 24 and
				.weighted_histogram.buckets == [[10, 10, 900], [100, 100, 94], [1000, 1000, 50]] and
				.sampling.weights_sq == 137964 and .sampling.weighted_total == 68400 and
				.cycles.median == 10 and .cycles.p90 == 100 and .cycles.p99 == 1000 and
				((.cycles.mean - 68400 / 1044) | fabs) < 0.051 and
				.cycles.total == 11760 and .sampling.weighted' "$o/acd.json" >/dev/null; then
			why="$(jq -c '.functions[0] | {calls, timed, cycles, sampling, weighted_histogram}' \
				"$o/acd.json")"
		fi
		verdict merge/weighted-mixed "$why"
	fi

	# A budget report from before the weights: the function merges unweighted, as it did, and
	# a warning says so (the timed calls' 20: median 10, p90 100, p99 1000, mean 82).
	if selected merge/weighted-old-input; then
		why=""
		jq 'del(.functions[0].weighted_histogram) |
		    .functions[0].sampling |= del(.weights_sq, .weighted_total, .weighted_raw)' \
			"$DATA/budget-b.json" >"$o/old-b.json"
		tsc merge -o "$o/aob.json" budget-a.json "$o/old-b.json"
		if [ $RC -ne 0 ]; then
			why="status $RC: $(cat "$WORK/err")"
		elif ! jq -e '.functions[0] | .cycles.median == 10 and .cycles.p90 == 100 and
				.cycles.p99 == 1000 and .cycles.mean == 82 and
				(.sampling.weighted | not) and (has("weighted_histogram") | not)' \
				"$o/aob.json" >/dev/null; then
			why="$(jq -c '.functions[0] | {cycles, sampling}' "$o/aob.json")"
		elif ! jq -e '.warnings | any(test("no weights"))' "$o/aob.json" >/dev/null; then
			why="no warning that it merged unweighted: $(jq -c .warnings "$o/aob.json")"
		fi
		verdict merge/weighted-old-input "$why"
	fi

	# A budget run that never timed the function (no weights, nothing to weigh) leaves a's
	# weighted figures as they are, without a warning.
	if selected merge/weighted-untimed-input; then
		why=""
		jq '.functions[0] |= (.timed = 0 | .dropped = .calls - .skipped |
			.histogram.buckets = [] | del(.weighted_histogram) |
			.sampling |= del(.weighted, .weighted_stats, .weights_sq, .weighted_total,
					 .weighted_raw, .ci95) |
			.cycles = {min: 0, median: 0, p90: 0, p99: 0, max: 0, mean: 0, total: 0} |
			.raw = .cycles | .ns = .cycles)' "$DATA/budget-b.json" >"$o/untimed-b.json"
		tsc merge -o "$o/aub.json" budget-a.json "$o/untimed-b.json"
		if [ $RC -ne 0 ]; then
			why="status $RC: $(cat "$WORK/err")"
		elif ! jq -e '.warnings == [] and (.functions[0] | .calls == 3000 and .timed == 10 and
				.sampling.weighted and .cycles.mean == 28 and .cycles.p99 == 100 and
				.sampling.weights_sq == 137800)' "$o/aub.json" >/dev/null; then
			why="$(jq -c '{warnings, f: (.functions[0] | {calls, timed, cycles, sampling})}' \
				"$o/aub.json")"
		fi
		verdict merge/weighted-untimed-input "$why"
	fi

	# Order and total% by the weighted totals, all calls' cycles as estimated: spin (timed 1
	# in 100, 1360 cycles timed, 28000 weighted) before "every", timed on every call (5000
	# cycles at weight 1), in report and in merge: 28000 / 33000 = 84.8%.
	if selected report/weighted-order; then
		why=""
		jq '.functions += [.functions[0] | .name = "every" | .names = ["every"] |
			.calls = 51 | .timed = 50 | .skipped = 0 | .dropped = 1 |
			.histogram.buckets = [[100, 100, 50]] |
			.weighted_histogram.buckets = [[100, 100, 50]] |
			.cycles = {min: 100, median: 100, p90: 100, p99: 100, max: 100, mean: 100,
				   total: 5000} |
			.raw = {min: 120, median: 120, p90: 120, p99: 120, max: 120, mean: 120,
				total: 6000} |
			.ns = {min: 50, median: 50, p90: 50, p99: 50, max: 50, mean: 50, total: 2500} |
			.sampling = {period_min: 1, period_max: 1, weighted: true,
				     weighted_stats: ["median", "p90", "p99", "mean"], weights_sq: 50,
				     weighted_total: 5000, weighted_raw: 6000}]' \
			"$DATA/budget-a.json" >"$o/two.json"
		tsc report "$o/two.json"
		if [ $RC -ne 0 ]; then
			why="status $RC: $(cat "$WORK/err")"
		elif ! grep -Eq '^spin .* 84\.8%( |$)' "$WORK/out" ||
			[ "$(grep -Eo '^(spin|every) ' "$WORK/out" | head -2 | tr -d ' \n')" != spinevery ]; then
			why="report: $(grep -E '^(spin|every) ' "$WORK/out" | tr '\n' '|')"
		else
			tsc merge -o "$o/two-m.json" "$o/two.json"
			[ "$(jq -c '[.functions[].name]' "$o/two-m.json")" = '["spin","every"]' ] ||
				why="merge order: $(jq -c '[.functions[].name]' "$o/two-m.json")"
		fi
		verdict report/weighted-order "$why"
	fi

	# The weights' sums and their histogram come together, or the file is refused.
	jq 'del(.functions[0].weighted_histogram)' "$DATA/budget-a.json" >"$o/no-whist.json"
	jq '.functions[0].sampling |= del(.weights_sq, .weighted_total, .weighted_raw)' \
		"$DATA/budget-a.json" >"$o/no-sums.json"
	bad merge/weighted-no-histogram "weighted_histogram: missing beside sampling.weights_sq" \
		merge -o "$WORK/outdir/m.json" "$o/no-whist.json"
	bad merge/weighted-no-sums "weighted_histogram: present without sampling.weights_sq" \
		merge -o "$WORK/outdir/m.json" "$o/no-sums.json"

	# merge(merge(a, b), c, d) == merge(a, b, c, d): a merged file carries its weights on.
	if selected merge/weighted-again; then
		why=""
		tsc merge -o "$o/all1.json" budget-a.json budget-b.json fixed-c.json full-d.json
		tsc merge -o "$o/ab2.json" budget-a.json budget-b.json
		tsc merge -o "$o/all2.json" "$o/ab2.json" fixed-c.json full-d.json
		if [ $RC -ne 0 ]; then
			why="status $RC: $(cat "$WORK/err")"
		elif [ "$(jq -S .functions "$o/all1.json")" != "$(jq -S .functions "$o/all2.json")" ]; then
			why="merge(merge(a, b), c, d) != merge(a, b, c, d): $(json_diff "$o/all1.json" "$o/all2.json")"
		fi
		verdict merge/weighted-again "$why"
	fi

	# report and diff read a merged budget report as an unmerged one: the same lines.
	golden report/budget report-budget-a.txt report budget-a.json
	if selected report/budget-merged; then
		why=""
		[ -s "$o/ab.json" ] || tsc merge -o "$o/ab.json" budget-a.json budget-b.json
		tsc report "$o/ab.json"
		[ "$UPDATE" = 1 ] && [ $RC -eq 0 ] && cp "$WORK/out" "$EXP/report-budget-ab.txt"
		if [ $RC -ne 0 ]; then
			why="status $RC: $(cat "$WORK/err")"
		elif ! cmp -s "$WORK/out" "$EXP/report-budget-ab.txt"; then
			diff -u "$EXP/report-budget-ab.txt" "$WORK/out" >"$WORK/report-budget-ab.diff"
			why="differs from expected/report-budget-ab.txt (report-budget-ab.diff)"
		fi
		verdict report/budget-merged "$why"
	fi
	golden diff/budget diff-budget-a-b.txt diff budget-a.json budget-b.json
	# Two runs a side that agree exactly: the mean (28 -> 19) is still an estimate from a
	# sample of effective size 7 in a (1000^2 / 137800), its weighted variance 10206: the
	# interval is wide, not the runs' zero spread (-32.1% .. -32.1%).
	if selected diff/budget-mean-sampled; then
		why=""
		jq '.pid = 711' "$DATA/budget-a.json" >"$o/a2.json"
		jq '.pid = 712' "$DATA/budget-b.json" >"$o/b2.json"
		tsc diff --stat mean budget-a.json "$o/a2.json" -- budget-b.json "$o/b2.json"
		if [ $RC -ne 0 ]; then
			why="status $RC: $(cat "$WORK/err")"
		elif ! grep -Eq '^ +mean +28 +19 +-32\.1% +-[0-9]{3,}\.[0-9]% \.\. \+[0-9]{3,}\.[0-9]% +not enough runs$' \
			"$WORK/out"; then
			why="mean row: $(grep -E '^ +mean ' "$WORK/out")"
		fi
		verdict diff/budget-mean-sampled "$why"
	fi
	if selected diff/budget-merged; then
		why=""
		[ -s "$o/ab.json" ] || tsc merge -o "$o/ab.json" budget-a.json budget-b.json
		tsc diff budget-a.json "$o/ab.json"
		if [ $RC -ne 0 ]; then
			why="status $RC: $(cat "$WORK/err")"
		elif ! grep -Eq '^ +mean +28 +22 +-21\.4%$' "$WORK/out" ||
			! grep -Eq '^ +p90 +10 +10 ' "$WORK/out"; then
			why="no weighted mean 28 -> 22 or p90 10 -> 10: $(tr '\n' '|' <"$WORK/out" | head -c 400)"
		fi
		verdict diff/budget-merged "$why"
	fi
}

# Weighted self time (sampling): budget-a and budget-b given a self half their cycles (a: 6
# calls of 5, 3 of 50, 1 of 500 at the weights above; b: 8 of 5, 2 of 50). Merged: weights
# 1000 + 2000, squared 137800 + 425000, weighted totals 14000 (900 x 5 + 90 x 50 + 10 x 500)
# + 19000 (1800 x 5 + 200 x 50); the weighted buckets 5: 2700, 50: 290, 500: 10 give median
# (rank 1500) and p90 (rank 2700) 5, p99 (rank 2970) 50, mean 33000 / 3000 = 11; min, max and
# total stay the calls timed' (5, 500, 680 + 140). A self_weighted without its histogram is
# refused; the text report's self table shows every call's total estimated and says so.
self_weighted_inputs() {
	jq '.functions[0] |= (.self = {min: 5, median: 5, p90: 50, p99: 500, max: 500, mean: 68,
			total: 680} | .self_unknown = 0 |
		.self_histogram = {of: "self", buckets: [[5, 5, 6], [50, 50, 3], [500, 500, 1]]} |
		.self_weighted = {weights: 1000, weights_sq: 137800, total: 14000} |
		.self_weighted_histogram = {of: "self",
			buckets: [[5, 5, 900], [50, 50, 90], [500, 500, 10]]})' \
		"$DATA/budget-a.json" >"$1/self-a.json" &&
	jq '.functions[0] |= (.self = {min: 5, median: 5, p90: 50, p99: 50, max: 50, mean: 14,
			total: 140} | .self_unknown = 0 |
		.self_histogram = {of: "self", buckets: [[5, 5, 8], [50, 50, 2]]} |
		.self_weighted = {weights: 2000, weights_sq: 425000, total: 19000} |
		.self_weighted_histogram = {of: "self", buckets: [[5, 5, 1800], [50, 50, 200]]})' \
		"$DATA/budget-b.json" >"$1/self-b.json"
}

t_self_weighted() {
	local why o=$WORK/selfw
	mkdir -p "$o"
	self_weighted_inputs "$o" || { fail cli/self-weighted-setup "jq failed"; return; }
	if selected merge/self-weighted; then
		why=""
		tsc merge -o "$o/ab.json" "$o/self-a.json" "$o/self-b.json"
		if [ $RC -ne 0 ] || [ -s "$WORK/err" ]; then
			why="status $RC: $(cat "$WORK/err")"
		elif ! jq -e '.functions[0] | .self_weighted == {weights: 3000, weights_sq: 562800,
				total: 33000} and
				.self_weighted_histogram.buckets == [[5, 5, 2700], [50, 50, 290], [500, 500, 10]] and
				.self.median == 5 and .self.p90 == 5 and .self.p99 == 50 and .self.mean == 11 and
				.self.min == 5 and .self.max == 500 and .self.total == 820' \
				"$o/ab.json" >/dev/null; then
			why="$(jq -c '.functions[0] | {self, self_weighted, self_weighted_histogram}' "$o/ab.json")"
		elif [ -n "$PY" ] && "$PY" -c 'import jsonschema' 2>/dev/null &&
			! "$PY" "$TOP/tests/report-schema.py" "$TOP/docs/report.schema.json" \
				"$o/ab.json" >"$o/schema.out" 2>&1; then
			why="schema: $(head -c 300 "$o/schema.out")"
		fi
		verdict merge/self-weighted "$why"
	fi
	# One input without weighted self (a run without sampling): the merge's self is the
	# timed calls' again, with no self_weighted.
	if selected merge/self-weighted-mixed; then
		why=""
		jq '.functions[0] |= del(.self_weighted, .self_weighted_histogram)' "$o/self-b.json" \
			>"$o/plain-b.json"
		tsc merge -o "$o/apb.json" "$o/self-a.json" "$o/plain-b.json"
		if [ $RC -ne 0 ]; then
			why="status $RC: $(cat "$WORK/err")"
		elif ! jq -e '.functions[0] | (has("self_weighted") or has("self_weighted_histogram") | not)
				and .self.total == 820' "$o/apb.json" >/dev/null; then
			why="$(jq -c '.functions[0] | {self, self_weighted}' "$o/apb.json")"
		fi
		verdict merge/self-weighted-mixed "$why"
	fi
	# Thread rows under sampling: each row's weighted block and self_weighted (its calls'
	# self, estimated) are carried through the merge with the row, labelled with its pid, and
	# `report --threads` shows them as estimates beside "timed 1 in ~N".
	if selected merge/thread-self-weighted; then
		why=""
		for x in a b; do
			jq '.functions[].threads[] |= (. + {weighted: {weights: (4 * .timed),
				weights_sq: (16 * .timed), cycles: (4 * .cycles)}, self_weighted: (4 * .self)})' \
				"$DATA/self-$x.json" >"$o/thr-$x.json"
		done
		tsc merge -o "$o/thr-ab.json" "$o/thr-a.json" "$o/thr-b.json"
		if [ $RC -ne 0 ] || [ -s "$WORK/err" ]; then
			why="status $RC: $(cat "$WORK/err")"
		elif ! jq -e '[.functions[].threads[]] | length > 2 and all(.[]; .pid > 0 and
				.self_weighted == 4 * .self and .weighted.cycles == 4 * .cycles)' \
				"$o/thr-ab.json" >/dev/null; then
			why="$(jq -c '[.functions[].threads[]]' "$o/thr-ab.json")"
		elif [ -n "$PY" ] && "$PY" -c 'import jsonschema' 2>/dev/null &&
			! "$PY" "$TOP/tests/report-schema.py" "$TOP/docs/report.schema.json" \
				"$o/thr-ab.json" >"$o/schema.out" 2>&1; then
			why="schema: $(head -c 300 "$o/schema.out")"
		else
			tsc report --threads "$o/thr-ab.json"
			[ $RC -eq 0 ] && grep -q 'timed 1 in' "$WORK/out" &&
				grep -Eq '^ +300 +301 +b1 +[0-9]+ +[0-9]+ +~1 .* 4[0-9]* +[0-9]+$' "$WORK/out" ||
				why="report --threads: $(grep -A3 'threads of' "$WORK/out" | head -4)"
		fi
		verdict merge/thread-self-weighted "$why"
	fi
	if selected load/self-weighted-no-histogram; then
		why=""
		jq '.functions[0] |= del(.self_weighted_histogram)' "$o/self-a.json" >"$o/nohist.json"
		tsc report "$o/nohist.json"
		if [ $RC -eq 0 ]; then
			why="accepted"
		elif ! grep -q 'self_weighted_histogram' "$WORK/err"; then
			why="the error does not name the field: $(cat "$WORK/err")"
		fi
		verdict load/self-weighted-no-histogram "$why"
	fi
	if selected report/self-weighted-text; then
		why=""
		tsc report "$o/self-a.json"
		if [ $RC -ne 0 ]; then
			why="status $RC: $(cat "$WORK/err")"
		elif ! grep -Eq '^spin +5 +5 +500 +14000 ' "$WORK/out" ||
			! grep -q 'self med, p99 and total weighted by the period' "$WORK/out"; then
			why="$(grep -A4 '^self:' "$WORK/out")"
		fi
		verdict report/self-weighted-text "$why"
	fi
}
