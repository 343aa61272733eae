/*
 * t_callers_walk.c - work_add (libwork.so) called along call paths of every kind of frame the
 * cached frame walk of TSC_CALLERS=N meets (callers_walk.sh): code without frame pointers
 * (CFA at %rsp + k), with them (CFA at %rbp + 16), with alloca (%rbp needed to find the
 * CFA), recursion, a callback from libc's qsort (frames of another object), a signal
 * handler (a signal frame: libunwind's), and a second thread.
 */
#include <alloca.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tp.h"

long work_add(long a, long b);

#define ROUNDS 200
#define SIGNALS 20

static volatile long sink;
static unsigned long calls;

/* Each caller uses work_add's result after the call: no tail call. */
__attribute__((noinline)) static long plain(long x)
{
	long r = work_add(x, 1);

	calls++;
	return r * 3;
}

__attribute__((noinline, optimize("no-omit-frame-pointer"))) static long with_fp(long x)
{
	return plain(x + 1) + 7;
}

__attribute__((noinline)) static long with_alloca(long n)
{
	volatile char *buf = alloca((size_t)(n % 64) + 16);
	long r;

	buf[0] = (char)n;
	r = work_add(n, buf[0]);
	calls++;
	return r + buf[0];
}

__attribute__((noinline)) static long recurse(int k, long x)
{
	long r;

	if (k == 0) {
		r = work_add(x, k);
		calls++;
		return r + 1;
	}
	r = recurse(k - 1, x + k);
	return r * 2 + 1;
}

static int compare(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	long r = work_add(x, -y);

	calls++;
	return r < 0 ? -1 : r > 0;
}

static void on_usr1(int sig)
{
	sink += work_add(sig, 1);
	calls++;
}

static void *thread_main(void *arg)
{
	long i, s = 0;

	for (i = 0; i < ROUNDS; i++)
		s += with_fp(i);
	sink += s + (long)arg;
	return NULL;
}

int main(void)
{
	long i, s = 0, v[16];
	pthread_t th;
	int k;

	signal(SIGUSR1, on_usr1);
	for (i = 0; i < ROUNDS; i++) {
		s += plain(i);
		s += with_fp(i);
		s += with_alloca(i);
		for (k = 0; k < 4; k++)
			s += recurse(k, i);
	}
	for (i = 0; i < 8; i++) {
		for (k = 0; k < 16; k++)
			v[k] = (k * 7 + i) % 16;
		qsort(v, 16, sizeof(v[0]), compare);
	}
	for (i = 0; i < SIGNALS; i++)
		raise(SIGUSR1);
	if (pthread_create(&th, NULL, thread_main, NULL) || pthread_join(th, NULL))
		return 1;
	sink += s;
	printf("done\n");
	tp_expect(stdout, "work_add", calls);
	return 0;
}
