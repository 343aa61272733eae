/*
 * high_fd.c - see high_fd.h.
 *
 * Why near 1024 and no higher: the kernel's descriptor table grows to the highest open number
 * and fork copies it, so a number near a soft limit of 1,048,576 would cost every fork of the
 * program megabytes; 1024 is also where select() stops. Within that, the highest free number:
 * a program counting on 3, 4, ... being its own still gets them, and meets ours only once it
 * holds ~1000 files.
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include "base/high_fd.h"
#include "base/sys.h"

#define FD_CEILING 1024
/* Numbers tried downwards from the top before settling for the lowest free one: the shim
 * holds a handful; a program holding all of these holds the top of its range anyway. */
#define TRIES 32

static long top_fd(void)
{
	struct rlimit rl;

	if (tt_syscall6(SYS_prlimit64, 0, RLIMIT_NOFILE, 0, (long)&rl, 0, 0) == 0 &&
	    rl.rlim_cur < FD_CEILING)
		return (long)rl.rlim_cur;
	return FD_CEILING;
}

long tt_fd_dup_high(int fd)
{
	long top = top_fd(), want, got;

	for (want = top - 1; want >= 3 && want >= top - TRIES; want--) {
		if (tt_sys_fcntl((int)want, F_GETFD, 0) != -EBADF)
			continue; /* taken */
		got = tt_sys_fcntl(fd, F_DUPFD_CLOEXEC, want);
		if (got == want)
			return got;
		if (got >= 0)
			tt_sys_close((int)got); /* taken meanwhile: a higher one, or past the top */
		else if (got != -EMFILE && got != -EINVAL)
			return got; /* fd itself is bad */
	}
	return tt_sys_fcntl(fd, F_DUPFD_CLOEXEC, 3);
}

int tt_fd_move_high(int fd)
{
	long nfd = tt_fd_dup_high(fd);

	if (nfd < 0) {
		tt_sys_fcntl(fd, F_SETFD, FD_CLOEXEC);
		return fd;
	}
	tt_sys_close(fd);
	return (int)nfd;
}

long tt_fd_open_high(const char *path, int flags, int mode)
{
	long fd = tt_sys_openat(AT_FDCWD, path, flags | O_CLOEXEC, mode);

	return fd < 0 ? fd : tt_fd_move_high((int)fd);
}

bool tt_held_fd_take(struct tt_held_fd *h, int fd)
{
	struct stat st;

	h->fd = -1;
	if (fd < 0 || tt_sys_fstat(fd, &st) != 0)
		return false;
	h->fd = fd;
	h->dev = st.st_dev;
	h->ino = st.st_ino;
	return true;
}

bool tt_held_fd_is_ours(const struct tt_held_fd *h)
{
	struct stat st;

	return h->fd >= 0 && tt_sys_fstat(h->fd, &st) == 0 && st.st_dev == h->dev &&
	       st.st_ino == h->ino;
}

static long write_checked(const struct tt_held_fd *h, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		long n;

		if (!tt_held_fd_is_ours(h))
			return -EBADF;
		n = tt_sys_write(h->fd, p, len);
		if (n == -EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? n : -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Without SIGPIPE or SIGXFSZ raised by our own write (base/sys.h): a program under
 * RLIMIT_FSIZE, or whose reader went away, runs on as untraced. */
long tt_held_fd_write_all(const struct tt_held_fd *h, const void *buf, size_t len)
{
	struct tt_sigheld held;
	long err;

	tt_sys_sigs_hold(&held);
	err = write_checked(h, buf, len);
	tt_sys_sigs_release(&held, err);
	return err;
}

long tt_held_fd_close(struct tt_held_fd *h)
{
	long err = tt_held_fd_is_ours(h) ? tt_sys_close(h->fd) : -EBADF;

	h->fd = -1;
	return err;
}
