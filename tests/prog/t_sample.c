/*
 * t_sample.c MODE [ARG] [SIDE-FILE] - the sampling tests (TSC_SAMPLE, TSC_BUDGET).
 *
 *   alt N [T]   N calls of work_spin whose cost alternates on every call: 20 and 2000
 *               multiply-adds. A sample taken every other call would see one kind only.
 *               With T (1-8), T threads make the same N calls each and exit first.
 *   phase L S   L calls of work_spin at 2000 multiply-adds, then S at 20: under a budget the
 *               first (the floor, small periods) are timed far more often than the second,
 *               whose calls are most of the run's.
 *   tight N S   a tight loop of N calls of work_add (the tiny function a budget must spare),
 *               with work_leaf called once every N/50 (rarely: 50 calls, all to be timed);
 *               the loop's own time, in ticks (lfence;rdtsc), to the side file S.
 *   sites L S   work_spin from two call sites: L long calls (2000) from one loop, then S short
 *               ones (20) from another (TSC_CALLERS: each site's times under a budget).
 *   spaced N G S  N calls of work_add, each after G dependent multiply-adds of the loop's own
 *               (G = 0: the calls back to back, nearly all the loop does; a large G: calls
 *               so far apart that counting them is lost in the loop's work), work_leaf
 *               once every N/50 calls; the loop's ticks to S as for tight.
 *
 * Prints the expect lines (exact counts) and a checksum of what it computed.
 */
#include <pthread.h>
#include <string.h>

#include "tp.h"
#include "tp_tsc.h"

long work_add(long a, long b);
uint64_t work_spin(unsigned n);
long work_leaf(long x);

static uint64_t alt_loop(long n)
{
	uint64_t h = TP_FNV_INIT, v;
	long i;

	for (i = 0; i < n; i++) {
		v = work_spin(i & 1 ? 2000 : 20);
		tp_fold(&h, &v, sizeof(v));
	}
	return h;
}

static void *alt_thread(void *arg)
{
	static uint64_t sink;

	__atomic_fetch_xor(&sink, alt_loop((long)arg), __ATOMIC_RELAXED);
	return NULL;
}

/* t threads run the loop and exit, then the main thread runs it. */
static int alt(long n, long t)
{
	pthread_t th[8];
	long k;

	for (k = 0; k < t; k++)
		if (pthread_create(&th[k], NULL, alt_thread, (void *)n) != 0)
			return 1;
	for (k = 0; k < t; k++)
		pthread_join(th[k], NULL);
	tp_expect(stdout, "work_spin", (unsigned long)(n * (t + 1)));
	printf("checksum %016llx\n", (unsigned long long)alt_loop(n));
	return 0;
}

static int phase(long l, long s)
{
	uint64_t h = TP_FNV_INIT, v;
	long i;

	for (i = 0; i < l + s; i++) {
		v = work_spin(i < l ? 2000 : 20);
		tp_fold(&h, &v, sizeof(v));
	}
	tp_expect(stdout, "work_spin", (unsigned long)(l + s));
	printf("checksum %016llx\n", (unsigned long long)h);
	return 0;
}

static int tight(long n, int argc, char **argv)
{
	long i, every = n / 50, sum = 0, leaf = 0;
	uint64_t t0, t;
	FILE *side = tp_side_open(argc, argv, 3);

	t0 = rd_fenced();
	for (i = 0; i < n; i++) {
		sum = work_add(sum, i);
		if (i % every == 0) {
			sum += work_leaf(i);
			leaf++;
		}
	}
	t = rd_fenced() - t0;
	fprintf(side, "loop_ticks %llu\n", (unsigned long long)t);
	fclose(side);
	tp_expect(stdout, "work_add", (unsigned long)n);
	tp_expect(stdout, "work_leaf", (unsigned long)leaf);
	printf("sum %ld\n", sum);
	return 0;
}

static int sites(long l, long s)
{
	uint64_t h = TP_FNV_INIT, v;
	long i;

	for (i = 0; i < l; i++) {
		v = work_spin(2000);
		tp_fold(&h, &v, sizeof(v));
	}
	for (i = 0; i < s; i++) {
		v = work_spin(20);
		tp_fold(&h, &v, sizeof(v));
	}
	tp_expect(stdout, "work_spin", (unsigned long)(l + s));
	printf("checksum %016llx\n", (unsigned long long)h);
	return 0;
}

static int spaced(long n, long gap, int argc, char **argv)
{
	long i, j, every = n / 50, next = 1, sum = 0, leaf = 0;
	uint64_t t0, t, x = 88172645463325252ull;
	FILE *side = tp_side_open(argc, argv, 4);

	t0 = rd_fenced();
	for (i = 0; i < n; i++) {
		for (j = 0; j < gap; j++) /* the loop's own work: a chain the CPU cannot skip */
			__asm__ volatile("imul %0, %0\n\tadd $1, %0" : "+r"(x));
		sum = work_add(sum, i);
		if (--next == 0) { /* no division in the loop: with G = 0 the calls are all */
			sum += work_leaf(i);
			leaf++;
			next = every;
		}
	}
	t = rd_fenced() - t0;
	fprintf(side, "loop_ticks %llu\n", (unsigned long long)t);
	fclose(side);
	tp_expect(stdout, "work_add", (unsigned long)n);
	tp_expect(stdout, "work_leaf", (unsigned long)leaf);
	printf("sum %ld %llu\n", sum, (unsigned long long)x);
	return 0;
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 0;

	if (argc > 2 && !strcmp(argv[1], "alt") && n > 0)
		return alt(n,
			   argc > 3 && atol(argv[3]) > 0 && atol(argv[3]) <= 8 ? atol(argv[3]) : 0);
	if (argc > 3 && !strcmp(argv[1], "phase") && n >= 0 && atol(argv[3]) >= 0)
		return phase(n, atol(argv[3]));
	if (argc > 3 && !strcmp(argv[1], "tight") && n >= 50)
		return tight(n, argc, argv);
	if (argc > 3 && !strcmp(argv[1], "sites") && n >= 0 && atol(argv[3]) >= 0)
		return sites(n, atol(argv[3]));
	if (argc > 4 && !strcmp(argv[1], "spaced") && n >= 50 && atol(argv[3]) >= 0)
		return spaced(n, atol(argv[3]), argc, argv);
	fprintf(stderr, "usage: t_sample alt N [T] | phase L S | tight N SIDE-FILE | sites L S | "
			"spaced N G SIDE-FILE\n");
	return 2;
}
