/*
 * wrap_typed.c - libwrap_typed.so, the "typed LD_PRELOAD wrapper" peer of bench/run.sh.
 *
 * The classic way to time a library function without a tracer: write a function with the
 * same name and prototype, preload it, find the real one with dlsym(RTLD_NEXT), and bracket
 * the call. It must know bench_fn's signature in advance (int (int)), which is its whole
 * limitation; in exchange nothing is generic: no trampoline, no shadow stack, no stub index.
 *
 * The bracket is tsctrace's default mode (bench/tsc.h): `lfence; rdtsc` ... `rdtscp; lfence`
 * where CPUID announces rdtscp, else `lfence; rdtsc; lfence` at both ends. Each sample goes
 * into a per-thread struct tt_hist (src/hist/hist.h, the shim's own histogram, header only), reached
 * through an initial-exec TLS pointer and allocated at the thread's first call.
 *
 * At exit, when BENCH_WRAP_OUT names a file, it gets `calls=N min=M median=D`: the number of
 * samples over all threads (run.sh checks it against the calls made) and this tool's own
 * reading of bench_fn in ticks (min over threads, median of the main thread's histogram).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "hist/hist.h"

#include "hist_median.h"
#include "tsc.h"

#define EXPORT __attribute__((visibility("default")))

struct wrap_thread {
	struct tt_hist hist;
	struct wrap_thread *next;
};

static int (*real_bench_fn)(int);
static int use_rdtscp;
static pthread_mutex_t all_lock = PTHREAD_MUTEX_INITIALIZER;
static struct wrap_thread *all;
static __thread struct wrap_thread *self __attribute__((tls_model("initial-exec")));

__attribute__((constructor)) static void wrap_init(void)
{
	real_bench_fn = (int (*)(int))dlsym(RTLD_NEXT, "bench_fn");
	use_rdtscp = bench_has_rdtscp();
}

__attribute__((noinline)) static struct wrap_thread *wrap_thread_new(void)
{
	struct wrap_thread *t = calloc(1, sizeof(*t));

	if (!t)
		abort();
	t->hist.min = UINT64_MAX;
	pthread_mutex_lock(&all_lock);
	t->next = all;
	all = t;
	pthread_mutex_unlock(&all_lock);
	self = t;
	return t;
}

EXPORT int bench_fn(int x)
{
	struct wrap_thread *t = self;
	uint64_t t0, t1;
	int r;

	if (__builtin_expect(!t, 0))
		t = wrap_thread_new();
	if (use_rdtscp) {
		t0 = tsc_lfence_rdtsc();
		r = real_bench_fn(x);
		t1 = tsc_rdtscp_lfence();
	} else {
		t0 = tsc_lfenced();
		r = real_bench_fn(x);
		t1 = tsc_lfenced();
	}
	tt_hist_record(&t->hist, t1 > t0 ? t1 - t0 : 0);
	return r;
}

__attribute__((destructor)) static void wrap_fini(void)
{
	const char *path = getenv("BENCH_WRAP_OUT");
	uint64_t calls = 0, min = UINT64_MAX, median = 0;
	struct wrap_thread *t;
	FILE *f;

	if (!path)
		return;
	pthread_mutex_lock(&all_lock);
	for (t = all; t; t = t->next) {
		calls += t->hist.count;
		if (t->hist.min < min)
			min = t->hist.min;
		median = bench_hist_median(&t->hist); /* the list's last: the first thread */
	}
	pthread_mutex_unlock(&all_lock);
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "calls=%llu min=%llu median=%llu\n", (unsigned long long)calls,
		(unsigned long long)(calls ? min : 0), (unsigned long long)median);
	fclose(f);
}
