/*
 * report_kin.c - see report_kin.h.
 *
 * A run is a traced process and its traced descendants: a shell and the commands it starts,
 * make and its recipes, a pipeline. With one fixed TSC_OUTPUT they all aim at one name, and
 * none may replace the report of another; a report left by an earlier run is replaced as
 * before. So the question is whether the report at the name was written after the run began.
 *
 * When the report was written: a JSON report says who wrote it and when (pid, start_unix_ns
 * and wall_ns, taken from the writer's own clock), which survives what mtime does not: a copy
 * with `cp -p` or rsync, `touch`, and the clock of a file server. A text report has no start
 * time, so its mtime is used.
 *
 * When the run began: sequential children (`sh -c 'sort f; grep x f'`) each start after the
 * previous one wrote its report, so this process's own start would call a sibling's report
 * old. The run began when its oldest process started: walk up the parent chain while the
 * parent has this very library mapped (its device and inode in /proc/PID/maps), and take the
 * start time (/proc/PID/stat) of the last one; the walk stops early at a process of the run
 * that had started before the report was written. The process's start, not the image's: a
 * report written by this pid before its exec is of this run too. An ancestor that maps the library
 * without tracing anything only moves the start earlier: a report may then be kept that
 * could have been replaced, never the reverse. /proc times are clock ticks since boot,
 * truncated (earlier: the safe way), turned into real time through CLOCK_BOOTTIME; a coarse
 * mtime may lag the write by a jiffy, hence a small margin, the safe way too. So a report
 * written a few tens of milliseconds before the run began counts as of this run.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <time.h>

#include "base/sys.h"
#include "runtime/clock.h"
#include "runtime/report_kin.h"

#define HEAD_BYTES (1u << 20) /* the header is within this, whatever the argv */
#define MARGIN_NS 20000000ull /* 20 ms: an mtime lags the write by up to a jiffy */
#define MAX_DEPTH 64
#define MAPS_CHUNK 16384

/* Scratch for /proc reads and the library's maps key; one report at a time. */
static char chunk[MAPS_CHUNK + 128];

/* Digits at p (after blanks) as an unsigned number; false when there are none. */
static bool parse_u64(const char *p, const char *end, uint64_t *out)
{
	uint64_t v = 0;
	bool any = false;

	while (p < end && *p == ' ')
		p++;
	for (; p < end && *p >= '0' && *p <= '9'; p++, any = true)
		v = v * 10 + (uint64_t)(*p - '0');
	*out = v;
	return any;
}

/* The number after `key` in buf[0..len), when key occurs. */
static bool field(const char *buf, size_t len, const char *key, uint64_t *out)
{
	const char *p = memmem(buf, len, key, strlen(key));

	return p && parse_u64(p + strlen(key), buf + len, out);
}

/* Read up to cap bytes of fd from offset 0 into buf; the length read. */
static size_t read_head(int fd, char *buf, size_t cap)
{
	size_t n = 0;
	long r;

	while (n < cap) {
		r = tt_syscall6(SYS_pread64, fd, (long)(buf + n), (long)(cap - n), (long)n, 0, 0);
		if (r == -EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	return n;
}

/* Clock ticks since boot at which process pid started, and its parent. */
static bool proc_stat(long pid, uint64_t *start, long *ppid)
{
	char path[40], *p, *end;
	uint64_t v = 0;
	long fd, n;
	int i;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	fd = tt_sys_openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return false;
	n = tt_sys_read((int)fd, chunk, 1023);
	tt_sys_close((int)fd);
	if (n <= 0)
		return false;
	end = chunk + n;
	/* "pid (comm) state ppid ...": comm may hold anything, the last ')' ends it */
	p = memrchr(chunk, ')', (size_t)n);
	if (!p)
		return false;
	p += 2;
	for (i = 3; i <= 22 && p < end; i++) { /* field 4 is ppid, 22 starttime */
		if ((i == 4 || i == 22) && !parse_u64(p, end, &v))
			return false;
		if (i == 4)
			*ppid = (long)v;
		if (i == 22) {
			*start = v;
			return true;
		}
		p = memchr(p, ' ', (size_t)(end - p));
		if (!p)
			return false;
		p++;
	}
	return false;
}

/* Hex digits from p up to `stop` (or the line's end) as a number; p left on the stop. */
static uint64_t hex_until(char **p, const char *end, char stop)
{
	uint64_t v = 0;

	for (; *p < end && **p != stop; (*p)++)
		v = v * 16 + (uint64_t)(**p <= '9' ? **p - '0' : (**p | 32) - 'a' + 10);
	return v;
}

/* " MAJ:MIN INODE " of the mapping that holds this code, as /proc/PID/maps prints it. */
static bool own_key(char *key, size_t size)
{
	uintptr_t self = (uintptr_t)&own_key;
	char *line, *nl, *end;
	long fd, n;
	size_t have = 0;
	bool found = false;

	fd = tt_sys_openat(AT_FDCWD, "/proc/self/maps", O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return false;
	while (!found && (n = tt_sys_read((int)fd, chunk + have, MAPS_CHUNK - have)) > 0) {
		have += (size_t)n;
		end = chunk + have;
		for (line = chunk; !found && (nl = memchr(line, '\n', (size_t)(end - line)));
		     line = nl + 1) {
			char *p = line, *dev, *ino, *after;
			uint64_t lo = hex_until(&p, nl, '-'), hi;

			p++;
			hi = hex_until(&p, nl, ' ');
			if (self < lo || self >= hi)
				continue;
			/* start-end perms offset dev inode path */
			dev = memchr(p + 1, ' ', (size_t)(nl - p - 1));
			dev = dev ? memchr(dev + 1, ' ', (size_t)(nl - dev - 1)) : NULL;
			ino = dev ? memchr(dev + 1, ' ', (size_t)(nl - dev - 1)) : NULL;
			after = ino ? memchr(ino + 1, ' ', (size_t)(nl - ino - 1)) : NULL;
			if (after && (size_t)(after - dev) + 2 < size) {
				memcpy(key, dev, (size_t)(after - dev) + 1);
				key[after - dev + 1] = '\0';
				found = true;
			}
		}
		have = (size_t)(end - line);
		memmove(chunk, line, have);
		if (have == MAPS_CHUNK)
			have = 0; /* a line longer than the buffer: not ours */
	}
	tt_sys_close((int)fd);
	return found;
}

/* Whether /proc/PID/maps shows the mapping named by key. */
static bool maps_has(long pid, const char *key)
{
	size_t klen = strlen(key), keep = 0;
	char path[40];
	bool found = false;
	long fd, n;

	snprintf(path, sizeof(path), "/proc/%ld/maps", pid);
	fd = tt_sys_openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return false;
	while (!found && (n = tt_sys_read((int)fd, chunk + keep, MAPS_CHUNK)) > 0) {
		size_t len = keep + (size_t)n;

		found = memmem(chunk, len, key, klen) != NULL;
		keep = len < klen ? len : klen; /* a key split between two reads */
		memmove(chunk, chunk + len - keep, keep);
	}
	tt_sys_close((int)fd);
	return found;
}

/* CLOCK_REALTIME ns of `ticks` clock ticks since boot, 0 when the clocks disagree. */
static uint64_t ticks_to_real(uint64_t ticks, uint64_t hz, uint64_t boot, uint64_t real)
{
	uint64_t at = ticks * (1000000000ull / hz);

	return boot > at && real > boot - at ? real - (boot - at) : 0;
}

/*
 * Whether a report written at `written` (CLOCK_REALTIME ns) is of this run (see the top). The
 * walk goes up only until a process of the run is found that had started by then: the run
 * began no later, and the ancestors above (a login shell's long maps) are not read. Cannot
 * tell (no /proc): of this run, so kept.
 */
static bool written_in_run(uint64_t written)
{
	char key[96];
	uint64_t start, hz = getauxval(AT_CLKTCK), boot, real;
	long pid, ppid;
	int depth;

	if (!hz || !proc_stat(tt_sys_getpid(), &start, &ppid))
		return true;
	boot = tt_clock_ns(CLOCK_BOOTTIME);
	real = tt_clock_ns(CLOCK_REALTIME);
	if (ticks_to_real(start, hz, boot, real) <= written + MARGIN_NS)
		return true;
	if (!own_key(key, sizeof(key)))
		return false;
	for (depth = 0, pid = ppid; depth < MAX_DEPTH && pid > 1 && maps_has(pid, key);
	     depth++, pid = ppid) {
		if (!proc_stat(pid, &start, &ppid))
			break;
		if (ticks_to_real(start, hz, boot, real) <= written + MARGIN_NS)
			return true;
	}
	return false;
}

enum tt_kin tt_runtime_report_kin(int fd, const struct stat *st, int64_t *pid, uint64_t since_ns)
{
	size_t cap = st->st_size > 0 && (uint64_t)st->st_size < HEAD_BYTES ? (size_t)st->st_size
									   : HEAD_BYTES;
	/* A report that fits the scratch buffer (a short process's does) is read whole at once,
	 * into it: no mapping to make and unmap, one read. A larger one is first
	 * told from its start, then read into a mapping. */
	bool small = cap <= MAPS_CHUNK;
	char *head = small ? chunk
			   : tt_sys_mmap(NULL, HEAD_BYTES, PROT_READ | PROT_WRITE,
					 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint64_t v = 0, start = 0, wall = 0, written;
	bool json, text;
	size_t n;

	*pid = 0;
	if (!head)
		return TT_KIN_FOREIGN;			       /* cannot tell: keep it */
	n = read_head(fd, head, small || cap < 96 ? cap : 96); /* enough to tell a report */
	text = n >= 9 && memcmp(head, "tsctrace ", 9) == 0;
	json = n > 0 && memmem(head, n, "\"tool\": \"tsctrace", 17) != NULL;
	if (!json && !text) {
		if (!small)
			tt_sys_munmap(head, HEAD_BYTES);
		return TT_KIN_FOREIGN;
	}
	if (!small)
		n = read_head(fd, head, cap);
	if (json && field(head, n, "\n  \"pid\": ", &v))
		*pid = (int64_t)v;
	else if (text && field(head, n, "\npid:", &v))
		*pid = (int64_t)v;
	written = (uint64_t)st->st_mtim.tv_sec * 1000000000ull + (uint64_t)st->st_mtim.tv_nsec;
	if (json && field(head, n, "\n  \"start_unix_ns\": ", &start) &&
	    field(head, n, "\n  \"wall_ns\": ", &wall))
		written = start + wall;
	if (!small)
		tt_sys_munmap(head, HEAD_BYTES);
	/* The run began at or before since_ns: a report written after it needs no walk of
	 * /proc (each file there costs tens of microseconds; a shell loop meets this case). */
	if (since_ns && written + MARGIN_NS >= since_ns)
		return TT_KIN_THIS_RUN;
	return written_in_run(written) ? TT_KIN_THIS_RUN : TT_KIN_OLDER;
}
