/*
 * libwork.c - libclwork.so for the CLI's diff tests: work(n) busy-waits n TSC ticks.
 *
 * Measured in the TSC's own ticks, a call lasts n ticks plus at most one loop iteration, on
 * any machine and at any CPU frequency: the median over many calls moves between runs by
 * about one iteration (tens of ticks), not by the machine's load. That is what makes "no
 * change" between two sets of runs of the same program a property of the method rather than
 * of a quiet machine. A separate object, so that its calls go through the PLT and are traced
 * with either hook.
 */
#include <stdint.h>

#include <x86intrin.h>

__attribute__((visibility("default"), noinline)) void work(uint64_t n)
{
	uint64_t t0 = __rdtsc();

	while (__rdtsc() - t0 < n)
		;
}
