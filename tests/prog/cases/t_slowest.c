#define _GNU_SOURCE
/*
 * t_slowest.c - the programs of slowest.sh (TSC_SLOWEST, TSC_ARGS): 100,000 calls of
 * slow_call, every 10,000th of them (index 5000, 15000, ...) slow: it spins 5M ticks
 * ("spin"), or half of them sleep 10 ms instead ("sleep"); with "copy", slow_copy is called
 * 1,000 times with 64 bytes and 100 times with 65,536. With a SIDE-FILE after "spin" or
 * "sleep", the calls during which the thread was switched out (its context switches,
 * getrusage) go there, one a line: the index, and the thread's CPU time over the call in ns
 * (CLOCK_THREAD_CPUTIME_ID). A busy machine may make any call slow.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "tp.h"

long slow_call(long idx, long a2, long a3, long a4, long a5, long a6, long mode);
size_t slow_copy(void *dst, const void *src, size_t n);

static long switches(void)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	return ru.ru_nvcsw + ru.ru_nivcsw;
}

/* The thread's CPU time, ns. */
static long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Not inlined into main, so that every build (-O2, ASan) names the same caller. */
static __attribute__((noinline)) int calls(int sleep_half, FILE *side)
{
	long i, sum = 0;

	for (i = 0; i < 100000; i++) {
		long mode = 0, before = side ? switches() : 0;
		long long cpu = side ? cpu_ns() : 0;

		if (i % 10000 == 5000)
			mode = sleep_half && (i / 10000) % 2 ? 2 : 1;
		sum += slow_call(i, i + 1, -2, 3, 4, -5, mode);
		if (side && switches() != before)
			fprintf(side, "%ld %lld\n", i, cpu_ns() - cpu);
	}
	if (side)
		fclose(side);
	printf("sum %ld\n", sum);
	tp_expect(stdout, "slow_call", 100000);
	return 0;
}

static int copies(void)
{
	static char src[65536], dst[65536];
	size_t sum = 0;
	int i;

	memset(src, 1, sizeof(src));
	for (i = 0; i < 1000; i++)
		sum += slow_copy(dst, src, 64);
	for (i = 0; i < 100; i++)
		sum += slow_copy(dst, src, 65536);
	printf("sum %zu\n", sum);
	tp_expect(stdout, "slow_copy", 1100);
	return 0;
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "spin";

	if (!strcmp(what, "copy"))
		return copies();
	return calls(!strcmp(what, "sleep"), argc > 2 ? tp_side_open(argc, argv, 2) : NULL);
}
