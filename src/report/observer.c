/*
 * observer.c - the observer effect's share and warning (observer.h).
 */
#include <stdio.h>

#include "report/observer.h"

uint64_t tt_observer_ppm(uint64_t dense_q20, uint64_t cost, uint64_t hz)
{
	/* timed calls per ns x ns per bracket: the share of the thread's CPU time. */
	double share = (double)dense_q20 / (1 << 20) * ((double)cost * 1e9 / (double)hz);

	if (!hz)
		return 0;
	return share >= 1 ? 1000000 : (uint64_t)(share * 1e6 + 0.5);
}

int tt_observer_dense(uint64_t ppm)
{
	return ppm > (uint64_t)TT_OBSERVER_PERCENT * 10000;
}

int tt_observer_warning(char *buf, size_t size, const char *name, uint64_t ppm, uint64_t timed,
			uint64_t cost)
{
	return snprintf(buf, size,
			"%s: timing took %llu%% of its thread's CPU time (%llu timed calls, ~%llu "
			"clock units each): past %d%%, timing changes what it times (fences drain "
			"the pipeline around every call); TSC_SAMPLE=16 or TSC_BUDGET=2%% times "
			"fewer calls",
			name, (unsigned long long)((ppm + 5000) / 10000), (unsigned long long)timed,
			(unsigned long long)cost, TT_OBSERVER_PERCENT);
}
