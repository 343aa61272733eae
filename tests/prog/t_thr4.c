/*
 * t_thr4.c - per-thread counts (libnest.so): four threads named with pthread_setname_np
 * ("worker-0" .. "worker-3") call nest_leaf 1,000 x (k + 1) times each and exit before the
 * report; the main thread calls it 7 times. stdout: the expected counts.
 */
#define _GNU_SOURCE
#include "tp.h"

#include <pthread.h>
#include <string.h>

void nest_leaf(void);

static pthread_barrier_t named;

static void *worker(void *arg)
{
	long k = (long)arg, i;

	pthread_barrier_wait(&named); /* the name is set before the first traced call */
	for (i = 0; i < 1000 * (k + 1); i++)
		nest_leaf();
	return NULL;
}

int main(void)
{
	pthread_t t[4];
	char name[16];
	long k;
	int i;

	pthread_barrier_init(&named, NULL, 5);
	for (k = 0; k < 4; k++) {
		if (pthread_create(&t[k], NULL, worker, (void *)k)) {
			fprintf(stderr, "pthread_create failed\n");
			return 2;
		}
		snprintf(name, sizeof(name), "worker-%ld", k);
		pthread_setname_np(t[k], name);
	}
	pthread_barrier_wait(&named);
	for (k = 0; k < 4; k++)
		pthread_join(t[k], NULL);
	for (i = 0; i < 7; i++)
		nest_leaf();
	tp_expect(stdout, "nest_leaf", 10000 + 7);
	return 0;
}
