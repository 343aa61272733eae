/*
 * t_pin.c NTHREADS SIDE-FILE - which threads the shim pins, and where.
 *
 * NTHREADS worker threads, started together, call sw_add 1000 times each and then record their
 * affinity mask and CPU; one more thread ("idle") lives as long as they do but makes no traced
 * call; the main thread makes none either. Masks differ between the untraced and the traced
 * run, so they go to SIDE-FILE (key value lines, masks as CPU lists):
 *     orig L          main's mask at start          ncpu N      CPUs in it
 *     tI_before L     worker I's mask before its first traced call
 *     tI_after L      ... after its last one        tI_cpu C    sched_getcpu() then
 *     idle_after L    the idle thread's mask at the end
 *     main_after L    main's mask after joining everyone
 * stdout (identical with and without the shim) holds the results and an expect line.
 */
#define _GNU_SOURCE
#include "tp.h"
#include "tp_cpu.h"

#include <pthread.h>

#define NCALLS 1000
#define MAXT 64

long sw_add(long a, long b);

static pthread_barrier_t start, done;

struct slot {
	long id, sum;
	char before[TP_CPU_LIST_MAX], after[TP_CPU_LIST_MAX], seen[TP_CPU_LIST_MAX];
	int cpu;
};

static void *worker(void *arg)
{
	struct slot *s = arg;
	cpu_set_t set;
	long i;

	tp_cpu_get(&set);
	tp_cpu_list(&set, s->before);
	pthread_barrier_wait(&start);
	for (i = 0; i < NCALLS; i++)
		s->sum += sw_add(i, s->id);
	tp_cpu_get(&set);
	tp_cpu_list(&set, s->after);
	tp_cpu_seen(&set);
	tp_cpu_list(&set, s->seen);
	s->cpu = sched_getcpu();
	pthread_barrier_wait(&done);
	return NULL;
}

static void *idle(void *arg)
{
	struct slot *s = arg;
	cpu_set_t set;

	pthread_barrier_wait(&start);
	pthread_barrier_wait(&done);
	tp_cpu_get(&set);
	tp_cpu_list(&set, s->after);
	return NULL;
}

int main(int argc, char **argv)
{
	static struct slot s[MAXT + 1];
	static char orig[TP_CPU_LIST_MAX], list[TP_CPU_LIST_MAX];
	pthread_t th[MAXT + 1];
	int i, n = argc > 1 ? atoi(argv[1]) : 0;
	long sum = 0;
	cpu_set_t set;
	FILE *side;

	if (n < 1 || n > MAXT) {
		fprintf(stderr, "usage: %s NTHREADS(1-%d) SIDE-FILE\n", argv[0], MAXT);
		return 2;
	}
	side = tp_side_open(argc, argv, 2);
	tp_cpu_get(&set);
	fprintf(side, "orig %s\nncpu %d\n", tp_cpu_list(&set, orig), CPU_COUNT(&set));

	pthread_barrier_init(&start, NULL, (unsigned)n + 1);
	pthread_barrier_init(&done, NULL, (unsigned)n + 1);
	for (i = 0; i <= n; i++) {
		s[i].id = i * 1000;
		if (pthread_create(&th[i], NULL, i < n ? worker : idle, &s[i]) != 0) {
			perror("pthread_create");
			return 1;
		}
	}
	for (i = 0; i <= n; i++)
		pthread_join(th[i], NULL);
	for (i = 0; i < n; i++) {
		sum += s[i].sum;
		fprintf(side, "t%d_before %s\nt%d_after %s\nt%d_seen %s\nt%d_cpu %d\n", i,
			s[i].before, i, s[i].after, i, s[i].seen, i, s[i].cpu);
	}
	tp_cpu_get(&set);
	fprintf(side, "idle_after %s\nmain_after %s\n", s[n].after, tp_cpu_list(&set, list));
	fclose(side);

	printf("%d worker threads, %d calls each, sum %ld\n", n, NCALLS, sum);
	tp_expect(stdout, "sw_add", (unsigned long)n * NCALLS);
	return 0;
}
