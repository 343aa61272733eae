# sqlite3 on generated data: a scan of a 200,000-row table with sqlite3BtreeNext traced
# (a static function of libsqlite3, exported in Debian's build) and call paths 4 deep.
# Exact count from the database itself: the scan calls it once per row (the last call finds
# the end), once more per leaf page it leaves (btreeNext calls sqlite3BtreeNext again after
# climbing to the parent page: leaf pages - 1, from the dbstat table), and once per row of
# sqlite_schema when the CLI reads the schema.
# It caught the calls btreeNext makes by a tail jump being blamed on the trampoline (a
# libtsctrace frame, then 0x0) in their call paths.
field_sqlite() {
	local rows=200000 q='select count(*), sum(x), max(y) from t;' leaves schema want got
	need sqlite3 || return 0
	local fn=sqlite3BtreeNext
	nm -D /usr/lib/x86_64-linux-gnu/libsqlite3.so.0 2>/dev/null | grep -qw "T $fn" ||
		fn=sqlite3_step
	printf 'create table t(x integer, y text);\n%s\n' \
		"with recursive c(i) as (select 1 union all select i+1 from c where i<$rows) insert into t select i, hex(randomblob(8)) from c;" |
		sqlite3 "$T/t.db" || fail_because "could not generate the database" || return 1
	cp "$T/t.db" "$T/t.db.orig"
	leaves=$(sqlite3 "$T/t.db" "select count(*) from dbstat where name='t' and pagetype='leaf';")
	schema=$(sqlite3 "$T/t.db" "select count(*) from sqlite_schema;")
	[ -n "$leaves" ] && [ "$leaves" -gt 0 ] ||
		fail_because "sqlite3 has no dbstat table here: leaf pages unknown" || return 1

	(cd "$T" && measure u.scan timeout "$TIMEOUT" sqlite3 t.db "$q" >u.out 2>u.err)
	echo $? >"$T/u.st"
	(cd "$T" && measure t.scan timeout "$TIMEOUT" env "${TRACED[@]}" TSC_FUNCS=$fn TSC_CALLERS=4 \
		sqlite3 t.db "$q" >t.out 2>t.err)
	echo $? >"$T/t.st"
	cmp -s "$T/u.st" "$T/t.st" || fail_because "exit status $(cat "$T/t.st") traced, $(cat "$T/u.st") untraced" || return 1
	cmp -s "$T/u.out" "$T/t.out" || fail_because "output differs: $(diff "$T/u.out" "$T/t.out" | head -3)" || return 1
	cmp -s "$T/t.db" "$T/t.db.orig" || fail_because "the database file changed" || return 1
	local reps=("$T"/r.*.json)
	[ -f "${reps[0]:-}" ] && [ ${#reps[@]} -eq 1 ] ||
		fail_because "${#reps[@]} reports, expected 1: $(grep tsctrace: "$T/t.err" | head -2)" || return 1
	got=$(fcalls "${reps[0]:-}" $fn)
	if [ $fn = sqlite3BtreeNext ]; then
		want=$((rows + leaves - 1 + schema))
	else
		want=$((1 + schema))	# sqlite3_step: the query's one row, the schema's rows
	fi
	[ "$got" = "$want" ] ||
		fail_because "$fn: $got calls, the database says $want ($rows rows, $leaves leaf pages, $schema in sqlite_schema)" || return 1
	table_row "sqlite3 (scan of $rows rows)" "$(sqlite3 --version | cut -d' ' -f1)" "$fn, TSC_CALLERS=4" "$got"
	check_reports "${reps[@]}" || return 1
	not_open_to_others "${reps[@]}" || return 1
}
