/*
 * test_high_fd.c - the shim's own descriptors (base/high_fd.h): placed at the top of the
 * program's range, close-on-exec, and never used once the program has the number for a file
 * of its own.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/high_fd.h"

static long top(void)
{
	struct rlimit rl;

	getrlimit(RLIMIT_NOFILE, &rl);
	return rl.rlim_cur < 1024 ? (long)rl.rlim_cur : 1024;
}

static void test_dup_takes_the_highest_free(void **state)
{
	long a = tt_fd_dup_high(1), b = tt_fd_dup_high(1);

	(void)state;
	assert_true(a >= 0 && b >= 0);
	assert_int_equal(a, top() - 1);
	assert_int_equal(b, top() - 2);
	assert_true(fcntl((int)a, F_GETFD) & FD_CLOEXEC);
	assert_true(fcntl((int)b, F_GETFD) & FD_CLOEXEC);
	close((int)a);
	close((int)b);
}

static void test_move_frees_the_low_number(void **state)
{
	int low = open("/dev/null", O_RDONLY), high;

	(void)state;
	assert_true(low >= 0);
	high = tt_fd_move_high(low);
	assert_int_equal(high, top() - 1);
	assert_int_equal(fcntl(low, F_GETFD), -1);
	close(high);
}

/* The program closes our number and opens its own file there: we neither write nor close. */
static void test_reused_number_is_left_alone(void **state)
{
	char path[] = "/tmp/test_high_fd.XXXXXX", got[16];
	struct tt_held_fd h;
	long fd = tt_fd_open_high("/dev/null", O_WRONLY, 0);
	int theirs;

	(void)state;
	assert_true(fd >= 0);
	assert_true(tt_held_fd_take(&h, (int)fd));
	assert_true(tt_held_fd_is_ours(&h));
	assert_int_equal(tt_held_fd_write_all(&h, "ok", 2), 0);
	theirs = mkstemp(path);
	assert_true(theirs >= 0);
	assert_int_equal(dup2(theirs, (int)fd), fd);
	close(theirs);
	assert_false(tt_held_fd_is_ours(&h));
	assert_int_equal(tt_held_fd_write_all(&h, "shim", 4), -EBADF);
	assert_int_equal(tt_held_fd_close(&h), -EBADF);
	assert_int_equal(write((int)fd, "prog", 4), 4); /* still open: the program's */
	assert_int_equal(pread((int)fd, got, sizeof(got), 0), 4);
	assert_memory_equal(got, "prog", 4);
	close((int)fd);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dup_takes_the_highest_free),
		cmocka_unit_test(test_move_frees_the_low_number),
		cmocka_unit_test(test_reused_number_is_left_alone),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
