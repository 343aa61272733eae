/*
 * t_threads.c - 8 threads started together, 100,000 calls of work_add each through the PLT:
 * the report must count exactly 800,000, and every result must be right.
 */
#include "tp.h"

#include <pthread.h>

#define NTHREADS 8
#define NCALLS 100000

long work_add(long a, long b);

static pthread_barrier_t start;

struct slot {
	long id;
	unsigned long calls, wrong;
	long sum;
};

static void *worker(void *arg)
{
	struct slot *s = arg;
	long i;

	pthread_barrier_wait(&start);
	for (i = 0; i < NCALLS; i++) {
		long r = work_add(i, s->id);

		s->calls++;
		if (r != i + s->id)
			s->wrong++;
		s->sum += r;
	}
	return NULL;
}

int main(void)
{
	pthread_t th[NTHREADS];
	struct slot s[NTHREADS] = { { 0 } };
	unsigned long calls = 0, wrong = 0;
	long sum = 0;
	int i;

	pthread_barrier_init(&start, NULL, NTHREADS);
	for (i = 0; i < NTHREADS; i++) {
		s[i].id = i * 1000;
		if (pthread_create(&th[i], NULL, worker, &s[i]) != 0) {
			perror("pthread_create");
			return 1;
		}
	}
	for (i = 0; i < NTHREADS; i++) {
		pthread_join(th[i], NULL);
		calls += s[i].calls;
		wrong += s[i].wrong;
		sum += s[i].sum;
	}
	printf("%d threads, %lu calls, %lu wrong results, sum %ld\n", NTHREADS, calls, wrong, sum);
	tp_expect(stdout, "work_add", calls);
	return 0;
}
