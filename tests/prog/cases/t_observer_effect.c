/*
 * t_observer_effect.c - a short traced function (work_add) called in a tight loop ("tight":
 * 2,000,000 calls with one addition between) or sparsely ("sparse": 2,000 calls, each after
 * 20,000 rounds of a loop of its own). The side file gets the thread's CPU time in ns, which
 * the test weighs the brackets' cost against.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "tp.h"

long work_add(long a, long b);

static unsigned long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	int tight = argc > 2 && strcmp(argv[1], "tight") == 0;
	long i, j, calls = tight ? 2000000 : 2000, sum = 0;
	volatile long spin = 0;
	FILE *side;

	if (argc < 3)
		return 2;
	for (i = 0; i < calls; i++) {
		if (!tight)
			for (j = 0; j < 20000; j++)
				spin = spin + j;
		sum = work_add(sum, i);
	}
	printf("sum %ld\n", sum);
	tp_expect(stdout, "work_add", (unsigned long)calls);
	side = fopen(argv[2], "w");
	if (!side)
		return 2;
	fprintf(side, "%llu\n", cpu_ns());
	fclose(side);
	return 0;
}
