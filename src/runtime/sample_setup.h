/*
 * sample_setup.h - TSC_SAMPLE and TSC_BUDGET at start-up: the hot path's settings
 * (hot/sample.h), and, for a budget, what a timed call costs over one passed over.
 */
#ifndef TT_SAMPLE_SETUP_H
#define TT_SAMPLE_SETUP_H

#include "config/config.h"
#include "runtime/sample_cache.h"

/* Configure sampling from cfg (hot/sample.h): at start-up, before any hook is made, since
 * inline hooks count the calls sampling passes over in their slots (hook/slot_code.h). */
void tt_sample_setup(const struct tt_config *cfg);

/*
 * With TSC_BUDGET (after tt_sample_setup), time the calibration function (index 0,
 * through entry to target, or its stub and the empty function when NULL) on this thread,
 * timed and passed over in turn, for the cost per timed call the budget is spent in (variant:
 * TT_VAR_*, the clock's unit). At start-up, before any overhead calibration (which comes at
 * the first report), with the guard down.
 */
void tt_sample_start(const struct tt_config *cfg, int variant, void *entry, void *target);

/* The costs tt_sample_start measured, to keep (sample_cache.h); and costs an earlier run
 * kept, used instead of measuring them. */
void tt_sample_costs_get(struct tt_sample_costs *out);
void tt_sample_costs_use(const struct tt_sample_costs *c);

#endif /* TT_SAMPLE_SETUP_H */
