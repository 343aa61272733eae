/*
 * t_countpath.c SIDE-FILE - calls sampling passes over, counted on their own path (an inline
 * hook's slot, hook/slot_code.c, or the GOT body): two threads call work_add in tight loops
 * while an interval timer's handler, run by whichever thread it interrupts (at any
 * instruction: inside a slot's counting code, or the shim's), calls work_add and work_leaf
 * too. Every result is checked; the exact counts go to SIDE-FILE.
 */
#include "tp.h"

#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>

#define N 400000
#define TICKS 200

long work_add(long a, long b);
long work_leaf(long x);

static long handler_add, handler_leaf, wrong, ticks;

static void on_alrm(int sig)
{
	long t = __atomic_add_fetch(&ticks, 1, __ATOMIC_RELAXED);

	(void)sig;
	if (work_add(t, 5) != t + 5)
		__atomic_add_fetch(&wrong, 1, __ATOMIC_RELAXED);
	if (work_leaf(t) != t * 3 + 1)
		__atomic_add_fetch(&wrong, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&handler_add, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&handler_leaf, 1, __ATOMIC_RELAXED);
}

/* N calls, then on until the timer has fired TICKS times (each thread's count goes back). */
static void *worker(void *arg)
{
	long i, *calls = arg;

	for (i = 0; i < N || __atomic_load_n(&ticks, __ATOMIC_RELAXED) < TICKS; i++)
		if (work_add(i, 1) != i + 1)
			__atomic_add_fetch(&wrong, 1, __ATOMIC_RELAXED);
	*calls = i;
	return NULL;
}

int main(int argc, char **argv)
{
	FILE *side = tp_side_open(argc, argv, 1);
	long calls[2] = { 0, 0 };
	struct itimerval it;
	struct sigaction sa;
	pthread_t t[2];
	int i;

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_RESTART;
	sa.sa_handler = on_alrm;
	sigaction(SIGALRM, &sa, NULL);
	memset(&it, 0, sizeof(it));
	it.it_interval.tv_usec = 200;
	it.it_value.tv_usec = 200;
	setitimer(ITIMER_REAL, &it, NULL);
	for (i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, worker, &calls[i]) != 0) {
			perror("pthread_create");
			return 1;
		}
	for (i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	printf("%ld wrong\n", wrong);
	tp_expect(side, "work_add", calls[0] + calls[1] + handler_add);
	tp_expect(side, "work_leaf", handler_leaf);
	fclose(side);
	return 0;
}
