/*
 * t_quick_exit.c - 100 traced calls, then quick_exit(5), whose at_quick_exit handler makes
 * 50 more: libc ends the process through its own _exit, which no wrapper of the shim sees.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tp.h"

long work_add(long a, long b);

static void at_quick(void)
{
	long i, sum = 0;

	for (i = 0; i < 50; i++)
		sum = work_add(sum, i);
	printf("at_quick_exit: sum %ld\n", sum);
	fflush(stdout);
}

int main(void)
{
	long i, sum = 0;

	if (at_quick_exit(at_quick) != 0)
		return 2;
	for (i = 0; i < 100; i++)
		sum = work_add(sum, i);
	printf("sum %ld\n", sum);
	tp_expect(stdout, "work_add", 150);
	fflush(stdout);
	quick_exit(5);
}
