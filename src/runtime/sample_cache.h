/*
 * sample_cache.h - TSC_BUDGET's start-up costs kept between runs (TSC_CACHE, on by default).
 *
 * What a counted call costs per route and what a timed call costs over it (sample_setup.c)
 * take about 0.7 ms of CPU to measure at each process's start (the AMD EPYC VM): 0.5% of a
 * sort of 200,000 lines, a third of its 2% budget gone before the program runs. They depend
 * on what the overhead's figures depend on (the CPU, the variant, the route, the shim's
 * build: calib_cache.h's key), so they are kept beside them, one small file per key, and a
 * later run with the same key reads them instead. No check burst: the budget also fits a
 * timed call's cost in place (hot/sample.h), and a counted call's is an estimate either way.
 * Every failure just means measuring.
 */
#ifndef TT_SAMPLE_CACHE_H
#define TT_SAMPLE_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "runtime/calib_cache.h"

struct tt_sample_costs {
	uint64_t count_got;    /* hot/sample.h's tt_sample_count_cost_got */
	uint64_t count_inline; /* tt_sample_count_cost_inline */
	uint64_t inline_known; /* tt_sample_count_inline_known: 0 or 1 */
	uint64_t timed;	       /* tt_sample_cost, never 0 */
};

/* The costs kept under k in dir into out: true when a well-formed file of exactly that key
 * was found. */
bool tt_sample_cache_load(const char *dir, const struct tt_calib_key *k,
			  struct tt_sample_costs *out);

/* Keep c under k in dir. Silent when it cannot. */
void tt_sample_cache_store(const char *dir, const struct tt_calib_key *k,
			   const struct tt_sample_costs *c);

#endif /* TT_SAMPLE_CACHE_H */
