/*
 * threads_work.c THREADS CALLS - THREADS threads (started by main, no affinity of their own),
 * each calling bench_fn CALLS times with some arithmetic between calls; prints the sum.
 * parallel.sh traces it to see whether pinning keeps CPU-bound threads running in parallel.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "benchfn.h"

#define MAXT 64

static long calls;

static void *work(void *arg)
{
	unsigned long x = (unsigned long)(size_t)arg, i, j;

	for (i = 0; i < (unsigned long)calls; i++) {
		for (j = 0; j < 40; j++) /* ~100 cycles of work a call */
			x = x * 6364136223846793005ul + 1442695040888963407ul;
		x += (unsigned long)bench_fn((int)(x >> 40));
	}
	return (void *)(size_t)x;
}

int main(int argc, char **argv)
{
	pthread_t th[MAXT];
	unsigned long sum = 0;
	int i, n = argc > 2 ? atoi(argv[1]) : 0;
	void *ret;

	calls = argc > 2 ? atol(argv[2]) : 0;
	if (n < 1 || n > MAXT || calls < 1) {
		fprintf(stderr, "usage: threads_work THREADS(1-%d) CALLS\n", MAXT);
		return 2;
	}
	for (i = 0; i < n; i++)
		if (pthread_create(&th[i], NULL, work, (void *)(size_t)(i + 1)) != 0) {
			perror("pthread_create");
			return 1;
		}
	for (i = 0; i < n; i++) {
		pthread_join(th[i], &ret);
		sum += (unsigned long)(size_t)ret;
	}
	printf("sum %lu\n", sum);
	return 0;
}
