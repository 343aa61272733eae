/*
 * sample_setup.h - TSC_SAMPLE and TSC_BUDGET at start-up: the hot path's settings
 * (hot/sample.h), and, for a budget, what a timed call costs over one passed over.
 */
#ifndef TT_SAMPLE_SETUP_H
#define TT_SAMPLE_SETUP_H

#include "config/config.h"

/*
 * Configure sampling from cfg. With TSC_BUDGET, time the calibration function (index 0,
 * through entry to target, or its stub and the empty function when NULL) on this thread,
 * timed and passed over in turn, for the cost per timed call the budget is spent in (variant:
 * TT_VAR_*, the clock's unit). At start-up, before any overhead calibration (which comes at
 * the first report), with the guard down.
 */
void tt_sample_start(const struct tt_config *cfg, int variant, void *entry, void *target);

#endif /* TT_SAMPLE_SETUP_H */
