/*
 * t_errno.c - errno after traced calls must be what the callee left (or what the caller had
 * when the callee does not touch it), including on each thread's very first traced call,
 * where a shim typically does its one-time set-up (allocation, pinning).
 */
#include "tp.h"

#include <errno.h>
#include <pthread.h>

#define N 1000

int err_set(int v);
int err_keep(int v);

static void *first_calls(void *arg)
{
	int *out = arg;

	errno = 4321;
	out[0] = err_keep(1);
	out[1] = errno;
	errno = 8765;
	out[2] = err_set(2);
	out[3] = errno;
	return NULL;
}

int main(void)
{
	int i, r, e, t[4];
	pthread_t th;

	/* The very first traced call of the process. */
	errno = 1234;
	r = err_keep(0);
	e = errno;
	printf("first err_keep: r=%d errno=%d\n", r, e);

	for (i = 0; i < N; i++) {
		errno = 50000 + i;
		r = err_set(i);
		e = errno;
		printf("err_set(%d) = %d errno %d\n", i, r, e);
		errno = 70000 + i;
		r = err_keep(i);
		e = errno;
		printf("err_keep(%d) = %d errno %d\n", i, r, e);
	}

	if (pthread_create(&th, NULL, first_calls, t) != 0 || pthread_join(th, NULL) != 0) {
		perror("pthread");
		return 1;
	}
	printf("thread: err_keep %d errno %d, err_set %d errno %d\n", t[0], t[1], t[2], t[3]);

	tp_expect(stdout, "err_set", N + 1);
	tp_expect(stdout, "err_keep", N + 2);
	return 0;
}
