/*
 * channel.c - see channel.h.
 *
 * Why a duplicate: programs close stderr before the shim speaks (coreutils closes it in an
 * atexit handler, before our destructor runs), and programs that close every descriptor at
 * start (daemons, closefrom) may then open a data file that lands on fd 2, which must never
 * receive our lines. So fd 2 is duplicated at start-up and the file it was (device, inode) is
 * remembered; every write first checks, with fstat on the descriptor, that it still leads
 * there.
 *
 * The descriptor is the highest free one below min(RLIMIT_NOFILE soft limit, 1024), as every
 * descriptor the shim holds (base/high_fd.h):
 *  - high, so the program's own open() calls, which take the lowest free number, do not meet
 *    it until ~1000 files are open, and programs counting on 3, 4, ... being theirs still get
 *    them;
 *  - within the soft limit (F_DUPFD refuses above it) and never above 1024 however high the
 *    limit: the kernel's descriptor table grows to the highest open number and fork copies it,
 *    so a descriptor near a soft limit of 1,048,576 would cost every fork of the program
 *    megabytes; 1024 is also where select() stops;
 *  - close-on-exec, so an exec'd image never sees it (its own shim takes its own).
 * The program sees one extra open descriptor (in /proc/self/fd, or to a closefrom), nothing
 * else. If it closes or dup2()s over our number, the number is the program's from then on:
 * we never write to it nor close it, and take a new duplicate of fd 2, if fd 2 is still the
 * original file (or write to fd 2 itself when the program holds every descriptor the limit
 * allows); otherwise there is no channel, and lines are dropped. A fork child shares the
 * descriptor, which is right: same stderr.
 *
 * Threads may write at once: the current descriptor is swapped with a compare-and-swap, and a
 * loser closes its own new duplicate (never the number it found stale). Between the check and
 * the write another thread of the program could dup2() over the number: that window is one
 * system call wide and is accepted.
 *
 * The check's fstat also says what the file is: SIGPIPE and SIGXFSZ are held off around the
 * write (three more system calls, sys.h) only when it is a pipe, a socket or a regular file,
 * the only files whose write raises them. Within the window above, a number dup2()ed over to a pipe whose reader is gone
 * would get a write unguarded; that is accepted with the rest of the window.
 */
#include <errno.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <termios.h>

#include "base/high_fd.h"
#include "base/sys.h"
#include "log/channel.h"

enum { UNTAKEN, TAKING, TAKEN, RELEASED };

static int state = UNTAKEN;
static int chan_fd = -1;
static bool have_orig; /* fd 2 was open at start-up */
static dev_t orig_dev;
static ino_t orig_ino;

/* Whether fd is open on the file fd 2 was at start-up; its type into *mode when it is. */
static bool is_original_mode(int fd, mode_t *mode)
{
	struct stat st;

	if (!have_orig || fd < 0 || tt_sys_fstat(fd, &st) != 0 || st.st_dev != orig_dev ||
	    st.st_ino != orig_ino)
		return false;
	*mode = st.st_mode;
	return true;
}

static bool is_original(int fd)
{
	mode_t mode;

	return is_original_mode(fd, &mode);
}

void tt_channel_open(void)
{
	int expected = UNTAKEN;
	struct stat st;
	long fd;

	if (!__atomic_compare_exchange_n(&state, &expected, TAKING, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return; /* taken already, or being taken by another thread */
	if (tt_sys_fstat(2, &st) == 0) {
		orig_dev = st.st_dev;
		orig_ino = st.st_ino;
		have_orig = true;
		fd = tt_fd_dup_high(2);
		if (fd >= 0)
			chan_fd = (int)fd;
	}
	__atomic_store_n(&state, TAKEN, __ATOMIC_RELEASE);
}

void tt_channel_release(void)
{
	int fd = __atomic_exchange_n(&chan_fd, -1, __ATOMIC_ACQ_REL);

	if (is_original(fd))
		tt_sys_close(fd);
	__atomic_store_n(&state, RELEASED, __ATOMIC_RELEASE);
}

/* A descriptor on the original stderr, or -1; its file type into *mode. */
static int channel_fd(mode_t *mode)
{
	int seen;
	long nfd;

	if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) == UNTAKEN)
		tt_channel_open(); /* a line before start-up */
	if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) != TAKEN)
		return -1;
	seen = __atomic_load_n(&chan_fd, __ATOMIC_ACQUIRE);
	if (is_original_mode(seen, mode))
		return seen;
	/* Closed, or now another file of the program's: leave that number alone for good. */
	if (!is_original_mode(2, mode))
		return -1;
	nfd = tt_fd_dup_high(2);
	if (nfd < 0)
		return 2; /* no free descriptor (the program holds them all): fd 2 as it is */
	if (!__atomic_compare_exchange_n(&chan_fd, &seen, (int)nfd, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		tt_sys_close((int)nfd); /* another thread re-took it first: use theirs */
		return is_original_mode(seen, mode) ? seen : -1;
	}
	return (int)nfd;
}

long tt_channel_write(const void *buf, size_t len)
{
	mode_t mode = 0;
	int fd = channel_fd(&mode);

	if (fd < 0)
		return -EBADF;
	/* Only a pipe or a socket raises SIGPIPE, only a regular file SIGXFSZ (RLIMIT_FSIZE):
	 * the rest are written without the three system calls that hold them off (the type was
	 * read just now, by the check above). */
	if (S_ISFIFO(mode) || S_ISSOCK(mode) || S_ISREG(mode))
		return tt_sys_write_all_nosig(fd, buf, len);
	return tt_sys_write_all(fd, buf, len);
}

bool tt_channel_alive(void)
{
	mode_t mode;

	return channel_fd(&mode) >= 0;
}

bool tt_channel_read(void)
{
	struct termios tio;
	mode_t mode = 0;
	int fd = channel_fd(&mode);

	if (fd < 0)
		return false;
	if (S_ISREG(mode) || S_ISFIFO(mode) || S_ISSOCK(mode))
		return true;
	/* Of the character devices, only a terminal answers TCGETS. */
	return S_ISCHR(mode) && tt_syscall3(SYS_ioctl, fd, TCGETS, (long)&tio) == 0;
}

bool tt_channel_is_stderr(dev_t dev, ino_t ino)
{
	return __atomic_load_n(&state, __ATOMIC_ACQUIRE) == TAKEN && have_orig && dev == orig_dev &&
	       ino == orig_ino;
}
