/*
 * t_migrate.c SIDE-FILE - calls during which the thread changes CPU.
 *
 * The main thread restricts itself to CPU A (the first it may use), then calls sw_hop 40 times
 * with targets A B B A A B B A ...: every second call moves the thread to the other CPU
 * inside the call (sw_hop sets its affinity to the target alone), the others stay where they
 * are. The shim must count the moving calls as `migrated`, not time them. SIDE-FILE gets
 * "moved M" (calls that really started and ended on different CPUs) and "a A", "b B".
 * With fewer than two CPUs allowed nothing is called.
 */
#define _GNU_SOURCE
#include "tp.h"
#include "tp_cpu.h"

#define NCALLS 40

int sw_hop(int target);

int main(int argc, char **argv)
{
	cpu_set_t orig;
	int a, b, i, r, moved = 0, errors = 0, spins = 0;
	FILE *side;

	side = tp_side_open(argc, argv, 1);
	tp_cpu_get(&orig);
	if (CPU_COUNT(&orig) < 2) {
		printf("fewer than 2 CPUs allowed: nothing to do\n");
		fprintf(side, "moved 0\n");
		fclose(side);
		return 0;
	}
	a = tp_cpu_nth(&orig, 0);
	b = tp_cpu_nth(&orig, 1);
	tp_cpu_only(a);
	while (sched_getcpu() != a && spins++ < 100000)
		sched_yield();

	for (i = 0; i < NCALLS; i++) {
		r = sw_hop(((i + 1) / 2) % 2 ? b : a);
		if (r < 0)
			errors++;
		else
			moved += r;
	}
	if (sched_setaffinity(0, sizeof(orig), &orig) != 0)
		perror("sched_setaffinity");
	fprintf(side, "moved %d\na %d\nb %d\n", moved, a, b);
	fclose(side);

	printf("%d calls of sw_hop, %d of them to the other CPU, %d errors\n", NCALLS, NCALLS / 2,
	       errors);
	tp_expect(stdout, "sw_hop", NCALLS);
	return 0;
}
