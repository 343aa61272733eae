# sample_cost_cache: TSC_BUDGET's start-up costs (a counted call per route, a timed call over
# it) are kept between runs beside the overhead's figures (runtime/sample_cache.h) and read
# instead of measured: 0.7 ms of CPU a process. First run: measured, kept in a sample-*.txt
# file of the cache directory, the report's figures those of the file. Then the file's timed
# cost set to 4321: the next run's report says 4321 (read, not measured). Then a file broken
# (a field missing): measured again, the file made whole again. strlen and strncmp, which
# reading and writing the file call, are traced too: in every run their counts are those of a
# run without a budget (the shim's own calls are not the program's).
SCC_FUNCS=work_add,strlen,strncmp

# scc_same_libc: strlen's and strncmp's calls in $REPORT are those of $T/libc.want.
scc_same_libc() {
	jq -c '[.functions[] | select(.name != "work_add") | {name, calls}] | sort_by(.name)' \
		"$REPORT" >"$T/libc.got"
	cmp -s "$T/libc.want" "$T/libc.got" ||
		fail_because "$1: libc calls $(cat "$T/libc.got"), without a budget $(cat "$T/libc.want")"
}

test_sample_cost_cache() {
	local f t
	XENV+=(XDG_CACHE_HOME="$T/cache")
	run_pair sample_cost_cache $SCC_FUNCS "$B/t_observer_effect" sparse "$T/side" || return 1
	one_report || return 1
	jq -c '[.functions[] | select(.name != "work_add") | {name, calls}] | sort_by(.name)' \
		"$REPORT" >"$T/libc.want"
	rm -f "$T"/r.*
	XENV+=(TSC_BUDGET=2%)
	run_pair sample_cost_cache $SCC_FUNCS "$B/t_observer_effect" sparse "$T/side" || return 1
	one_report && check_expects_sampled "$T/t.out" && scc_same_libc "costs measured" || return 1
	f=$(find "$T/cache/tsctrace" -name 'sample-*.txt' 2>/dev/null | head -1)
	[ -n "$f" ] || fail_because "no sample-*.txt in the cache: $(ls "$T/cache/tsctrace" 2>&1)" ||
		return 1
	t=$(awk '$1 == "timed" { print $2 }' "$f")
	ck "the report's timed cost is the kept one" ".sampling.timed_cost == $t" '.sampling' || return 1
	sed -i 's/^timed .*/timed 4321/' "$f"
	rm -f "$T"/r.*
	run_pair sample_cost_cache $SCC_FUNCS "$B/t_observer_effect" sparse "$T/side" || return 1
	one_report && scc_same_libc "costs read from the cache" || return 1
	ck "a later run reads the kept costs (timed 4321)" '.sampling.timed_cost == 4321' '.sampling' ||
		return 1
	sed -i '/^count_inline /d' "$f"
	rm -f "$T"/r.*
	run_pair sample_cost_cache $SCC_FUNCS "$B/t_observer_effect" sparse "$T/side" || return 1
	one_report && scc_same_libc "a broken file" || return 1
	ck "a broken file: measured again" '.sampling.timed_cost != 4321' '.sampling' || return 1
	grep -q '^count_inline [0-9]' "$f" && ! grep -q '^timed 4321$' "$f" ||
		fail_because "the broken file was not replaced: $(cat "$f")"
}
