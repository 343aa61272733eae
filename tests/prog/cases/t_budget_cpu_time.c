/*
 * t_budget_cpu_time.c - a thread that waits most of its time: 200 rounds of 20,000 calls of a
 * short traced function (work_add), each round followed by a 3 ms sleep. Its CPU time is a
 * small part of its wall time. The side file gets the thread's CPU time in ns.
 */
#include <stdio.h>
#include <time.h>

#include "tp.h"

long work_add(long a, long b);

int main(int argc, char **argv)
{
	const struct timespec nap = { 0, 3000000 };
	struct timespec cpu;
	long r, i, sum = 0;
	FILE *side;

	if (argc < 2)
		return 2;
	for (r = 0; r < 200; r++) {
		for (i = 0; i < 20000; i++)
			sum = work_add(sum, i);
		nanosleep(&nap, NULL);
	}
	printf("sum %ld\n", sum);
	tp_expect(stdout, "work_add", 200ul * 20000);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
	side = fopen(argv[1], "w");
	if (!side)
		return 2;
	fprintf(side, "%llu\n",
		(unsigned long long)cpu.tv_sec * 1000000000ull + (unsigned long long)cpu.tv_nsec);
	fclose(side);
	return 0;
}
