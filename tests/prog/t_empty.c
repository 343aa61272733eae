/*
 * t_empty.c [SIDE-FILE] - 100,000 calls of work_empty (an empty, non-inlined function in
 * libwork.so). After overhead subtraction the shim must report it at (almost) zero cycles.
 *
 * With SIDE-FILE, the program also measures, with its own TSC reads (lfence;rdtsc;lfence,
 * which every x86-64 CPU runs), what the serialization test compares across TSC_SERIALIZE
 * modes: the whole loop ("loop_ticks"), and the cheapest of 200 `cpuid` instructions
 * ("cpuid_ticks"), the price each traced call pays twice in the cpuid mode.
 */
#include "tp.h"

#include "tp_tsc.h"
#include <cpuid.h>

#define N 100000

void work_empty(void);

static uint64_t cheapest_cpuid(void)
{
	uint64_t best = UINT64_MAX, t0, t;
	unsigned int a, b, c, d, i;

	for (i = 0; i < 200; i++) {
		t0 = rd_fenced();
		__cpuid(0, a, b, c, d);
		t = rd_fenced() - t0;
		if (t < best)
			best = t;
	}
	(void)a, (void)b, (void)c, (void)d;
	return best;
}

int main(int argc, char **argv)
{
	uint64_t t0, loop;
	int i;

	t0 = rd_fenced();
	for (i = 0; i < N; i++)
		work_empty();
	loop = rd_fenced() - t0;
	if (argc > 1) {
		FILE *side = tp_side_open(argc, argv, 1);

		fprintf(side, "loop_ticks %llu\ncpuid_ticks %llu\n", (unsigned long long)loop,
			(unsigned long long)cheapest_cpuid());
		fclose(side);
	}
	printf("%d calls of work_empty\n", N);
	tp_expect(stdout, "work_empty", N);
	return 0;
}
