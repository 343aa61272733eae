/*
 * t_fsize_zero.c - a program that writes no file sets RLIMIT_FSIZE to 0, calls a traced
 * function, and exits. Untraced it exits 0; a shim writing its report into a file must not
 * make it die of SIGXFSZ, nor leave it a pending SIGXFSZ.
 */
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>

#include "tp.h"

long work_add(long a, long b);

int main(void)
{
	struct rlimit zero = { 0, RLIM_INFINITY };
	long sum = 0;
	int i;

	if (setrlimit(RLIMIT_FSIZE, &zero) != 0) {
		perror("setrlimit");
		return 2;
	}
	for (i = 0; i < 100; i++)
		sum = work_add(sum, i);
	printf("sum %ld\n", sum);
	tp_expect(stdout, "work_add", 100);
	fflush(stdout);
	return 0;
}
