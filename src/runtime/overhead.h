/*
 * overhead.h - the measurement's own cost, calibrated through the real path.
 */
#ifndef TT_OVERHEAD_H
#define TT_OVERHEAD_H

#include <stdint.h>

struct tt_overhead {
	uint64_t min, median; /* raw ticks of an empty traced call */
	uint64_t subtracted;  /* removed from every sample: min, or TSC_OVERHEAD */
	uint64_t nested;      /* what a traced call adds to a traced caller's reading beyond its
			       * own raw ticks: removed from self time per traced call made */
	uint64_t granularity; /* gcd of the calibration readings (refined by clock.c) */
	const char *source; /* "calibrated", "cache" (an earlier run's, checked), "TSC_OVERHEAD" */
};

typedef void (*tt_empty_fn)(void);

/*
 * The empty function (index 0) as a traced call: entry (the inline pool slot, or NULL for
 * stub 0) leading to target (its relocated copy, or NULL for the empty function itself).
 * Whoever calls it first sets where it leads: the overhead's burst or sampling's cost.
 */
tt_empty_fn tt_overhead_traced_empty(void *entry, void *target);

/*
 * Trace the empty function (index 0) `calls` times through its stub on this thread, exactly
 * as a program's call through a GOT slot goes, and summarise the readings. The trampoline
 * variant must be chosen already. For the inline path, entry is the pool slot to call and
 * target the relocated copy of an empty function it leads to; both NULL: stub 0 and the
 * empty function.
 * Returns 0, or -1 when no reading was taken.
 */
int tt_overhead_calibrate(unsigned int calls, void *entry, void *target, struct tt_overhead *out);

/*
 * A short burst the same way (calls after a warm-up of a quarter of them), for checking
 * figures kept from an earlier run (calib_cache.h): its least and median reading and the gcd
 * of its readings (a multiple of the TSC's step; at least 1). 0, or -1 when no reading was
 * taken.
 */
int tt_overhead_check(unsigned int calls, void *entry, void *target, uint64_t *min,
		      uint64_t *median, uint64_t *gcd);

#endif /* TT_OVERHEAD_H */
