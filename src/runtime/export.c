/*
 * export.c - see export.h.
 *
 * The helper thread is the shim's own (in_shim set for good, the fatal signals blocked, as
 * the TSC_DUMP_SIGNAL thread): it sleeps to absolute CLOCK_MONOTONIC deadlines and calls
 * write_now, which reads the per-thread counters the way a dump does (tt_thread_collect:
 * relaxed loads, the thread lock held per function, which traced threads take only when
 * they start and end). Traced threads never wait for it and never write the file.
 *
 * The file is replaced, never edited: a temporary ".NAME.tmp.PID.N" in the same directory
 * (node_exporter's textfile collector reads only *.prom, and a rename within one directory
 * is atomic), renamed over NAME. Counters only go up between two writes of one process: each
 * is a sum of per-thread counters that only grow, and an exiting thread's counters move into
 * the totals under the lock the reader holds.
 *
 * A fork child's counters restart at zero, and the helper thread stays in the parent. When
 * the template holds %p, each process has a file of its own: the child starts its own
 * thread and writes its own file, and every series then carries a pid label, without which
 * node_exporter would see the same series in two files. Without %p the file is the
 * parent's: the child writes none (its counters would make the parent's seem to fall).
 * Its report is written as usual.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/basename.h"
#include "base/high_fd.h"
#include "base/sys.h"
#include "elf/real.h"
#include "hot/thread.h"
#include "log/log.h"
#include "report/report_path.h"
#include "runtime/export.h"
#include "runtime/signals.h"

static char path[PATH_MAX];
static char tmp[PATH_MAX + 64];
static int64_t owner; /* the pid that exports; 0: nobody */
static uint64_t interval_ms;
static int (*write_now)(void);
static long last_err; /* the last failure said, so that a lasting one is said once */
static uint64_t serial;
static bool per_process; /* the template holds %p */

bool tt_export_enabled(void)
{
	return owner && tt_sys_getpid() == owner;
}

bool tt_export_per_process(void)
{
	return per_process;
}

/* Whether the template has a %p (a "%%p" is a '%' then 'p'). */
static bool has_pid(const char *t)
{
	for (; *t; t++) {
		if (t[0] == '%' && t[1] == 'p')
			return true;
		if (t[0] == '%' && t[1] == '%')
			t++;
	}
	return false;
}

static void say_failure(long err, const char *what)
{
	if (err == last_err)
		return;
	last_err = err;
	tt_warn("TSC_EXPORT: cannot %s %s (%s); trying again at the next export", what, tmp,
		strerror((int)-err));
}

int tt_export_deliver(const struct tt_buf *b)
{
	const char *base = tt_base_name(path);
	int dir_len = (int)(base - path);
	long fd = -EEXIST, err;
	struct tt_held_fd held;
	int tries;

	if (!tt_export_enabled())
		return -1;
	for (tries = 0; fd == -EEXIST && tries < 8; tries++) {
		snprintf(tmp, sizeof(tmp), "%.*s.%s.tmp.%lld.%llu", dir_len, path, base,
			 (long long)owner, (unsigned long long)++serial);
		fd = tt_sys_openat(AT_FDCWD, tmp,
				   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				   0644); /* never writable by others, even under umask 0 */
	}
	if (fd < 0) {
		say_failure(fd, "create");
		return -1;
	}
	/* Written from the export thread while the program runs: high, and checked before
	 * each write (the program may close it and open its own file on that number). */
	fd = tt_fd_move_high((int)fd);
	if (!tt_held_fd_take(&held, (int)fd))
		err = -EBADF;
	else
		err = tt_held_fd_write_all(&held, b->data, b->len);
	if (tt_held_fd_close(&held) < 0 && !err)
		err = -EIO;
	if (!err)
		err = tt_sys_renameat(AT_FDCWD, tmp, AT_FDCWD, path);
	if (err) {
		tt_sys_unlinkat(AT_FDCWD, tmp, 0);
		say_failure(err, "write");
		return -1;
	}
	if (last_err)
		tt_info("TSC_EXPORT: %s written again", path);
	last_err = 0;
	return 0;
}

static void add_ms(struct timespec *t, uint64_t ms)
{
	t->tv_sec += (time_t)(ms / 1000);
	t->tv_nsec += (long)(ms % 1000) * 1000000L;
	if (t->tv_nsec >= 1000000000L) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000L;
	}
}

static void *export_thread(void *arg)
{
	struct timespec next, now;

	(void)arg;
	tt_shim_enter(); /* for good: this thread is ours, nothing it calls is traced */
	tt_signals_block_for_shim_thread();
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		add_ms(&next, interval_ms);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
		write_now();
		/* A write longer than the interval: the next one an interval from now. */
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > next.tv_sec ||
		    (now.tv_sec == next.tv_sec && now.tv_nsec > next.tv_nsec))
			next = now;
	}
	return NULL;
}

/* Through a sanitizer's pthread_create where one is preloaded: it must know the thread. */
static void *outside_pthread_create;

static int start_thread(void)
{
	uint64_t old;
	pthread_attr_t attr;
	pthread_t t;
	int err;

	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	old = tt_signals_block_before_shim_thread();
	err = TT_OUTSIDE(pthread_create)(&t, &attr, export_thread, NULL);
	tt_signals_restore_after_shim_thread(old);
	pthread_attr_destroy(&attr);
	return err;
}

/* path from the template for this process; false after one line when it cannot be. */
static bool expand(const struct tt_run *run)
{
	char name[PATH_MAX];
	int n;

	n = tt_report_path_expand(run->cfg.export_path, run->pid, tt_run_name(run),
				  run->clock.start_real_ns / 1000000000u, name, sizeof(name));
	if (n > 0 && name[0] != '/')
		n = snprintf(path, sizeof(path), "%s/%s", run->cwd, name);
	else if (n > 0)
		n = snprintf(path, sizeof(path), "%s", name);
	if (n <= 0 || (size_t)n >= sizeof(path) || !strcmp(name, "-")) {
		tt_warn("TSC_EXPORT=%s: %s, no live export", run->cfg.export_path,
			!strcmp(name, "-") ? "not a file name" : "too long once expanded");
		return false;
	}
	return true;
}

static void start(const struct tt_run *run)
{
	if (!expand(run))
		return;
	owner = run->pid;
	last_err = 0;
	if (start_thread() != 0) {
		tt_warn("TSC_EXPORT: no helper thread; %s is written at exit only", path);
		return;
	}
	tt_info("metrics exported to %s every %llu ms", path, (unsigned long long)interval_ms);
}

void tt_export_start(const struct tt_run *run, int (*write)(void))
{
	if (!run->cfg.export_path)
		return;
	interval_ms = run->cfg.export_ms;
	write_now = write;
	per_process = has_pid(run->cfg.export_path);
	start(run);
}

void tt_export_after_fork_child(const struct tt_run *run)
{
	owner = 0;
	if (run->cfg.export_path && per_process)
		start(run);
}
