/*
 * run_dir.c - see run_dir.h. Everything here runs at exit, possibly from a signal handler or
 * an _exit wrapper: raw system calls and the caller's buffers only.
 *
 * The report is created with O_EXCL and written where it stays. A process killed in the
 * middle of the write leaves a cut file: `tsctrace run` reads the directory only once the
 * command has ended, says which file it could not read and merges the others.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "base/basename.h"
#include "base/high_fd.h"
#include "base/sys.h"
#include "hook/funcs.h"
#include "runtime/run_dir.h"
#include "runtime/threads.h"

#define NAME_TRIES 100 /* EXE.PID.json, EXE.PID-2.json ... */
#define NAME_MAX_BYTES 4096

/* This image's earlier report (a dump, TSC_DUMP_SIGNAL): the next one replaces it, or the
 * merge would count the image twice. A fork child inherits it with its parent's pid. */
static struct {
	long long pid;
	char name[NAME_MAX_BYTES];
} last;

/* Write len bytes to a file opened with flags (O_WRONLY and O_CREAT among them); a file
 * created with O_EXCL is removed again when the write fails. */
static long write_file(const char *name, int flags, const void *data, size_t len)
{
	long fd = tt_fd_open_high(name, flags | O_NOFOLLOW | O_CLOEXEC, 0644), err;
	struct tt_held_fd held;

	if (fd < 0)
		return fd;
	/* the program's other threads run on: the number is checked before the write */
	if (!tt_held_fd_take(&held, (int)fd))
		return -EBADF;
	err = tt_held_fd_write_all(&held, data, len);
	if (tt_held_fd_close(&held) < 0 && !err)
		err = -EIO;
	if (err && (flags & O_EXCL))
		tt_sys_unlinkat(AT_FDCWD, name, 0);
	return err;
}

bool tt_run_dir_skip_empty(const struct tt_run *run)
{
	char name[NAME_MAX_BYTES], line[320];
	int n;

	if (run->cfg.empty)
		return false;
	/* index 0 is the calibration function; under a run, functions found but never called
	 * add nothing to its answer either, and their report costs more than the process */
	if (tt_funcs_count() > 1 && (!run->cfg.run_dir || tt_thread_traced() > 0))
		return false;
	if (!run->cfg.run_dir)
		return true;
	n = snprintf(line, sizeof(line), "%lld %s\n", (long long)run->pid, tt_base_name(run->exe));
	if (n > 0 && (size_t)n < sizeof(line) &&
	    (size_t)snprintf(name, sizeof(name), "%s/" TT_RUN_DIR_EMPTY, run->cfg.run_dir) <
		    sizeof(name))
		/* one short append: lines of processes ending together do not mix */
		write_file(name, O_WRONLY | O_CREAT | O_APPEND, line, (size_t)n);
	return true;
}

long tt_run_dir_deliver(const struct tt_run *run, const struct tt_buf *b, char *path, size_t size)
{
	const char *exe = tt_base_name(run->exe);
	long err = -EEXIST;
	int k, n;

	if (last.pid == run->pid && last.name[0]) {
		/* written beside, then renamed over the earlier one: never half a report there */
		n = snprintf(path, size, "%s.tmp", last.name);
		if (n < 0 || (size_t)n >= size)
			return -ENAMETOOLONG;
		tt_sys_unlinkat(AT_FDCWD, path, 0);
		err = write_file(path, O_WRONLY | O_CREAT | O_EXCL, b->data, b->len);
		if (!err)
			err = tt_sys_renameat(AT_FDCWD, path, AT_FDCWD, last.name);
		if (!err)
			memcpy(path, last.name, strlen(last.name) + 1);
		return err;
	}
	for (k = 1; k <= NAME_TRIES && err == -EEXIST; k++) {
		n = k > 1 ? snprintf(path, size, "%s/%s.%lld-%d.json", run->cfg.run_dir,
				     *exe ? exe : "unknown", (long long)run->pid, k)
			  : snprintf(path, size, "%s/%s.%lld.json", run->cfg.run_dir,
				     *exe ? exe : "unknown", (long long)run->pid);
		if (n < 0 || (size_t)n >= size)
			return -ENAMETOOLONG;
		err = write_file(path, O_WRONLY | O_CREAT | O_EXCL, b->data, b->len);
	}
	if (!err && strlen(path) < sizeof(last.name)) {
		memcpy(last.name, path, strlen(path) + 1);
		last.pid = run->pid;
	}
	return err;
}
