# cases_self.sh - program tests sourced by run.sh (which has the helpers and the run_test
# lines): self time (a call's cycles less those of the traced calls it made) and the
# per-thread rows of each function.
# shellcheck shell=bash disable=SC2016,SC2034,SC2015
# (jq programs single-quoted on purpose; XENV, NOTE... are read by run.sh's helpers)

# The accuracy bound of a difference of minima: 2 granularity steps, the overhead's spread
# (median - min: a subtraction may be off by it), two iterations of the spin loop (a spin
# lasts N ticks plus up to one, and two spins are compared), 4 ticks of slack.
self_bound() {
	jq -r -s ".[0] | 2 * .clock.granularity + (.overhead.median - .overhead.min) + 2 * $(side spin_iteration) + 4" "$REPORT"
}

# t_self (libnest.so): nest_parent spins X = 20,000 ticks then calls nest_child, Y = 10,000.
# Minima compared, as the least disturbed calls: parent self ~ X and child total ~ Y with the
# same spin overshoot (so parent self.min ~ child cycles.min + 10,000), parent total ~ its
# self + the child's total + what one traced call costs its caller (overhead.min +
# overhead.nested); nest_rec (a traced function calling itself 3 deep) self ~ 2,000;
# nest_ljparent, whose child nest_jumper is left by longjmp, has every timed call's self
# unknown; a leaf's self is its cycles, exactly.
test_self_nested() {
	local b
	XENV+=(TSC_CLOCK=tsc)
	run_pair self_nested nest_parent,nest_child,nest_rec,nest_ljparent,nest_jumper \
		"$B/t_self" "$T/side" || return 1
	one_report && check_expects "$T/t.out" || return 1
	[ -n "$(side spin_iteration)" ] || fail_because "test setup: no spin_iteration in the side file" || return 1
	b=$(self_bound)
	NOTE="bound $b ticks; parent self.min $(jq -r -s "$JQDEFS .[0] | fn(\"nest_parent\").self.min" "$REPORT"), child cycles.min $(jq -r -s "$JQDEFS .[0] | fn(\"nest_child\").cycles.min" "$REPORT"), overhead nested $(jq -r .overhead.nested "$REPORT")"
	ck "overhead.nested measured" '.overhead.nested > 0' '.overhead' || return 1
	ck "nest_parent: self.min within $b of nest_child's cycles.min + 10000" \
		"fn(\"nest_parent\").self.min - (fn(\"nest_child\").cycles.min + 10000) | fabs <= $b" \
		'{parent: fn("nest_parent").self, child: fn("nest_child").cycles}' || return 1
	ck "nest_parent: cycles.min within 2 x $b of self.min + child cycles.min + overhead.min + nested" \
		"fn(\"nest_parent\").cycles.min - (fn(\"nest_parent\").self.min + fn(\"nest_child\").cycles.min
		 + .overhead.min + .overhead.nested) | fabs <= 2 * $b" \
		'{overhead, parent: fn("nest_parent") | {cycles, self}, child: fn("nest_child").cycles}' || return 1
	ck "nest_parent: self.total <= cycles.total - 290 x 10000 (its child's time left out)" \
		'fn("nest_parent") | .self.total <= .cycles.total - 290 * 10000 and .self_unknown == 0' \
		'fn("nest_parent") | {cycles, self, self_unknown}' || return 1
	ck "nest_child (a leaf): self == cycles" 'fn("nest_child") | .self == .cycles' \
		'fn("nest_child") | {cycles, self}' || return 1
	ck "nest_rec: self.min within $b of 2000 + nest_child's overshoot" \
		"fn(\"nest_rec\").self.min - (fn(\"nest_child\").cycles.min - 10000 + 2000) | fabs <= $b" \
		'{rec: fn("nest_rec").self, child: fn("nest_child").cycles}' || return 1
	ck "nest_rec: self.median below 2.5 x 2000 (each level's own), cycles.median above" \
		'fn("nest_rec") | .self.median < 5000 and .cycles.median > 5000 and .self.total < .cycles.total' \
		'fn("nest_rec") | {cycles, self}' || return 1
	ck "nest_ljparent: every timed call's self unknown (its child was left by longjmp)" \
		'fn("nest_ljparent") | .self_unknown == .timed and .self.total == 0' \
		'fn("nest_ljparent") | {timed, self_unknown, self}' || return 1
	ck "self statistics ordered, never above cycles' total" \
		'all(.functions[]; (.self | ordered) and .self.total <= .cycles.total)' \
		'[.functions[] | {name, cycles, self}]'
}

# TSC_CALLERS=1: every site carries self.total, and they add up to the function's.
test_self_callers() {
	XENV+=(TSC_CALLERS=1)
	run_pair self_callers nest_parent,nest_child,nest_rec,nest_ljparent,nest_jumper "$B/t_self" "$T/side" || return 1
	one_report && check_expects "$T/t.out" || return 1
	ck "every site has self.total; the sites' sum is the function's" \
		'all(.functions[]; . as $f | ([.callers[].self.total] | add) == $f.self.total)' \
		'[.functions[] | {name, self: .self.total, sites: [.callers[] | {site, self}]}]'
}

# self_deep_run: t_self traced under XENV; M is nest_parent's median in its report.
self_deep_run() {
	rm -f "$T"/r.*
	run_pair self_callers_deep nest_parent,nest_child,nest_rec "$B/t_self" "$T/side" &&
		one_report || return 1
	M=$(jq -r -s "$JQDEFS .[0] | fn(\"nest_parent\").cycles.median" "$REPORT")
}

# TSC_CALLERS=4 with traced functions calling traced functions: a path crosses the enclosing
# call's trampoline body, which is the shim's and left out, and goes on from the real return
# address: nest_child's path through nest_parent is nest_parent+off followed by nest_parent's
# own path, exactly; nest_rec's paths are nest_rec frames, then main's. No frame of the shim,
# no 0. The unwinding (~10 us) runs inside the enclosing call and is moved out of it: the
# parent's median stays within max(5%, 2 granularity + overhead.median + nested) of the runs
# without call paths before and after it (it was 1.7-2.2 times that, the unwinding of each
# child in it).
test_self_callers_deep() {
	local plain plain2 lo hi b M
	# Runs without paths before and after the one with: their spread is how far the
	# machine's load moves the median between runs, measured here.
	XENV+=(TSC_CLOCK=tsc)
	self_deep_run || return 1
	plain=$M
	XENV+=(TSC_CALLERS=4)
	self_deep_run || return 1
	mv "$REPORT" "$T/paths.json"
	XENV=(TSC_CLOCK=tsc)
	self_deep_run || return 1
	plain2=$M
	rm -f "$T"/r.*
	REPORT=$T/paths.json
	lo=$((plain < plain2 ? plain : plain2)) hi=$((plain > plain2 ? plain : plain2))
	NOTE="nest_parent median $plain and $plain2 ticks without paths, $(jq -r -s "$JQDEFS .[0] | fn(\"nest_parent\").cycles.median" "$REPORT") with, between them; hook $(jq -r -s "$JQDEFS .[0] | fn(\"nest_parent\").hook" "$REPORT")"
	ck "no path holds a frame of the shim or a 0" \
		'all(.functions[].callers[].frames[]; (contains("libtsctrace") or . == "0x0") | not)' \
		'[.functions[] | {name, paths: [.callers[].frames]}]' || return 1
	ck "nest_parent: one path of 300 calls, from main, 4 frames" \
		'fn("nest_parent").callers | length == 1 and .[0].calls == 300 and
		 (.[0].frames | length == 4 and (.[0] | startswith("main+")))' \
		'fn("nest_parent").callers' || return 1
	ck "nest_child via nest_parent: nest_parent+off, then nest_parent's path, exactly" \
		'fn("nest_parent").callers[0].frames as $p |
		 [fn("nest_child").callers[] | select(.frames[0] | startswith("nest_parent+"))] |
		 length == 1 and .[0].calls == 300 and .[0].frames[1:] == $p[0:3]' \
		'{parent: fn("nest_parent").callers[0].frames, child: [fn("nest_child").callers[] | {calls, frames}]}' || return 1
	ck "nest_rec: four paths of 100 calls, k = 0..3 nest_rec frames then main's" \
		'[fn("nest_rec").callers[] | {calls, k: (.frames | map(split("+")[0]) |
		  map(. == "nest_rec") | index(false)), next: (.frames | map(split("+")[0]) |
		  map(select(. != "nest_rec")) | .[0])}] | sort_by(.k) ==
		 [range(4) | {calls: 100, k: ., next: "main"}]' \
		'[fn("nest_rec").callers[] | {calls, frames}]' || return 1
	b=$(jq -r -s ".[0] | 2 * .clock.granularity + .overhead.median + .overhead.nested" "$REPORT")
	ck "nest_parent: cycles.median within max(5% of $lo, $b) of the runs without paths ($lo..$hi)" \
		"([0.05 * $lo, $b] | max) as \$d | fn(\"nest_parent\").cycles.median as \$m |
		 \$m >= $lo - \$d and \$m <= $hi + \$d" \
		'{overhead, parent: fn("nest_parent").cycles}'
}

# Under TSC_SAMPLE the children passed over stay in their parent's self: the report says so.
test_self_sampled() {
	XENV+=(TSC_SAMPLE=4)
	run_pair self_sampled nest_parent,nest_child,nest_rec "$B/t_self" "$T/side" || return 1
	one_report || return 1
	ck "self_approximate where calls were passed over" \
		'all(.functions[]; (.skipped > 0) == (.self_approximate == true))' \
		'[.functions[] | {name, skipped, self_approximate}]' || return 1
	ck "counts exact" 'fn("nest_parent").calls == 300 and fn("nest_child").calls == 340' \
		'[.functions[] | counts]'
}

# The text report shows the self table when a function made traced calls.
test_self_text() {
	FORMAT=text OUTTPL="$T/r.%p.txt"
	run_pair self_text nest_parent,nest_child "$B/t_self" "$T/side" || return 1
	grep -q '^function  *self min  *self med  *self p99  *self total' "$REPORT" ||
		fail_because "no self table in the text report: $(grep -n self "$REPORT" | head -3)"
}

# A leaf's self is its cycles exactly, also where readings fall below the overhead and are
# floored at 0 each: t_sample's work_spin alternates short calls (20 multiply-adds) and long
# ones (> 4,000 cycles), and TSC_OVERHEAD=1000 lies between. Its self total was the sum of
# readings less 1,000 per call, below its cycles' total, and the text report then showed a
# self table for a function that made no traced call.
test_self_leaf_floor() {
	XENV+=(TSC_OVERHEAD=1000)
	run_pair self_leaf_floor work_spin "$B/t_sample" alt 2000 || return 1
	one_report || return 1
	ck "work_spin: some readings floored (cycles.min 0), self total == cycles total" \
		'fn("work_spin") | .cycles.min == 0 and .cycles.total > 0 and
		 .self.total == .cycles.total and .self_unknown == 0' \
		'fn("work_spin") | {cycles, self, raw}' || return 1
	rm -f "$T"/r.*
	FORMAT=text OUTTPL="$T/r.%p.txt"
	run_pair self_leaf_floor work_spin "$B/t_sample" alt 2000 || return 1
	! grep -q '^function  *self min' "$REPORT" ||
		fail_because "a self table for a leaf: $(grep -A2 '^self:' "$REPORT")"
}

# Per-thread rows and call sites floor each reading as the function's totals do: two threads
# that exited before the report (rows kept at their exit) and the main thread (a live row)
# call work_spin short and long in turn, the short readings below TSC_OVERHEAD=1000.
test_self_rows_floor() {
	XENV+=(TSC_OVERHEAD=1000 TSC_CALLERS=1)
	run_pair self_rows_floor work_spin "$B/t_sample" alt 2000 2 || return 1
	one_report || return 1
	ck "three rows and the one site add up to cycles.total and self.total exactly" \
		'fn("work_spin") as $f | $f.cycles.min == 0 and $f.cycles.total > 0 and
		 ($f.threads | length) == 3 and
		 ([$f.threads[].cycles] | add) == $f.cycles.total and
		 ([$f.threads[].self] | add) == $f.self.total and
		 ([$f.callers[].self.total] | add) == $f.self.total and
		 ([$f.callers[].cycles.total] | add) == $f.cycles.total' \
		'fn("work_spin") | {cycles: .cycles.total, self: .self.total, threads,
		  sites: [.callers[] | {c: .cycles.total, s: .self.total}]}'
}

# t_thr4: four threads named worker-0..3 call nest_leaf 1000 x (k + 1) times and exit before
# the report; main calls it 7 times. Each thread's row is exact and named.
test_threads_rows() {
	run_pair threads_rows nest_leaf "$B/t_thr4" || return 1
	one_report && check_expects "$T/t.out" || return 1
	ck "five rows: worker-0..3 with 1000, 2000, 3000, 4000 calls, main's with 7" \
		'fn("nest_leaf").threads | map({name, calls}) | sort_by(.calls) ==
		 [{name: "t_thr4", calls: 7}, {name: "worker-0", calls: 1000}, {name: "worker-1", calls: 2000},
		  {name: "worker-2", calls: 3000}, {name: "worker-3", calls: 4000}]' \
		'fn("nest_leaf").threads' || return 1
	ck "rows add up: calls, timed; distinct tids in order" \
		'fn("nest_leaf") as $f | ([$f.threads[].calls] | add) == $f.calls and
		 ([$f.threads[].timed] | add) == $f.timed and
		 ([$f.threads[].tid] | . == (unique | sort)) and all($f.threads[]; .tid > 0)' \
		'fn("nest_leaf") | {calls, timed, threads}' || return 1
	ck "rows' self equals their cycles (a leaf)" \
		'all(fn("nest_leaf").threads[]; .self == .cycles)' 'fn("nest_leaf").threads'
}
