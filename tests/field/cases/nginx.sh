# nginx, a daemon that forks twice and changes user: `daemon on`, a master and two workers
# that switch to nobody, stderr on /dev/null as a daemon is started, its own nginx.conf on a
# loopback port, driven by `ab -n 2000 -c 4` after one request by curl.
# ngx_http_process_request runs once per request: the workers' calls, summed, must equal
# ab's completed requests + 2 (curl's and the probe's that found it ready), and the lines of nginx's access log. Every process leaves a
# report: the one started (it exits once the daemon is forked), the master, each worker;
# where TSC_OUTPUT says or, when that cannot be written, in $TMPDIR (a 1777 directory here).
# Before the fallback to $TMPDIR, the workers (nobody) could not write into the root-owned
# directory and their stderr was /dev/null, so their reports were lost; reports were also
# created mode 0666 under nginx's umask 0.
NGINX_REQS=2000

# nginx_conf DIR PORT: the configuration of one run, everything under DIR.
nginx_conf() {
	local d=$1
	cat <<CONF
user nobody nogroup;
worker_processes 2;
daemon on;
pid $d/nginx.pid;
error_log $d/error.log;
events { worker_connections 64; }
http {
	access_log $d/access.log;
	client_body_temp_path $d/body;
	proxy_temp_path $d/proxy;
	fastcgi_temp_path $d/fastcgi;
	uwsgi_temp_path $d/uwsgi;
	scgi_temp_path $d/scgi;
	server {
		listen 127.0.0.1:$2;
		root $d/www;
	}
}
CONF
}

# nginx_session u|t: start, one curl request, ab, stop; leaves $T/M/ files.
nginx_session() {
	local m=$1 d=$T/$1 port master t0 ticks w
	local -a envs=()
	port=$(free_port)
	mkdir -p "$d/www" "$d/tmp"
	chmod 1777 "$d/tmp"
	seq 1 2000 | sed 's/^/line /' >"$d/www/index.html"
	nginx_conf "$d" "$port" >"$d/nginx.conf"
	[ "$m" = t ] && mapfile -t envs < <(printf '%s\n' "LD_PRELOAD=$LIB" TSC_FORMAT=json \
		"TSC_OUTPUT=$d/r.%p.json" TSC_FUNCS=ngx_http_process_request "TMPDIR=$d/tmp")
	(cd "$d" && { [ ${#envs[@]} -eq 0 ] || export "${envs[@]}"; } &&
		exec nginx -p "$d/" -c "$d/nginx.conf" -e "$d/error.log" \
		</dev/null >"$d/start.out" 2>/dev/null) &
	local starter=$!
	# The daemon's start returns at once; bounded all the same.
	wait_for "$TIMEOUT" gone "$starter" || fail_because "nginx ($m) did not return from its start" || return 1
	wait "$starter"
	echo $? >"$d/start.status"
	wait_for 20 test -s "$d/nginx.pid" || fail_because "nginx ($m) wrote no pid file" || return 1
	master=$(cat "$d/nginx.pid")
	own "$master"
	wait_for 20 sh -c "[ \$(pgrep -c -P $master) -ge 2 ]" ||
		fail_because "nginx ($m): fewer than 2 workers" || return 1
	pgrep -P "$master" >"$d/workers"
	# shellcheck disable=SC2046	# pids: words
	own $(cat "$d/workers")
	echo "$master" >"$d/master"
	wait_for 20 curl -sf -o /dev/null "http://127.0.0.1:$port/index.html"
	curl -s -o "$d/page" -w '%{http_code}\n' "http://127.0.0.1:$port/index.html" >"$d/code"
	t0=$(now_ns)
	timeout "$TIMEOUT" ab -n $NGINX_REQS -c 4 "http://127.0.0.1:$port/index.html" >"$d/ab.out" 2>&1 ||
		fail_because "ab ($m) failed: $(tail -2 "$d/ab.out")" || return 1
	record "$m.ab" $(($(now_ns) - t0)) 0
	ticks=0
	for w in "$master" $(cat "$d/workers"); do ticks=$((ticks + $(cpu_ticks "$w"))); done
	record "$m.server" 0 "$ticks"
	kill -QUIT "$master"
	wait_for 30 gone "$master" || fail_because "nginx ($m) still running 30 s after SIGQUIT" ||
		return 1
	for w in $(cat "$d/workers"); do
		wait_for 10 gone "$w" || fail_because "nginx worker $w ($m) still running" || return 1
	done
	# What the client saw that does not depend on timing.
	grep -E '^(Server Software|Document Path|Document Length|Complete requests|Failed requests|Non-2xx)' \
		"$d/ab.out" >"$d/ab.facts"
	echo "$starter" >"$d/starter"
}

# nginx_report DIR PID: the report of PID, where TSC_OUTPUT says or in the fallback directory.
nginx_report() {
	local f
	for f in "$1/r.$2.json" "$1"/tmp/tsctrace.*."$2".*.json; do
		[ -f "$f" ] && { echo "$f"; return 0; }
	done
	return 1
}

field_nginx() {
	need nginx ab curl || return 0
	[ "$(id -u)" = 0 ] || { skip_because "not root: nginx cannot switch its workers to nobody"; return 0; }
	id nobody >/dev/null 2>&1 && getent group nogroup >/dev/null ||
		{ skip_because "no user nobody or group nogroup"; return 0; }
	nginx_session u || return 1
	nginx_session t || return 1
	local d=$T/t p r reps=() missing="" got want log
	for p in start.status code page ab.facts; do
		cmp -s "$T/u/$p" "$d/$p" ||
			fail_because "$p differs traced: $(diff "$T/u/$p" "$d/$p" | head -3)" || return 1
	done
	for p in $(cat "$d/starter" "$d/master" "$d/workers"); do
		if r=$(nginx_report "$d" "$p"); then reps+=("$r"); else missing="$missing $p"; fi
	done
	# ab's requests, curl's, and the one request that found the server ready.
	want=$(($(awk '/^Complete requests/ { print $3 }' "$d/ab.out") + 2))
	log=$(wc -l <"$d/access.log")
	got=0
	[ ${#reps[@]} -gt 0 ] && got=$(sum_calls ngx_http_process_request "${reps[@]}")
	table_row "nginx (2 workers as nobody, ab -c 4)" "$(nginx -v 2>&1 | sed 's|.*/||')" \
		ngx_http_process_request "$got"
	[ -z "$missing" ] ||
		fail_because "no report from pid$missing (starter $(cat "$d/starter"), master $(cat "$d/master"), workers $(cat "$d/workers" | tr '\n' ' '))" ||
		return 1
	[ "$got" = "$want" ] && [ "$log" = "$want" ] ||
		fail_because "ngx_http_process_request: $got calls; requests: $want (ab + curl + first probe), $log in the access log" ||
		return 1
	check_reports "${reps[@]}" || return 1
	not_open_to_others "${reps[@]}" || return 1
}
