/*
 * sleep_wakes.c - see sleep_wakes.h.
 *
 * Linux (arch/x86/kernel/signal.c) restarts a system call interrupted by a handler when it
 * returned ERESTARTSYS and the handler has SA_RESTART (read, write and the rest of the file
 * and socket I/O without timeouts, wait4, futex waits without a timeout, flock, fcntl's lock
 * waits, open of a FIFO, accept) or ERESTARTNOINTR; it returns EINTR for ERESTARTNOHAND and
 * ERESTART_RESTARTBLOCK (poll, select, epoll_wait, pause, sigsuspend, sigtimedwait, the
 * sleeps, futex waits with a timeout), which the stop's handler then issues again. Only calls
 * listed here are resumed: any other leaves its thread asleep, as every sleeper once was.
 * Everything here is raw system calls: the world is being stopped.
 */
#include <stdint.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>

#include "base/sys.h"
#include "hook/sleep_wakes.h"

#define FUTEX_CMD(op) ((op)&127) /* without FUTEX_PRIVATE_FLAG, FUTEX_CLOCK_REALTIME */

/* A socket with a send or receive timeout returns EINTR, not ERESTARTSYS, and its time would
 * start again: not resumable. Any other descriptor is. */
static bool timeless_fd(unsigned long fd)
{
	struct stat st;
	struct timeval tv;
	unsigned int len;
	int opt;

	if (tt_sys_fstat((int)fd, &st) < 0)
		return false;
	if (!S_ISSOCK(st.st_mode))
		return true;
	for (opt = 20 /* SO_RCVTIMEO_OLD */; opt <= 21 /* SO_SNDTIMEO_OLD */; opt++) {
		len = sizeof(tv);
		if (tt_syscall6(SYS_getsockopt, (long)fd, 1 /* SOL_SOCKET */, opt, (long)&tv,
				(long)&len, 0) < 0 ||
		    tv.tv_sec || tv.tv_usec)
			return false;
	}
	return true;
}

bool tt_sleep_resumable(long nr, const unsigned long a[6])
{
	switch (nr) {
	case SYS_read:
	case SYS_write:
	case SYS_pread64:
	case SYS_pwrite64:
	case SYS_readv:
	case SYS_writev:
	case SYS_preadv:
	case SYS_pwritev:
	case SYS_preadv2:
	case SYS_pwritev2:
	case SYS_accept:
	case SYS_accept4:
	case SYS_recvfrom:
	case SYS_sendto:
	case SYS_recvmsg:
	case SYS_sendmsg:
	case SYS_sendmmsg: return timeless_fd(a[0]);
	case SYS_recvmmsg: return !a[4] && timeless_fd(a[0]);
	case SYS_wait4:
	case SYS_waitid:
	case SYS_open:
	case SYS_openat:
	case SYS_flock:
	case SYS_fcntl:
	case SYS_pause:
	case SYS_rt_sigsuspend:
	case SYS_msgsnd:
	case SYS_msgrcv:
	case SYS_semop:
	case SYS_getrandom:
	case SYS_mq_timedsend: /* absolute timeouts */
	case SYS_mq_timedreceive: return true;
	case SYS_futex:
		switch (FUTEX_CMD(a[1])) {
		case 0 /* FUTEX_WAIT: its timeout is relative */: return !a[3];
		case 6 /* FUTEX_LOCK_PI */:
		case 9 /* FUTEX_WAIT_BITSET */:
		case 11 /* FUTEX_WAIT_REQUEUE_PI */:
		case 13 /* FUTEX_LOCK_PI2 */: return true; /* absolute timeouts */
		default: return false;
		}
	case SYS_poll: return (int)a[2] < 0;
	case SYS_select:
	case SYS_pselect6: return !a[4];
	case SYS_ppoll: return !a[2];
	case SYS_epoll_wait:
	case SYS_epoll_pwait: return (int)a[3] < 0;
#ifdef SYS_epoll_pwait2
	case SYS_epoll_pwait2: return !a[3];
#endif
	case SYS_rt_sigtimedwait: return !a[2];
	case SYS_semtimedop: return !a[3];
	case SYS_clock_nanosleep: return a[1] & 1; /* TIMER_ABSTIME */
	default:
		return false; /* nanosleep, io_getevents, connect (EALREADY when issued again)... */
	}
}
