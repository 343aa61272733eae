/*
 * memrss.c - resident memory that tracing costs, per traced function per thread.
 *
 *	memrss [THREADS [CALLS]]	(default 8 threads, 1000 calls of each function)
 *
 * THREADS threads each call each of libmemfn.so's 16 functions (mem_fn0..mem_fn15, through
 * the PLT) CALLS times, interleaved, then wait at a barrier. While they all still live, the
 * main thread reads the process's resident set (Rss: of /proc/self/smaps_rollup, which walks
 * the page tables; VmRSS: of /proc/self/status where smaps_rollup is missing) and prints
 * `rss_kb=N source=... threads=T funcs=16 calls=C checksum=S`; then the threads exit.
 *
 * bench/run.sh runs it preloaded with TSC_FUNCS=mem_fn0,...,mem_fn15 and preloaded with
 * TSC_FUNCS=mem_never_called (the shim initialised, nothing that runs traced); the difference
 * divided by THREADS * 16 is the resident cost of one traced function in one thread:
 * histograms, counters and the thread's shadow stack and state, shared out.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NFUNCS 16
#define MAX_THREADS 64

/* Generated functions and their calls, packed by hand. */
/* clang-format off */
#define DECL(k) int mem_fn##k(int x);
DECL(0) DECL(1) DECL(2) DECL(3) DECL(4) DECL(5) DECL(6) DECL(7)
DECL(8) DECL(9) DECL(10) DECL(11) DECL(12) DECL(13) DECL(14) DECL(15)

/* Called directly (not through this table) so that each call goes through the PLT slot. */
static int call_all(int x)
{
	x = mem_fn0(x); x = mem_fn1(x); x = mem_fn2(x); x = mem_fn3(x);
	x = mem_fn4(x); x = mem_fn5(x); x = mem_fn6(x); x = mem_fn7(x);
	x = mem_fn8(x); x = mem_fn9(x); x = mem_fn10(x); x = mem_fn11(x);
	x = mem_fn12(x); x = mem_fn13(x); x = mem_fn14(x); x = mem_fn15(x);
	/* clang-format on */
	return x;
}

static pthread_barrier_t done, leave;
static long calls = 1000;

static void *worker(void *arg)
{
	long i;
	int x = 0;

	for (i = 0; i < calls; i++)
		x = call_all(x);
	*(int *)arg = x;
	pthread_barrier_wait(&done);
	pthread_barrier_wait(&leave);
	return NULL;
}

/* Resident kB and where it came from. */
static long rss_kb(const char **source)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/smaps_rollup", "r");

	*source = "smaps_rollup";
	if (!f) {
		f = fopen("/proc/self/status", "r");
		*source = "status";
	}
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Rss: %ld kB", &kb) == 1 ||
		    sscanf(line, "VmRSS: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 8, i, results[MAX_THREADS];
	pthread_t tid[MAX_THREADS];
	const char *source;
	long kb, sum = 0;

	if (argc > 2)
		calls = atol(argv[2]);
	if (threads < 1 || threads > MAX_THREADS || calls < 1) {
		fprintf(stderr, "usage: memrss [threads [calls]]\n");
		return 2;
	}
	pthread_barrier_init(&done, NULL, (unsigned int)threads + 1);
	pthread_barrier_init(&leave, NULL, (unsigned int)threads + 1);
	for (i = 0; i < threads; i++)
		if (pthread_create(&tid[i], NULL, worker, &results[i])) {
			fprintf(stderr, "memrss: pthread_create failed\n");
			return 1;
		}
	pthread_barrier_wait(&done);
	kb = rss_kb(&source);
	pthread_barrier_wait(&leave);
	for (i = 0; i < threads; i++) {
		pthread_join(tid[i], NULL);
		sum += results[i];
	}
	if (kb < 0) {
		fprintf(stderr, "memrss: cannot read the resident set size\n");
		return 1;
	}
	printf("rss_kb=%ld source=%s threads=%d funcs=%d calls=%ld checksum=%ld\n", kb, source,
	       threads, NFUNCS, calls, sum);
	return 0;
}
