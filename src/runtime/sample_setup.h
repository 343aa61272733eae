/*
 * sample_setup.h - TSC_SAMPLE and TSC_BUDGET at start-up: the hot path's settings
 * (hot/sample.h), and, for a budget, what a timed call costs over one passed over.
 */
#ifndef TT_SAMPLE_SETUP_H
#define TT_SAMPLE_SETUP_H

#include "config/config.h"
#include "runtime/calib_cache.h"

/* Configure sampling from cfg (hot/sample.h): at start-up, before any hook is made, since
 * inline hooks count the calls sampling passes over in their slots (hook/slot_code.h). */
void tt_sample_setup(const struct tt_config *cfg);

/*
 * With TSC_BUDGET (after tt_sample_setup), time the calibration function (index 0,
 * through entry to target, or its stub and the empty function when NULL) on this thread,
 * timed and passed over in turn, for the cost per timed call the budget is spent in (variant:
 * TT_VAR_*, the clock's unit). At start-up, before any overhead calibration (which comes at
 * the first report), with the guard down. cache_dir, key: where an earlier run's costs are
 * kept (sample_cache.h), read instead of measuring, or stored once measured; cache_dir ""
 * (or key NULL) when there is no cache.
 */
void tt_sample_start(const struct tt_config *cfg, int variant, void *entry, void *target,
		     const char *cache_dir, const struct tt_calib_key *key);

#endif /* TT_SAMPLE_SETUP_H */
