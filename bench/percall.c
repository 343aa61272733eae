/*
 * percall.c - what it costs to time one call of a tiny library function.
 *
 *	percall plain [N [MODE [THREADS]]]	N calls of bench_fn, nothing else (run it preloaded
 *						with TSC_FUNCS=bench_fn to measure tsctrace, under
 *						a peer tool, or bare for the floor)
 *	percall reference [N [MODE [THREADS]]]	the same N calls, each bracketed by hand with the
 *						instructions of TSC_SERIALIZE=MODE (bench/tsc.h)
 *						and its sample put into a tt_hist: the cost of
 *						timing a call when nothing has to be generic (no
 *						trampoline, no shadow stack, no table look-up)
 *
 * N defaults to 2,000,000; MODE (rdtscp, lfence, mfence, cpuid, none, or `default`) to
 * tsctrace's default: rdtscp where CPUID 80000001H:EDX[27] announces it, else lfence. A
 * reference in rdtscp mode on a CPU that does not announce rdtscp prints `skipped=...` and
 * exits 3 without executing the instruction. MODE is ignored by `plain`.
 *
 * Without THREADS the loop runs in the main thread, pinned to the CPU it starts on. With
 * THREADS (>= 1) that many threads run the loop at once, thread i pinned to the i-th CPU of
 * the process's affinity mask (wrapping), released together by a barrier: the per-call cost
 * printed is the mean over the threads, each timing its own loop (thread_ticks= lists them).
 *
 * The whole loop is timed with the TSC (lfence; rdtsc; lfence on both sides) and with
 * CLOCK_MONOTONIC; one line of key=value pairs goes to stdout for bench/run.sh. Inside, the
 * loop runs as chunks of CHUNK calls, each timed alike (two reads per CHUNK calls: hundredths
 * of a tick per call): chunk_p10_ticks, the 10th percentile of the first thread's chunks'
 * ticks per call, is what a call costs when nothing else ran on the CPU meanwhile, a steadier
 * figure than the whole loop's on a shared machine (a chunk that was preempted or interrupted
 * falls in the upper 90%).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "now_ns.h"
#include "hist/hist.h"

#include "benchfn.h"
#include "hist_median.h"
#include "tsc.h"

#define DEFAULT_CALLS 2000000L
#define MAX_THREADS 64
#define CHUNK 2000L

/* Ticks of one sample; 0 if the counter seemed to go backwards (cannot happen when pinned). */
static inline uint64_t delta(uint64_t t0, uint64_t t1)
{
	return t1 > t0 ? t1 - t0 : 0;
}

/* x = bench_fn(x) n times from 0, computed without calling it: 3x + 1 modulo 2^32. */
static int bench_fn_expected(long n)
{
	unsigned int x = 0;
	long i;

	for (i = 0; i < n; i++)
		x = x * 3u + 1u;
	return (int)x;
}

static int loop_plain(long n, int x)
{
	long i;

	for (i = 0; i < n; i++)
		x = bench_fn(x);
	return x;
}

/* One loop per mode: the read sequences are inline, as a purpose-written timer would have them. */
#define REF_LOOP(name, start, end)                        \
	static int name(long n, int x, struct tt_hist *h) \
	{                                                 \
		uint64_t t0, t1;                          \
		long i;                                   \
                                                          \
		for (i = 0; i < n; i++) {                 \
			t0 = start();                     \
			x = bench_fn(x);                  \
			t1 = end();                       \
			tt_hist_record(h, delta(t0, t1)); \
		}                                         \
		return x;                                 \
	}

REF_LOOP(loop_ref_rdtscp, tsc_lfence_rdtsc, tsc_rdtscp_lfence) /* only when CPUID has it */
REF_LOOP(loop_ref_lfence, tsc_lfenced, tsc_lfenced)
REF_LOOP(loop_ref_mfence, tsc_mfenced, tsc_mfenced)
REF_LOOP(loop_ref_cpuid, tsc_cpuid_rdtsc, tsc_rdtscp_cpuid) /* only when CPUID has rdtscp */
REF_LOOP(loop_ref_cpuid_nordtscp, tsc_cpuid_rdtsc, tsc_cpuid_rdtsc)
REF_LOOP(loop_ref_none, tsc_bare, tsc_bare)

static int pin_to(int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return -1;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0) {
		perror("percall: sched_setaffinity");
		return -1;
	}
	return 0;
}

struct job {
	int reference;
	enum bench_mode mode;
	int rdtscp;
	long n;
	int cpu; /* pin here first; -1: where it runs */
	pthread_barrier_t *start;
	struct tt_hist *h;
	uint64_t ticks, ns;
	int x;
	double *chunk; /* ticks per call of each chunk of CHUNK calls */
	long nchunks;
};

/* n calls of the job's loop from x. */
static int run_loop(const struct job *j, long n, int x)
{
	if (!j->reference)
		return loop_plain(n, x);
	switch (j->mode) {
	case BM_RDTSCP: return loop_ref_rdtscp(n, x, j->h);
	case BM_LFENCE: return loop_ref_lfence(n, x, j->h);
	case BM_MFENCE: return loop_ref_mfence(n, x, j->h);
	case BM_CPUID:
		return j->rdtscp ? loop_ref_cpuid(n, x, j->h) : loop_ref_cpuid_nordtscp(n, x, j->h);
	default: return loop_ref_none(n, x, j->h);
	}
}

static void run_job(struct job *j)
{
	uint64_t t0, t1, c0, c1, ns0, ns1;
	int x = 0;
	long c;

	pin_to(j->cpu >= 0 ? j->cpu : sched_getcpu());
	if (j->reference) {
		j->h = calloc(1, sizeof(*j->h));
		if (!j->h) {
			perror("percall: calloc");
			exit(1);
		}
		j->h->min = UINT64_MAX;
	}
	if (j->start)
		pthread_barrier_wait(j->start);

	j->nchunks = j->n / CHUNK;
	j->chunk = j->nchunks ? calloc((size_t)j->nchunks, sizeof(*j->chunk)) : NULL;
	if (!j->chunk)
		j->nchunks = 0;
	ns0 = now_ns();
	t0 = tsc_lfenced();
	for (c = 0; c < j->nchunks; c++) {
		c0 = tsc_lfenced();
		x = run_loop(j, CHUNK, x);
		c1 = tsc_lfenced();
		j->chunk[c] = (double)(c1 - c0) / CHUNK;
	}
	x = run_loop(j, j->n - j->nchunks * CHUNK, x);
	t1 = tsc_lfenced();
	ns1 = now_ns();
	j->ticks = t1 - t0;
	j->ns = ns1 - ns0;
	j->x = x;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void *thread_main(void *arg)
{
	run_job(arg);
	return NULL;
}

static int usage(void)
{
	fprintf(stderr, "usage: percall plain|reference [calls [rdtscp|lfence|mfence|cpuid|none|"
			"default [threads]]]\n");
	return 2;
}

int main(int argc, char **argv)
{
	long n = DEFAULT_CALLS;
	int reference, rdtscp = bench_has_rdtscp(), threads = 0, i, c, mode;
	struct job jobs[MAX_THREADS];
	double sum_ticks = 0, sum_ns = 0;
	uint64_t samples = 0, smin = UINT64_MAX;

	if (argc < 2 || argc > 5)
		return usage();
	if (!strcmp(argv[1], "plain"))
		reference = 0;
	else if (!strcmp(argv[1], "reference"))
		reference = 1;
	else
		return usage();
	if (argc >= 3) {
		char *end;

		n = strtol(argv[2], &end, 10);
		if (*end || n <= 0)
			return usage();
	}
	mode = bench_default_mode();
	if (argc >= 4 && strcmp(argv[3], "default")) {
		mode = bench_mode_parse(argv[3]);
		if (mode < 0)
			return usage();
	}
	if (argc >= 5) {
		threads = atoi(argv[4]);
		if (threads < 1 || threads > MAX_THREADS)
			return usage();
	}
	if (reference && mode == BM_RDTSCP && !rdtscp) {
		printf("mode=reference serialize=rdtscp skipped=rdtscp_not_announced_by_cpuid\n");
		return 3;
	}

	memset(jobs, 0, sizeof(jobs));
	if (!threads) {
		jobs[0] = (struct job){
			.reference = reference, .mode = mode, .rdtscp = rdtscp, .n = n, .cpu = -1
		};
		run_job(&jobs[0]);
	} else {
		pthread_t tid[MAX_THREADS];
		pthread_barrier_t start;
		cpu_set_t allowed;
		int cpus[CPU_SETSIZE], ncpu = 0, c;

		if (sched_getaffinity(0, sizeof(allowed), &allowed) < 0) {
			perror("percall: sched_getaffinity");
			return 1;
		}
		for (c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &allowed))
				cpus[ncpu++] = c;
		pthread_barrier_init(&start, NULL, (unsigned int)threads);
		for (i = 0; i < threads; i++) {
			jobs[i] = (struct job){ .reference = reference,
						.mode = mode,
						.rdtscp = rdtscp,
						.n = n,
						.cpu = ncpu ? cpus[i % ncpu] : -1,
						.start = &start };
			if (pthread_create(&tid[i], NULL, thread_main, &jobs[i])) {
				fprintf(stderr, "percall: pthread_create failed\n");
				return 1;
			}
		}
		for (i = 0; i < threads; i++)
			pthread_join(tid[i], NULL);
		pthread_barrier_destroy(&start);
	}

	for (i = 0; i < (threads ? threads : 1); i++) {
		if (jobs[i].x != bench_fn_expected(n)) {
			fprintf(stderr, "percall: thread %d computed %d, expected %d\n", i,
				jobs[i].x, bench_fn_expected(n));
			return 1;
		}
		sum_ticks += (double)jobs[i].ticks / (double)n;
		sum_ns += (double)jobs[i].ns / (double)n;
	}
	i = threads ? threads : 1;
	printf("mode=%s serialize=%s calls=%ld threads=%d ticks=%llu ns=%llu per_call_ticks=%.2f "
	       "per_call_ns=%.2f",
	       argv[1], bench_mode_name(mode), n, i, (unsigned long long)jobs[0].ticks,
	       (unsigned long long)jobs[0].ns, sum_ticks / i, sum_ns / i);
	if (jobs[0].nchunks) {
		qsort(jobs[0].chunk, (size_t)jobs[0].nchunks, sizeof(double), cmp_double);
		printf(" chunk_p10_ticks=%.2f", jobs[0].chunk[jobs[0].nchunks / 10]);
	}
	for (c = 0; c < MAX_THREADS; c++)
		free(jobs[c].chunk);
	if (threads) {
		int k;

		printf(" thread_ticks=");
		for (k = 0; k < threads; k++)
			printf("%s%.2f", k ? "," : "", (double)jobs[k].ticks / (double)n);
	}
	if (reference) {
		struct tt_hist *all = jobs[0].h;
		int k;

		for (k = 0; k < i; k++) {
			samples += jobs[k].h->count;
			if (jobs[k].h->min < smin)
				smin = jobs[k].h->min;
		}
		if (samples != (uint64_t)n * (uint64_t)i) {
			printf("\npercall: reference recorded %llu samples, expected %llu\n",
			       (unsigned long long)samples, (unsigned long long)n * (uint64_t)i);
			return 1;
		}
		/* The median of the first thread's samples: all threads run the same loop. */
		printf(" sample_min=%llu sample_median=%llu", (unsigned long long)smin,
		       (unsigned long long)bench_hist_median(all));
		for (k = 0; k < i; k++)
			free(jobs[k].h);
	}
	printf("\n");
	return 0;
}
