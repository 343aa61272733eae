# merge-ref.jq - what `tsctrace merge` must produce, computed independently in jq:
#
#     jq -s -f merge-ref.jq a.json b.json ... > reference.json
#
# For each function name: counts and totals summed; min and max over the reports that timed
# it; buckets of identical [low, high] added, the rest kept, sorted by (low, high); median,
# p90 and p99 by nearest rank, ceil(p * n / 100), read as the high edge of the bucket reaching
# that rank, clamped to [min, max]; p99.9 and p99.99 the same at ceil(pm * n / 10000) for
# pm = 9990 and 9999; raw the same with each report's buckets shifted up by its
# overhead.subtracted. Means are left out (checked apart, they are rounded to one decimal).
# The output has the shape of `project` in run.sh: functions sorted by name.

def union: group_by(.[0], .[1]) | map([.[0][0], .[0][1], (map(.[2]) | add)]);

# (Parameters are not called min or max: jq 1.6 lets such a parameter shadow the builtin
# inside argument expressions too.)
def at_rank($b; $rank; $lo; $hi):
	(first(foreach $b[] as $x (0; . + $x[2]; select(. >= $rank) | $x[1])) // $hi)
	| if . < $lo then $lo elif . > $hi then $hi else . end;

def pct($b; $p; $lo; $hi):
	($b | map(.[2]) | add // 0) as $n
	| if $n == 0 then 0
	  else at_rank($b; ([((($n * $p) + 99) / 100 | floor), 1] | max); $lo; $hi) end;

def permyriad($b; $pm; $lo; $hi):
	($b | map(.[2]) | add // 0) as $n
	| if $n == 0 then 0
	  else at_rank($b; ([((($n * $pm) + 9999) / 10000 | floor), 1] | max); $lo; $hi) end;

def block($b; $timed; $key):
	($timed | map(.[$key].min) | min // 0) as $lo
	| ($timed | map(.[$key].max) | max // 0) as $hi
	| {min: $lo, median: pct($b; 50; $lo; $hi), p90: pct($b; 90; $lo; $hi),
	   p99: pct($b; 99; $lo; $hi), p999: permyriad($b; 9990; $lo; $hi),
	   p9999: permyriad($b; 9999; $lo; $hi), max: $hi};

. as $reps
| {
	merged_from: ($reps | length),
	threads: {
		traced: ($reps | map(.threads.traced) | add),
		pinned: ($reps | map(.threads.pinned) | add),
		migrations: ($reps | map(.threads.migrations) | add)
	},
	functions: ([$reps[].functions[].name] | unique | map(. as $name
		| [$reps[] | .overhead.subtracted as $s | .functions[]
		   | select(.name == $name) | . + {s: $s}] as $fs
		| [$fs[] | select(.timed > 0)] as $timed
		| ([$fs[].histogram.buckets[]] | union) as $b
		| ([$fs[] | .s as $s | .histogram.buckets[] | [.[0] + $s, .[1] + $s, .[2]]]
		   | union) as $rb
		| {
			name: $name,
			calls: ($fs | map(.calls) | add),
			timed: ($fs | map(.timed) | add),
			unwound: ($fs | map(.unwound) | add),
			migrated: ($fs | map(.migrated) | add),
			dropped: ($fs | map(.dropped) | add),
			cycles: (block($b; $timed; "cycles")
				 + {total: ($fs | map(.cycles.total) | add)}),
			raw: (block($rb; $timed; "raw") + {total: ($fs | map(.raw.total) | add)}),
			buckets: $b
		}))
}
