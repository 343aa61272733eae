/*
 * t_daemon.c - a program that becomes a daemon: the parent leaves through the _exit that
 * daemon() calls inside libc (no exit(), no destructor), the child goes on.
 *
 * Before daemon(): work_add 250 times (the parent's count). After, in the child: 40 times
 * (a forked child's counts start from zero). The child prints nothing (the test's stdout is
 * the parent's) and ends with exit().
 */
#include "tp.h"

#include <unistd.h>

long work_add(long a, long b);

int main(void)
{
	long acc = 0;
	int i;

	for (i = 0; i < 250; i++)
		acc = work_add(acc, i);
	printf("before daemon: %ld\n", acc);
	fflush(stdout);
	if (daemon(1, 1) != 0) {
		perror("daemon");
		return 1;
	}
	for (i = 0; i < 40; i++)
		acc = work_add(acc, i);
	return acc == 0;
}
