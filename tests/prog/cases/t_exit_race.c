/*
 * t_exit_race.c - two threads call exit() at the same moment, each after 500 traced calls;
 * the main thread waits for ever. glibc 2.36 lets both run the exit handlers: the one that
 * finds the list empty goes on to _exit while the other may still be in the destructors (the
 * shim's report among them). Untraced the program prints its counts and exits 0.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tp.h"

#define CALLS 500

long work_add(long a, long b);

static pthread_barrier_t ready;

static void *leaver(void *arg)
{
	long i, sum = 0;

	(void)arg;
	for (i = 0; i < CALLS; i++)
		sum = work_add(sum, i);
	pthread_barrier_wait(&ready);
	exit(sum == (long)CALLS * (CALLS - 1) / 2 ? 0 : 3);
}

int main(void)
{
	pthread_t t[2];
	int i;

	tp_expect(stdout, "work_add", 2 * CALLS);
	fflush(stdout);
	pthread_barrier_init(&ready, NULL, 2);
	for (i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, leaver, NULL) != 0)
			return 2;
	for (;;)
		pause();
}
