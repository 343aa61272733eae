/*
 * percall.c - what it costs to time one call of a tiny library function.
 *
 *	percall plain [N]	N calls of bench_fn, nothing else (run it preloaded with
 *				TSC_FUNCS=bench_fn to measure tsctrace, or bare for the floor)
 *	percall reference [N]	the same N calls, each bracketed by hand with the instructions
 *				tsctrace's default serialization mode uses, and its sample put
 *				into a tt_hist: the cost of timing a call when nothing has to be
 *				generic (no trampoline, no shadow stack, no table look-up)
 *
 * N defaults to 2,000,000. The whole loop is timed with the TSC (lfence; rdtsc; lfence on both
 * sides) and with CLOCK_MONOTONIC; one line of key=value pairs goes to stdout for bench/run.sh.
 *
 * The reference bracket follows CONTRACT.md section 5: with rdtscp announced by CPUID
 * 0x80000001 EDX[27], start `lfence; rdtsc`, end `rdtscp; lfence`; without it (AMD EPYC VMs
 * here), `lfence; rdtsc; lfence` at both ends, and rdtscp is never executed.
 *
 * The thread pins itself to the CPU it starts on, in every mode: tsctrace pins a thread at its
 * first traced call (TSC_PIN=first), so this keeps the three runs on equal terms.
 */
#define _GNU_SOURCE
#include <cpuid.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hist.h"

#include "benchfn.h"

#define DEFAULT_CALLS 2000000L

static int has_rdtscp(void)
{
	unsigned int a, b, c, d;

	if (!__get_cpuid(0x80000001, &a, &b, &c, &d))
		return 0;
	return (d >> 27) & 1;
}

/* Loop bracket: fenced on both sides so the loop's own work stays between the two reads. */
static inline uint64_t tsc_fenced(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t tsc_start_lfence(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

static inline uint64_t tsc_end_rdtscp(void)
{
	uint32_t lo, hi, aux;

	__asm__ volatile("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Ticks of one sample; 0 if the counter seemed to go backwards (cannot happen when pinned). */
static inline uint64_t delta(uint64_t t0, uint64_t t1)
{
	return t1 > t0 ? t1 - t0 : 0;
}

static int loop_plain(long n, int x)
{
	long i;

	for (i = 0; i < n; i++)
		x = bench_fn(x);
	return x;
}

/* Reference with rdtscp: only ever called when CPUID announces it. */
static int loop_ref_rdtscp(long n, int x, struct tt_hist *h)
{
	uint64_t t0, t1;
	long i;

	for (i = 0; i < n; i++) {
		t0 = tsc_start_lfence();
		x = bench_fn(x);
		t1 = tsc_end_rdtscp();
		tt_hist_record(h, delta(t0, t1));
	}
	return x;
}

static int loop_ref_lfence(long n, int x, struct tt_hist *h)
{
	uint64_t t0, t1;
	long i;

	for (i = 0; i < n; i++) {
		t0 = tsc_fenced();
		x = bench_fn(x);
		t1 = tsc_fenced();
		tt_hist_record(h, delta(t0, t1));
	}
	return x;
}

/* Lowest value of bucket i (the value itself in the exact range). Mirrors tt_hist_index. */
static uint64_t bucket_low(uint32_t i)
{
	uint32_t k, e;

	if (i < TT_HIST_LINEAR)
		return i;
	k = i - TT_HIST_LINEAR;
	e = k / TT_HIST_SUB + TT_HIST_LINEAR_BITS;
	return ((uint64_t)1 << e) + ((uint64_t)(k % TT_HIST_SUB) << (e - TT_HIST_SUB_BITS));
}

/* The sample of nearest rank ceil(count / 2): exact below 1024 ticks, a bucket's low edge above. */
static uint64_t hist_median(const struct tt_hist *h)
{
	uint64_t rank = (h->count + 1) / 2, seen = 0;
	uint32_t i;

	for (i = 0; i < TT_HIST_BUCKETS; i++) {
		seen += h->counts[i];
		if (seen >= rank && h->counts[i])
			return bucket_low(i);
	}
	return 0;
}

static void pin_here(void)
{
	cpu_set_t set;
	int cpu = sched_getcpu();

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		perror("percall: sched_setaffinity");
}

static int usage(void)
{
	fprintf(stderr, "usage: percall plain|reference [calls]\n");
	return 2;
}

int main(int argc, char **argv)
{
	long n = DEFAULT_CALLS;
	int reference, rdtscp = has_rdtscp();
	struct tt_hist *h = NULL;
	uint64_t t0, t1, ns0, ns1;
	volatile int sink;

	if (argc < 2 || argc > 3)
		return usage();
	if (!strcmp(argv[1], "plain"))
		reference = 0;
	else if (!strcmp(argv[1], "reference"))
		reference = 1;
	else
		return usage();
	if (argc == 3) {
		char *end;

		n = strtol(argv[2], &end, 10);
		if (*end || n <= 0)
			return usage();
	}
	pin_here();
	if (reference) {
		h = calloc(1, sizeof(*h));
		if (!h) {
			perror("percall: calloc");
			return 1;
		}
		h->min = UINT64_MAX;
	}

	ns0 = now_ns();
	t0 = tsc_fenced();
	if (!reference)
		sink = loop_plain(n, 0);
	else if (rdtscp)
		sink = loop_ref_rdtscp(n, 0, h);
	else
		sink = loop_ref_lfence(n, 0, h);
	t1 = tsc_fenced();
	ns1 = now_ns();
	(void)sink;

	printf("mode=%s serialize=%s calls=%ld ticks=%llu ns=%llu per_call_ticks=%.2f "
	       "per_call_ns=%.2f",
	       argv[1], rdtscp ? "rdtscp" : "lfence", n, (unsigned long long)(t1 - t0),
	       (unsigned long long)(ns1 - ns0), (double)(t1 - t0) / (double)n,
	       (double)(ns1 - ns0) / (double)n);
	if (reference) {
		if (h->count != (uint64_t)n) {
			printf("\npercall: reference recorded %llu samples, expected %ld\n",
			       (unsigned long long)h->count, n);
			return 1;
		}
		printf(" sample_min=%llu sample_median=%llu", (unsigned long long)h->min,
		       (unsigned long long)hist_median(h));
	}
	printf("\n");
	free(h);
	return 0;
}
