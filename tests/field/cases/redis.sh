# redis-server under redis-benchmark load (SET/GET, then LRANGE_100), with processCommand,
# memcpy, malloc and free traced, call sites (TSC_CALLERS=1), a dump on SIGUSR2 after each
# phase, then SIGTERM. The server counts its own commands (INFO commandstats: calls +
# rejected_calls of every command; the INFO asking it is counted only after it answered):
# processCommand's calls in each dump and in the exit report must equal that count + 1.
# The server's replies to a fixed script must be the same traced; exit status too.
# It caught processCommand's self median collapsing to 0 in the dumps after the first and in
# the exit report (the nested cost was taken at the average count of traced calls).
REDIS_SCRIPT='SET k1 hello
GET k1
INCR n
INCRBY n 41
RPUSH l a b c d
LRANGE l 0 -1
HSET h f v g w
HGETALL h
SADD s x y z
SCARD s
DEL k1
EXISTS k1
ECHO done'

# redis_commands PORT: what the server says it ran (INFO commandstats), the INFO not counted.
redis_commands() {
	redis-cli -p "$1" info commandstats | tr ',:' '\n\n' |
		awk -F= '$1 == "calls" || $1 == "rejected_calls" { s += $2 } END { print s + 0 }'
}

# redis_dump PID PORT N: the server's count now (+1: the INFO), then a dump by SIGUSR2, kept
# as $T/dumpN.json once written.
redis_dump() {
	local pid=$1 port=$2 n=$3 before
	echo $(($(redis_commands "$port") + 1)) >"$T/count$n"
	before=$(stat -c %Y.%s "$T/r.$pid.json" 2>/dev/null)
	kill -USR2 "$pid"
	wait_for 20 sh -c '[ -s "$1" ] && [ "$(stat -c %Y.%s "$1")" != "$2" ] &&
		jq -e .schema "$1"' sh "$T/r.$pid.json" "$before" ||
		fail_because "no report written after SIGUSR2 (dump $n)" || return 1
	sleep 0.2	# a rename is atomic, but let the helper thread finish its line
	cp "$T/r.$pid.json" "$T/dump$n.json"
}

# redis_session u|t: start a server, load it, query it, stop it; leaves $T/M.* files.
redis_session() {
	local m=$1 port pid t0 ticks st
	local -a envs=()
	port=$(free_port)
	[ "$m" = t ] && envs=("${TRACED[@]}" TSC_FUNCS=processCommand,memcpy,malloc,free \
		TSC_CALLERS=1 TSC_DUMP_SIGNAL=USR2)
	# Exported in the subshell, not through env(1): the server is the traced process itself.
	(cd "$T" && { [ ${#envs[@]} -eq 0 ] || export "${envs[@]}"; } &&
		exec redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
		--dir "$T" --logfile '' --loglevel warning >"$T/$m.out" 2>"$T/$m.err") &
	pid=$!
	own "$pid"
	wait_for 20 sh -c "redis-cli -p $port ping | grep -q PONG" ||
		fail_because "redis-server ($m) did not answer on port $port" || return 1
	t0=$(now_ns)
	timeout "$TIMEOUT" redis-benchmark -p "$port" -n 10000 -c 4 -t set,get -q >/dev/null 2>&1 ||
		fail_because "redis-benchmark set,get ($m) failed" || return 1
	record "$m.bench1" $(($(now_ns) - t0)) 0
	[ "$m" = t ] && { redis_dump "$pid" "$port" 1 || return 1; }
	t0=$(now_ns)
	timeout "$TIMEOUT" redis-benchmark -p "$port" -n 2000 -c 4 -t lrange_100 -q >/dev/null 2>&1 ||
		fail_because "redis-benchmark lrange_100 ($m) failed" || return 1
	record "$m.bench2" $(($(now_ns) - t0)) 0
	[ "$m" = t ] && { redis_dump "$pid" "$port" 2 || return 1; }
	printf '%s\n' "$REDIS_SCRIPT" | redis-cli -p "$port" >"$T/$m.replies" 2>&1
	echo $(($(redis_commands "$port") + 1)) >"$T/$m.count"
	ticks=$(cpu_ticks "$pid")
	record "$m.server" 0 "$ticks"
	kill -TERM "$pid"
	wait_for 30 gone "$pid" || fail_because "redis-server ($m) still running 30 s after SIGTERM" ||
		return 1
	wait "$pid" 2>/dev/null
	st=$?
	echo "$st" >"$T/$m.status"
	echo "$pid" >"$T/$m.pid"
}

field_redis() {
	need redis-server redis-cli redis-benchmark || return 0
	redis_session u || return 1
	redis_session t || return 1
	cmp -s "$T/u.status" "$T/t.status" ||
		fail_because "exit status $(cat "$T/t.status") traced, $(cat "$T/u.status") untraced" || return 1
	cmp -s "$T/u.replies" "$T/t.replies" ||
		fail_because "replies differ: $(diff "$T/u.replies" "$T/t.replies" | head -3)" || return 1
	local pid r want got n
	pid=$(cat "$T/t.pid")
	r=$T/r.$pid.json
	[ -f "$r" ] || fail_because "no exit report r.$pid.json: $(grep tsctrace: "$T/t.err" | head -2)" || return 1
	[ "$(find "$T" -maxdepth 1 -name 'r.*' | wc -l)" = 1 ] ||
		fail_because "reports left: $(cd "$T" && echo r.*)" || return 1
	got=$(fcalls "$r" processCommand)
	want=$(cat "$T/t.count")
	table_row "redis-server (redis-benchmark)" "$(redis-server --version | sed 's/.*v=\([^ ]*\).*/\1/')" \
		processCommand,memcpy,malloc,free "$got"
	[ "$got" = "$want" ] || fail_because "processCommand: $got calls, the server counted $want" || return 1
	for n in 1 2; do
		got=$(fcalls "$T/dump$n.json" processCommand)
		want=$(cat "$T/count$n")
		[ "$got" = "$want" ] ||
			fail_because "dump $n: processCommand $got calls, the server counted $want" || return 1
	done
	# processCommand looks each command up and checks it itself, with no traced call: its
	# own median is hundreds of cycles in any report (over 1,000 in a first dump here).
	for n in "$T/dump1.json" "$T/dump2.json" "$r"; do
		jq -e '.functions[] | select(.name == "processCommand") | .self.median > 0' \
			"$n" >/dev/null ||
			fail_because "$(basename "$n"): processCommand self median is 0:" \
				"$(jq -c '.functions[] | select(.name == "processCommand") | .self' "$n")" ||
			return 1
	done
	check_reports "$T/dump1.json" "$T/dump2.json" "$r" || return 1
	not_open_to_others "$r" || return 1
}
