/*
 * callers_pipe.c - see callers_pipe.h.
 *
 * libunwind (1.6, x86-64) checks that an address is readable, when a frame has no unwind
 * information and it falls back on the frame pointer, by writing a byte from that address
 * into a pipe of its own and reading it back: pipe2(O_CLOEXEC | O_NONBLOCK) on first use, the
 * read end read with read(), the write end written with syscall(SYS_write, ...), and when
 * the read fails otherwise than EAGAIN both ends are closed and a new pipe made. Left alone,
 * the pipe takes the lowest free numbers (3 and 4 in a small program), and a program that
 * closes every descriptor from 3 and opens its own files there has libunwind read its input
 * and write process memory into its output.
 *
 * So libunwind's own calls of those four functions (its GOT slots, not the program's) come
 * here:
 *  - pipe2: both ends moved to the top of the program's range (base/high_fd.h) and
 *    remembered with the pipe's device and inode;
 *  - read, syscall(SYS_write): on a remembered number that no longer leads to that pipe, the
 *    call fails with EBADF and touches nothing; libunwind then makes a new pipe;
 *  - close: a remembered number that is no longer the pipe is the program's now: forgotten,
 *    not closed.
 * Every other call passes through unchanged. Between the check and the call another thread
 * of the program could reuse the number: that window is one system call wide and accepted,
 * as for the stderr channel.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "base/high_fd.h"
#include "base/sys.h"
#include "elf/elfdyn.h"
#include "hook/got.h"
#include "runtime/callers_pipe.h"

/* The pipes libunwind made through us: a few, for threads that remake theirs at once. Slots
 * are claimed with a compare-and-swap of fd from -1 (no lock: unwinding may run in a signal
 * handler). */
#define MAX_HELD 8
static struct tt_held_fd held[MAX_HELD] = {
	[0 ... MAX_HELD - 1] = { .fd = -1 },
};

static struct tt_held_fd *find_held(int fd)
{
	size_t i;

	if (fd < 0)
		return NULL;
	for (i = 0; i < MAX_HELD; i++)
		if (__atomic_load_n(&held[i].fd, __ATOMIC_ACQUIRE) == fd)
			return &held[i];
	return NULL;
}

static void remember(int fd)
{
	struct tt_held_fd h;
	size_t i;

	if (!tt_held_fd_take(&h, fd))
		return;
	for (i = 0; i < MAX_HELD; i++) {
		int none = -1;

		/* Claimed (-2, which no look-up matches), filled, then published. */
		if (!__atomic_compare_exchange_n(&held[i].fd, &none, -2, false, __ATOMIC_ACQ_REL,
						 __ATOMIC_RELAXED))
			continue;
		held[i].dev = h.dev;
		held[i].ino = h.ino;
		__atomic_store_n(&held[i].fd, fd, __ATOMIC_RELEASE);
		return;
	}
	/* More pipes than slots: this one is unchecked, as libunwind made it (but high). */
}

static void forget(struct tt_held_fd *h)
{
	__atomic_store_n(&h->fd, -1, __ATOMIC_RELEASE);
}

/* Whether fd may be used: not one we remember, or still the pipe it was. */
static bool usable(int fd)
{
	struct tt_held_fd *h = find_held(fd);

	return !h || tt_held_fd_is_ours(h);
}

static int unwind_pipe2(int fds[2], int flags)
{
	int i;

	if (pipe2(fds, flags) != 0)
		return -1;
	for (i = 0; i < 2; i++) {
		struct tt_held_fd *stale = find_held(fds[i]);

		if (stale)
			forget(stale); /* a number we remembered, free again and reused */
		fds[i] = tt_fd_move_high(fds[i]);
		remember(fds[i]);
	}
	return 0;
}

static ssize_t unwind_read(int fd, void *buf, size_t len)
{
	if (!usable(fd)) {
		errno = EBADF;
		return -1;
	}
	return read(fd, buf, len);
}

static int unwind_close(int fd)
{
	struct tt_held_fd *h = find_held(fd);

	if (h) {
		bool ours = tt_held_fd_is_ours(h);

		forget(h);
		if (!ours)
			return 0; /* the program's now */
	}
	return close(fd);
}

static long unwind_syscall(long nr, ...)
{
	long a[6], ret;
	va_list ap;
	int i;

	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (nr == SYS_write && !usable((int)a[0])) {
		errno = EBADF;
		return -1;
	}
	/* Raw, as libc's syscall() makes it: the exported one is the shim's (wrap/sandbox.c). */
	ret = tt_syscall6(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (ret < 0 && ret > -4096) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}

static const char *const names[] = { "pipe2", "read", "close", "syscall" };
static void *const targets[] = { (void *)unwind_pipe2, (void *)unwind_read, (void *)unwind_close,
				 (void *)unwind_syscall };

struct find {
	const void *code;
	unsigned int written;
};

static int point(struct tt_elf *o, void *ctx)
{
	struct find *f = ctx;

	if (!tt_elf_in_exec(o, (uintptr_t)f->code))
		return 0;
	f->written = tt_got_point_imports(o, names, targets, sizeof(names) / sizeof(names[0]));
	return 1;
}

void tt_callers_pipe_take(const void *code)
{
	struct find f = { code, 0 };

	tt_elf_foreach(point, &f);
}
