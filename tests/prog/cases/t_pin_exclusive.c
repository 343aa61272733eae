/*
 * t_pin_exclusive.c NTHREADS SIDE-FILE [BATCHES] - where the default TSC_PIN puts CPU-bound
 * threads.
 *
 * NTHREADS workers (0: the main thread alone) each step onto the same CPU (the first of the
 * process's mask) and back to the whole mask, as threads started by one creator do, then call
 * work_add in a loop. After the first call each records the mask in force (raw system call);
 * all stay alive until every one has recorded it, so the pins seen are held at once.
 * BATCHES (default 1): that many rounds of NTHREADS workers, each round joined before the next
 * starts (the later rounds need the CPUs the earlier ones held).
 * Side file: "orig L", "ncpu N", then "tI L" per worker, in round order (masks as CPU lists).
 */
#define _GNU_SOURCE
#include "tp.h"
#include "tp_cpu.h"

#include <pthread.h>
#include <stdbool.h>

#define NCALLS 200000
#define MAXT 64

long work_add(long a, long b);

static pthread_barrier_t recorded;
static cpu_set_t orig;
static int first_cpu;

struct slot {
	long sum;
	char after[TP_CPU_LIST_MAX];
};

static void run(struct slot *s, bool wait)
{
	cpu_set_t set;
	long i;

	tp_cpu_only(first_cpu);
	if (sched_setaffinity(0, sizeof(orig), &orig) != 0) {
		perror("sched_setaffinity");
		exit(2);
	}
	s->sum = work_add(1, 2);
	tp_cpu_get(&set);
	tp_cpu_list(&set, s->after);
	for (i = 0; i < NCALLS; i++)
		s->sum += work_add(i, s->sum & 7);
	if (wait)
		pthread_barrier_wait(&recorded);
}

static void *worker(void *arg)
{
	run(arg, true);
	return NULL;
}

int main(int argc, char **argv)
{
	static struct slot s[MAXT * 4];
	static char list[TP_CPU_LIST_MAX];
	pthread_t th[MAXT];
	int i, b, n = argc > 1 ? atoi(argv[1]) : -1, batches = argc > 3 ? atoi(argv[3]) : 1;
	long sum = 0;
	FILE *side;

	if (n < 0 || n > MAXT || batches < 1 || batches > 4) {
		fprintf(stderr, "usage: %s NTHREADS(0-%d) SIDE-FILE [BATCHES(1-4)]\n", argv[0],
			MAXT);
		return 2;
	}
	side = tp_side_open(argc, argv, 2);
	tp_cpu_get(&orig);
	first_cpu = tp_cpu_nth(&orig, 0);
	fprintf(side, "orig %s\nncpu %d\n", tp_cpu_list(&orig, list), CPU_COUNT(&orig));
	if (n == 0) {
		run(&s[0], false);
		n = 1;
	} else {
		pthread_barrier_init(&recorded, NULL, (unsigned)n);
		for (b = 0; b < batches; b++) {
			for (i = 0; i < n; i++)
				if (pthread_create(&th[i], NULL, worker, &s[b * n + i]) != 0) {
					perror("pthread_create");
					return 1;
				}
			for (i = 0; i < n; i++)
				pthread_join(th[i], NULL);
		}
		n *= batches;
	}
	for (i = 0; i < n; i++) {
		sum += s[i].sum;
		fprintf(side, "t%d %s\n", i, s[i].after);
	}
	fclose(side);
	printf("%d threads, sum %ld\n", n, sum);
	tp_expect(stdout, "work_add", (unsigned long)n * (NCALLS + 1));
	return 0;
}
