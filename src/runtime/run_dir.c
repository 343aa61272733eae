/*
 * run_dir.c - see run_dir.h. Everything here runs at exit, possibly from a signal handler or
 * an _exit wrapper: raw system calls and the caller's buffers only.
 *
 * Appends of processes ending together do not mix: each report is one writev() on a file
 * opened O_APPEND, which a local file system performs whole under the file's lock. A process
 * killed in the middle of a write, or a full disk, leaves a cut record: the RS byte before
 * the next one lets the reader skip it (`tsctrace run` names it on one line).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/uio.h>

#include "base/basename.h"
#include "base/high_fd.h"
#include "base/sys.h"
#include "hook/funcs.h"
#include "runtime/run_dir.h"
#include "runtime/threads.h"

#define NAME_BYTES 4096

/* Append the pieces to the file `name` (made if missing), in one writev when the kernel takes
 * it whole; the rest, if any, written after it. 0, or -errno. */
static long append(const char *name, const void *head, size_t head_len, const void *data,
		   size_t len)
{
	long fd = tt_fd_open_high(name, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC,
				  0644),
	     n, err = 0;
	struct iovec iov[2] = { { (void *)head, head_len }, { (void *)data, len } };
	struct tt_held_fd held;
	struct tt_sigheld h;
	size_t total = head_len + len;

	if (fd < 0)
		return fd;
	/* the program's other threads run on: the number is checked before the write */
	if (!tt_held_fd_take(&held, (int)fd))
		return -EBADF;
	tt_sys_sigs_hold(&h); /* EPIPE and EFBIG, never SIGPIPE or SIGXFSZ */
	do
		n = tt_held_fd_is_ours(&held) ? tt_syscall3(SYS_writev, fd, (long)iov, 2) : -EBADF;
	while (n == -EINTR);
	tt_sys_sigs_release(&h, n < 0 ? n : 0);
	if (n < 0)
		err = n;
	else if ((size_t)n < total) /* cut short (a full disk): finish it as a plain write */
		err = (size_t)n < head_len
			      ? -EIO
			      : tt_held_fd_write_all(&held,
						     (const char *)data + (n - (long)head_len),
						     len - ((size_t)n - head_len));
	if (tt_held_fd_close(&held) < 0 && !err)
		err = -EIO;
	return err;
}

bool tt_run_dir_skip_empty(const struct tt_run *run)
{
	char name[NAME_BYTES], line[320];
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
		append(name, "", 0, line, (size_t)n);
	return true;
}

long tt_run_dir_deliver(const struct tt_run *run, const struct tt_buf *b, char *path, size_t size)
{
	int n = snprintf(path, size, "%s/" TT_RUN_DIR_REPORTS, run->cfg.run_dir);

	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	return append(path, "\x1e", 1, b->data, b->len);
}
