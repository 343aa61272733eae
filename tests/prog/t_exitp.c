/*
 * t_exitp.c MODE - the ways out of a process under the shim:
 *   Exit           1000 px_add calls, then _Exit(7): the report is written
 *   exit_in_call   an atexit function makes 100 px_leaf calls; 1000 px_add calls, then
 *                  exit(4) from inside a traced call (px_call): the atexit calls are counted,
 *                  the px_call that never returned is counted and unwound
 *   _exit_in_call  the same with _exit(6) (no atexit function runs)
 *   abort          1000 px_add calls, then abort(): dies of SIGABRT as without the shim
 *   abort_in_call  abort() from inside px_call
 *   thread_exit    the main thread sits in a traced call that never returns (px_forever), two
 *                  threads call px_add in endless loops, a fourth makes 1000 px_leaf calls and
 *                  calls exit(9) once main is in px_forever and each looper made 1000 calls
 *   thread__exit   the same with _exit(8)
 * Expectations go to stdout (flushed before leaving).
 */
#include "tp.h"

#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#define N 1000

extern unsigned long px_add_count, px_leaf_count, px_call_count, px_forever_count;
long px_add(long a, long b);
long px_leaf(long x);
long px_call(long (*cb)(long), long x);
long px_forever(volatile int *stop);

static const char *mode;
static volatile int never;
static unsigned long looped[2];

static long calls(int n)
{
	long sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += px_add(i, 1);
	return sum;
}

static void at_exit_calls(void)
{
	long i, sum = 0;

	for (i = 0; i < 100; i++)
		sum += px_leaf(i);
	printf("atexit: sum %ld\n", sum);
}

static long leave(long how)
{
	fflush(stdout);
	switch (how) {
	case 'e': exit(4);
	case '_': _exit(6);
	default: abort();
	}
}

static void *looper(void *arg)
{
	unsigned long *n = arg;
	long i;

	for (i = 0;; i++) {
		px_add(i, 1);
		__atomic_add_fetch(n, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void *exiter(void *arg)
{
	long i, sum = 0;

	(void)arg;
	/* Once the main thread is inside px_forever and each looper has made N calls. */
	while (__atomic_load_n(&px_forever_count, __ATOMIC_RELAXED) < 1 ||
	       __atomic_load_n(&looped[0], __ATOMIC_RELAXED) < N ||
	       __atomic_load_n(&looped[1], __ATOMIC_RELAXED) < N)
		sched_yield();
	for (i = 0; i < N; i++)
		sum += px_leaf(i);
	printf("exiter: sum %ld\n", sum);
	tp_expect(stdout, "px_leaf", px_leaf_count);
	tp_expect_min(stdout, "px_add", 2 * N);
	tp_expect(stdout, "px_forever", 1);
	tp_expect_unwound(stdout, "px_forever", 1);
	fflush(stdout);
	if (strcmp(mode, "thread_exit") == 0)
		exit(9);
	_exit(8);
}

int main(int argc, char **argv)
{
	pthread_t t[3];
	int i;

	mode = argc > 1 ? argv[1] : "";
	if (strcmp(mode, "thread_exit") == 0 || strcmp(mode, "thread__exit") == 0) {
		for (i = 0; i < 2; i++)
			if (pthread_create(&t[i], NULL, looper, &looped[i]) != 0)
				return 1;
		if (pthread_create(&t[2], NULL, exiter, NULL) != 0)
			return 1;
		px_forever(&never);
		return 1;
	}
	printf("sum %ld\n", calls(N));
	if (strcmp(mode, "Exit") == 0) {
		tp_expect(stdout, "px_add", px_add_count);
		fflush(stdout);
		_Exit(7);
	}
	if (strcmp(mode, "exit_in_call") == 0 || strcmp(mode, "_exit_in_call") == 0 ||
	    strcmp(mode, "abort_in_call") == 0) {
		if (mode[0] == 'e') {
			atexit(at_exit_calls);
			tp_expect(stdout, "px_leaf", 100);
		}
		tp_expect(stdout, "px_add", px_add_count);
		tp_expect(stdout, "px_call", 1);
		tp_expect_unwound(stdout, "px_call", 1);
		px_call(leave, mode[0] == 'e' ? 'e' : mode[0] == '_' ? '_' : 'a');
		return 1;
	}
	if (strcmp(mode, "abort") == 0) {
		tp_expect(stdout, "px_add", px_add_count);
		fflush(stdout);
		abort();
	}
	fprintf(stderr, "usage: t_exitp Exit|exit_in_call|_exit_in_call|abort|abort_in_call|"
			"thread_exit|thread__exit\n");
	return 2;
}
