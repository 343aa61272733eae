# A build of many processes: `tsctrace run -- make -j2` of a generated C project (12 sources,
# a library, a program), malloc, free and strlen traced. The build's output, the objects and
# the program it links must be byte for byte those of the untraced build; the run leaves one
# entry in the project directory, its run directory, and prints one table at the end; every
# process is accounted for: its report, or a line in the run's `empty` file (nothing traced
# was called), as many as processes, counted independently by strace in a third build (every
# process that exits calls exit_group or dies).
MAKE_SRCS=12

# make_project DIR: the generated project.
make_project() {
	local d=$1 i
	mkdir -p "$d"
	for i in $(seq 1 $MAKE_SRCS); do
		printf 'int f%d(int x);\nint f%d(int x) { int s = 0; for (int i = 0; i < x; i++) s += i * %d; return s; }\n' \
			"$i" "$i" "$i" >"$d/f$i.c"
	done
	{
		echo '#include <stdio.h>'
		for i in $(seq 1 $MAKE_SRCS); do echo "int f$i(int x);"; done
		echo 'int main(void) { long s = 0;'
		for i in $(seq 1 $MAKE_SRCS); do echo "s += f$i($i);"; done
		echo 'printf("%ld\n", s); return 0; }'
	} >"$d/main.c"
	printf '%s\n' 'OBJS := $(patsubst %.c,%.o,$(wildcard f*.c))' \
		'prog: main.o libf.a' '	$(CC) -o $@ main.o libf.a' \
		'libf.a: $(OBJS)' '	ar rcD $@ $^' \
		'%.o: %.c' '	$(CC) -O2 -c -o $@ $<' >"$d/Makefile"
}

# make_build LABEL DIR CMD...: the build, timed, its output and status kept beside DIR.
make_build() {
	local l=$1 d=$2
	shift 2
	make_project "$d"
	(cd "$d" && measure "$l" timeout "$TIMEOUT" "$@" >"$d.out" 2>"$d.err")
	echo $? >"$d.st"
}

field_make() {
	need make gcc ar strace || return 0
	[ -x "$CLI" ] || fail_because "$CLI not built" || return 1
	make_build u.build "$T/u" make -j2
	make_build t.build "$T/t" "$CLI" run -f malloc,free,strlen -- make -j2
	make_build count "$T/s" strace -f -qq -e trace=exit_group -e signal=none -o "$T/s.strace" make -j2
	local f n reps rdir nempty extra
	# the run's answer (from "N processes reported" to the end) is not the build's stderr
	sed -n '/^tsctrace: [0-9]* process.* reported/,$p' "$T/t.err" >"$T/t.answer"
	sed -i '/^tsctrace: [0-9]* process.* reported/,$d' "$T/t.err"
	extra=$(cd "$T/t" && ls -A | grep -vxF -f <(cd "$T/u" && ls -A))
	rdir=$T/t/$extra
	case $extra in
	tsctrace-run.*) [ -d "$rdir" ] ;;
	*) false ;;
	esac || fail_because "not one run directory added to the project: '$(echo $extra | head -c 200)'" || return 1
	[ "$(grep -c '^tsctrace: [0-9]* process.* reported' "$T/t.answer")" = 1 ] &&
		[ "$(grep -cE '^  function +calls +processes' "$T/t.answer")" = 1 ] ||
		fail_because "not one table at the end: $(head -c 300 "$T/t.answer")" || return 1
	[ "$(awk '$1 == "malloc" { print $2 }' "$T/t.answer")" = \
		"$(jq '.functions[] | select(.name == "malloc") | .calls' "$rdir/merged.json")" ] ||
		fail_because "the table's malloc calls are not merged.json's" || return 1
	for f in st out; do
		cmp -s "$T/u.$f" "$T/t.$f" ||
			fail_because "build $f differs traced: $(diff "$T/u.$f" "$T/t.$f" | head -3)" || return 1
	done
	grep -v '^tsctrace: ' "$T/t.err" | cmp -s "$T/u.err" - ||
		fail_because "build stderr differs: $(grep -v '^tsctrace: ' "$T/t.err" | head -2)" || return 1
	for f in "$T"/u/*.o "$T"/u/libf.a "$T"/u/prog; do
		cmp -s "$f" "$T/t/${f##*/}" || fail_because "${f##*/} differs traced" || return 1
	done
	"$T/u/prog" >"$T/u.prog" && "$T/t/prog" >"$T/t.prog" && cmp -s "$T/u.prog" "$T/t.prog" ||
		fail_because "the program built traced says otherwise" || return 1
	# One line per process that ended: exit_group (or killed by a signal: no such line).
	n=$(awk '{ print $1 }' "$T/s.strace" | sort -u | wc -l)
	# the run's reports.json-seq (RS before each report) split into one file per report
	mkdir -p "$T/recs"
	jq -c --seq . "$rdir/reports.json-seq" | tr -d '\036' |
		awk -v d="$T/recs" '{ f = d "/r." NR ".json"; print > f; close(f) }'
	reps=("$T"/recs/r.*.json)
	nempty=$(cat "$rdir/empty" 2>/dev/null | wc -l)
	table_row "make -j2 (gcc, 12 files)" "make $(make --version | head -1 | awk '{ print $3 }'), gcc $(gcc -dumpversion)" \
		malloc,free,strlen "$(sum_calls malloc "${reps[@]}") (malloc)"
	[ $((${#reps[@]} + nempty)) = "$n" ] ||
		fail_because "${#reps[@]} reports and $nempty with nothing traced, $n processes (strace): $(grep tsctrace: "$T/t.err" | grep -v rdtscp | head -2)" ||
		return 1
	check_reports "${reps[@]}" || return 1
	not_open_to_others "$rdir/reports.json-seq" "$rdir/merged.json" || return 1
}
