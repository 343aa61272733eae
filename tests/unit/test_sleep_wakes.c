/*
 * test_sleep_wakes.c - which system calls a sleeping thread may be stopped in
 * (src/hook/sleep_wakes.c): restarted ones, ones without a relative timeout, and not the
 * others; a socket with a timeout is told from one without, and from a pipe.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

#include <cmocka.h>

#include "hook/sleep_wakes.h"

static bool ok(long nr, unsigned long a0, unsigned long a1, unsigned long a2, unsigned long a3,
	       unsigned long a4)
{
	const unsigned long a[6] = { a0, a1, a2, a3, a4, 0 };

	return tt_sleep_resumable(nr, a);
}

static void test_restarted_and_reissued(void **state)
{
	(void)state;
	assert_true(ok(SYS_wait4, 0, 0, 0, 0, 0));
	assert_true(ok(SYS_pause, 0, 0, 0, 0, 0));
	assert_true(ok(SYS_rt_sigsuspend, 0x1000, 8, 0, 0, 0));
	assert_true(ok(SYS_poll, 0x1000, 1, (unsigned long)-1, 0, 0));
	assert_true(ok(SYS_epoll_wait, 3, 0x1000, 1, (unsigned long)-1, 0));
	assert_true(ok(SYS_pselect6, 4, 0x1000, 0, 0, 0));
	assert_true(ok(SYS_ppoll, 0x1000, 1, 0, 0, 0));
	assert_true(ok(SYS_rt_sigtimedwait, 0x1000, 0, 0, 8, 0));
	assert_true(ok(SYS_clock_nanosleep, 1, 1 /* TIMER_ABSTIME */, 0x1000, 0, 0));
	assert_true(ok(SYS_futex, 0x1000, 128 /* FUTEX_WAIT_PRIVATE */, 1, 0, 0));
	assert_true(ok(SYS_futex, 0x1000, 9 | 128 | 256 /* WAIT_BITSET, absolute */, 1, 0x2000, 0));
}

static void test_relative_timeouts_and_unknown(void **state)
{
	(void)state;
	assert_false(ok(SYS_nanosleep, 0x1000, 0, 0, 0, 0));
	assert_false(ok(SYS_clock_nanosleep, 1, 0, 0x1000, 0, 0));
	assert_false(ok(SYS_poll, 0x1000, 1, 60000, 0, 0));
	assert_false(ok(SYS_epoll_wait, 3, 0x1000, 1, 5, 0));
	assert_false(ok(SYS_select, 4, 0x1000, 0, 0, 0x2000));
	assert_false(ok(SYS_ppoll, 0x1000, 1, 0x2000, 0, 0));
	assert_false(ok(SYS_rt_sigtimedwait, 0x1000, 0, 0x2000, 8, 0));
	assert_false(ok(SYS_futex, 0x1000, 128 /* FUTEX_WAIT_PRIVATE */, 1, 0x2000, 0));
	assert_false(ok(SYS_connect, 3, 0x1000, 16, 0, 0));
	assert_false(ok(SYS_io_getevents, 0, 1, 1, 0x1000, 0x2000));
}

static void test_descriptors(void **state)
{
	struct timeval tv = { 5, 0 };
	int p[2], sv[2];

	(void)state;
	assert_int_equal(pipe(p), 0);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	assert_true(ok(SYS_read, (unsigned long)p[0], 0x1000, 1, 0, 0));
	assert_true(ok(SYS_read, (unsigned long)sv[0], 0x1000, 1, 0, 0));
	assert_true(ok(SYS_recvfrom, (unsigned long)sv[0], 0x1000, 1, 0, 0));
	assert_int_equal(setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)), 0);
	assert_false(ok(SYS_read, (unsigned long)sv[0], 0x1000, 1, 0, 0));
	assert_false(ok(SYS_recvmsg, (unsigned long)sv[0], 0x1000, 0, 0, 0));
	assert_int_equal(setsockopt(sv[1], SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)), 0);
	assert_false(ok(SYS_write, (unsigned long)sv[1], 0x1000, 1, 0, 0));
	assert_false(ok(SYS_read, 9999, 0x1000, 1, 0, 0)); /* closed: not known */
	close(p[0]);
	close(p[1]);
	close(sv[0]);
	close(sv[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_restarted_and_reissued),
		cmocka_unit_test(test_relative_timeouts_and_unknown),
		cmocka_unit_test(test_descriptors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
