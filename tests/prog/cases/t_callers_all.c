/*
 * t_callers_all.c - traced with TSC_FUNCS='*' TSC_CALLERS=2 (callers_all.sh): a little of
 * everything libc does for a program (stdio, errno, strings, memory), and work_add's calls.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tp.h"

long work_add(long a, long b);

int main(void)
{
	char buf[64];
	long sum = 0;
	int i;

	for (i = 0; i < 100; i++) {
		char *p = malloc(32);

		snprintf(buf, sizeof(buf), "%d", i);
		sum = work_add(sum, (long)strlen(buf));
		errno = 0;
		sum += strtol(buf, NULL, 10) + errno;
		free(p);
	}
	printf("sum %ld\n", sum);
	tp_expect(stdout, "work_add", 100);
	return 0;
}
