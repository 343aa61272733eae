# A threaded Python program: 4 threads, each computing zlib.crc32 and hashlib.sha256 of
# blocks of generated data, with libz's crc32 (one call per zlib.crc32 call: exact count),
# PyObject_Hash and PyUnicode_New (exported by Debian's python3.11, libpython linked in)
# traced. Its output (the digests) must be the same traced; exit status too.
PY_PROG='import hashlib, sys, threading, zlib
N = int(sys.argv[1])
out = {}
def work(k):
    h, c = hashlib.sha256(), 0
    for i in range(N):
        block = (b"%d:%d;" % (k, i)) * 64
        c = zlib.crc32(block, c)
        h.update(block)
        hash(str(i) + "x" * k)
    out[k] = "%d %08x %s" % (k, c, h.hexdigest())
ts = [threading.Thread(target=work, args=(k,)) for k in range(4)]
for t in ts: t.start()
for t in ts: t.join()
for k in sorted(out): print(out[k])'

field_python() {
	local n=20000 py r got
	# Debian's python3, the program (a pyenv or venv python3 first on PATH would be another).
	py=/usr/bin/python3
	[ -x "$py" ] || { skip_because "no /usr/bin/python3 (package python3)"; return 0; }
	printf '%s\n' "$PY_PROG" >"$T/threads.py"
	(cd "$T" && measure u.run timeout "$TIMEOUT" "$py" threads.py $n >u.out 2>u.err)
	echo $? >"$T/u.st"
	(cd "$T" && measure t.run timeout "$TIMEOUT" env "${TRACED[@]}" \
		TSC_FUNCS=crc32,PyObject_Hash,PyUnicode_New "$py" threads.py $n >t.out 2>t.err)
	echo $? >"$T/t.st"
	cmp -s "$T/u.st" "$T/t.st" || fail_because "exit status $(cat "$T/t.st") traced, $(cat "$T/u.st") untraced" || return 1
	cmp -s "$T/u.out" "$T/t.out" || fail_because "output differs: $(diff "$T/u.out" "$T/t.out" | head -3)" || return 1
	local reps=("$T"/r.*.json)
	[ -f "${reps[0]:-}" ] && [ ${#reps[@]} -eq 1 ] ||
		fail_because "${#reps[@]} reports, expected 1: $(grep tsctrace: "$T/t.err" | head -2)" || return 1
	r=${reps[0]}
	got=$(fcalls "$r" crc32)
	table_row "python3 (4 threads: zlib, hashlib)" "$("$py" -V 2>&1 | cut -d' ' -f2)" \
		crc32,PyObject_Hash,PyUnicode_New "$got"
	[ "$got" = $((4 * n)) ] || fail_because "crc32: $got calls, the program made $((4 * n))" || return 1
	jq -e '.threads.traced >= 4' "$r" >/dev/null ||
		fail_because "$(jq .threads.traced "$r") threads traced, the program ran 4 of its own" || return 1
	check_reports "$r" || return 1
	not_open_to_others "$r" || return 1
}
