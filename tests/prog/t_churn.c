/*
 * t_churn.c SIDE-FILE - thread churn under CPU contention: two threads spin on the CPUs for
 * the whole run while 1,250 short threads, 50 alive at a time, each make one traced call
 * (work_add) and exit. Every start and exit takes the shim's thread-list lock; a lock whose
 * waiters spin starves a preempted holder here. The program times the churn itself
 * (CLOCK_MONOTONIC) and appends "churn_ns N" to SIDE-FILE: run.sh's untraced run comes first,
 * the traced one second, and the two are compared.
 */
#include "tp.h"

#include <pthread.h>
#include <time.h>

#define THREADS 1250
#define BATCH 50

long work_add(long a, long b);

static int stop; /* atomic: main sets it once, the hogs poll it */
static long results[THREADS];

static void *hog(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED))
		;
	return NULL;
}

static void *shortlived(void *arg)
{
	long i = (long)arg;

	results[i] = work_add(i, 1);
	return NULL;
}

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	FILE *side = argc > 1 ? fopen(argv[1], "a") : NULL;
	pthread_t hogs[2], batch[BATCH];
	long long t0;
	long i, j, sum = 0;

	for (i = 0; i < 2; i++)
		if (pthread_create(&hogs[i], NULL, hog, NULL) != 0)
			return 2;
	t0 = now_ns();
	for (i = 0; i < THREADS; i += BATCH) {
		for (j = 0; j < BATCH; j++)
			if (pthread_create(&batch[j], NULL, shortlived, (void *)(i + j)) != 0)
				return 2;
		for (j = 0; j < BATCH; j++)
			pthread_join(batch[j], NULL);
	}
	if (!side)
		return 2;
	fprintf(side, "churn_ns %lld\n", now_ns() - t0);
	fclose(side);
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < 2; i++)
		pthread_join(hogs[i], NULL);
	for (i = 0; i < THREADS; i++)
		sum += results[i];
	printf("%d threads, sum %ld\n", THREADS, sum);
	tp_expect(stdout, "work_add", THREADS);
	return 0;
}
