/*
 * t_self.c SIDE-FILE [PARENTS] - self time (libnest.so): nest_parent (20,000 ticks of its own, then nest_child,
 * 10,000) called PARENTS (300) times; nest_rec(3) 100 times (four nested calls of 2,000 ticks each);
 * nest_ljparent 40 times, whose call of nest_jumper is left by longjmp. stdout: the expected
 * counts. SIDE-FILE gets spin_iteration: the median length of one iteration of the spins'
 * loop (a spin lasts its N ticks plus up to one), for run.sh's bound. The thread pins itself
 * to the CPU it starts on, as the shim does.
 */
#define _GNU_SOURCE
#include "tp.h"

#include "tp_tsc.h"
#include <sched.h>

void nest_child(void);
void nest_parent(void);
void nest_rec(int n);
void nest_ljparent(void);

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The median gap between two reads of the spins' loop (nest.c reads the TSC the same way). */
static uint64_t spin_iteration(void)
{
	static uint64_t d[1001];
	int rdtscp = tp_rdtscp_announced(), i;
	uint64_t prev = rdtscp ? rd_rdtscp_lfence() : rd_fenced(), now;

	for (i = 0; i < 1001; i++) {
		now = rdtscp ? rd_rdtscp_lfence() : rd_fenced();
		d[i] = now - prev;
		prev = now;
	}
	qsort(d, 1001, sizeof(d[0]), cmp_u64);
	return d[500];
}

int main(int argc, char **argv)
{
	FILE *side = tp_side_open(argc, argv, 1);
	cpu_set_t one;
	int i, parents = argc > 2 ? atoi(argv[2]) : 300; /* optional: nest_parent's calls */

	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	sched_setaffinity(0, sizeof(one), &one);
	for (i = 0; i < parents; i++)
		nest_parent();
	for (i = 0; i < 100; i++)
		nest_rec(3);
	for (i = 0; i < 40; i++)
		nest_ljparent();
	tp_expect(stdout, "nest_parent", (unsigned long)parents);
	tp_expect(stdout, "nest_child", (unsigned long)parents + 40);
	tp_expect(stdout, "nest_rec", 400);
	tp_expect(stdout, "nest_ljparent", 40);
	tp_expect(stdout, "nest_jumper", 40);
	tp_expect_unwound(stdout, "nest_jumper", 40);
	fprintf(side, "spin_iteration %" PRIu64 "\n", spin_iteration());
	fclose(side);
	return 0;
}
