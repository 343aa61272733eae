/*
 * t_callers_small_stack.c - traced calls with TSC_CALLERS=8 (callers_small_stack.sh) from a
 * thread whose stack is 16 KiB and from a signal handler on an 8 KiB sigaltstack. Each stack
 * is painted before the calls; stderr says how many bytes of it were written (the
 * high-water mark), which the test compares with the untraced run's.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tp.h"

#define THREAD_STACK 16384
#define ALT_STACK 8192
#define THREAD_CALLS 1000
#define HANDLER_CALLS 100
#define PAINT 0xa5

long work_add(long a, long b);

static unsigned char altstack[ALT_STACK] __attribute__((aligned(64)));
static volatile long handler_sum;

/* Paint the stack from lo up to 64 bytes below this call's frame (byte by byte: memset may
 * be traced); returns where the paint ends. A sibling call made next starts at that depth. */
static unsigned char *__attribute__((noinline)) paint_below(unsigned char *lo)
{
	volatile unsigned char mark = 0;
	uintptr_t p = (uintptr_t)lo, hi = (uintptr_t)&mark - 64; /* integers: other objects */

	for (; p < hi; p++)
		*(volatile unsigned char *)p = PAINT;
	return (unsigned char *)hi + mark;
}

/* Bytes below hi written since paint(lo, hi): from the lowest changed byte up to hi. */
static size_t used(const unsigned char *lo, const unsigned char *hi)
{
	uintptr_t p = (uintptr_t)lo;

	while (p < (uintptr_t)hi && *(volatile const unsigned char *)p == PAINT)
		p++;
	return (size_t)((uintptr_t)hi - p);
}

static long __attribute__((noinline)) calls(int n)
{
	long sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum = work_add(sum, i);
	return sum;
}

static void *thread_main(void *arg)
{
	pthread_attr_t attr;
	void *base;
	size_t size, n;
	unsigned char *lo, *hi;
	long sum;

	(void)arg;
	if (pthread_getattr_np(pthread_self(), &attr) != 0 ||
	    pthread_attr_getstack(&attr, &base, &size) != 0)
		return NULL;
	pthread_attr_destroy(&attr);
	sum = calls(1); /* the first call binds work_add lazily: ld.so's xsave area, untraced too */
	lo = (unsigned char *)base + 64;
	hi = paint_below(lo);
	sum = calls(THREAD_CALLS);
	n = used(lo, hi); /* before printf, which takes more than the calls */
	printf("thread sum %ld\n", sum);
	fprintf(stderr, "used thread %zu\n", n);
	return NULL;
}

static void handler(int sig)
{
	(void)sig;
	handler_sum = calls(HANDLER_CALLS);
}

int main(void)
{
	pthread_attr_t attr;
	pthread_t th;
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	struct sigaction sa;

	if (pthread_attr_init(&attr) || pthread_attr_setstacksize(&attr, THREAD_STACK) ||
	    pthread_create(&th, &attr, thread_main, NULL) || pthread_join(th, NULL)) {
		fprintf(stderr, "cannot run a thread on a %d-byte stack\n", THREAD_STACK);
		return 2;
	}
	if (sigaltstack(&ss, NULL) != 0) {
		perror("sigaltstack");
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = SA_ONSTACK;
	sigaction(SIGUSR1, &sa, NULL);
	memset(altstack, PAINT, sizeof(altstack)); /* memset is not traced here */
	raise(SIGUSR1);
	printf("handler sum %ld\n", handler_sum);
	fprintf(stderr, "used altstack %zu\n", used(altstack, altstack + sizeof(altstack)));
	tp_expect(stdout, "work_add", 1 + THREAD_CALLS + HANDLER_CALLS);
	return 0;
}
