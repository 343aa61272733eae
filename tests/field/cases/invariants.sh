# The checks every other case relies on can fail: a clean report of sort (call paths 2 deep)
# passes tests/field/invariants.py, and each of ten broken copies of it is caught with its
# own message (schema, counts, histogram, order, self time, call sites, threads, paths).
INV_BREAKS='.functions[0].calls = "1"	schema:
.functions[0].dropped += 1	!= timed+skipped
.functions[0].histogram.buckets[0][2] += 1	histogram holds
.functions[0].cycles.p90 = .functions[0].cycles.max + 1	percentiles out of order
.functions[0].self.median = .functions[0].cycles.median + 1	self median
.functions[0].callers[0].cycles.total += 1	call sites. cycles add up
.functions[0].threads[0].calls += 1	threads. calls add up
.functions[0].threads[0].self += 1	threads. self add up
.functions[0].callers[0].frames[0] = "tt_ibody_lfence+0x10c (libtsctrace.so)"	a frame of the shim
.functions[0].callers[0].frames += ["0x0"]	ends in a 0x0 frame'

field_invariants() {
	local r out expr want n=0
	awk 'BEGIN { x = 7; for (i = 0; i < 5000; i++) { x = (x * 1103515245 + 12345) % 2147483648;
		printf "%010d\n", x } }' >"$T/in.txt"
	(cd "$T" && env "${TRACED[@]}" TSC_FUNCS=memcmp,malloc TSC_CALLERS=2 TSC_QUIET=1 \
		LC_ALL=C sort -o sorted.txt in.txt 2>t.err) || fail_because "traced sort failed" || return 1
	r=$(echo "$T"/r.*.json)
	[ -f "$r" ] || fail_because "no report: $(head -2 "$T/t.err")" || return 1
	jq -e '.functions[0].callers | length > 0' "$r" >/dev/null ||
		fail_because "no call sites in the report" || return 1
	out=$("$PY" "$HERE/invariants.py" "$SCHEMA" "$r" 2>&1) ||
		fail_because "a clean report fails: $out" || return 1
	while IFS='	' read -r expr want; do
		n=$((n + 1))
		jq "$expr" "$r" >"$T/broken$n.json" || fail_because "jq: $expr" || return 1
		out=$("$PY" "$HERE/invariants.py" "$SCHEMA" "$T/broken$n.json" 2>&1) &&
			fail_because "not caught: $expr" && return 1
		printf '%s\n' "$out" | grep -q -- "$want" ||
			fail_because "$expr: caught, but not as \"$want\": $(printf '%s' "$out" | head -c 200)" ||
			return 1
	done <<<"$INV_BREAKS"
	NOTE="$n broken reports caught"
}
