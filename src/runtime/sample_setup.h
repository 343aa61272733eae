/*
 * sample_setup.h - TSC_SAMPLE and TSC_BUDGET at start-up: the hot path's settings
 * (hot/sample.h), and, for a budget, what a timed call costs over one passed over.
 */
#ifndef TT_SAMPLE_SETUP_H
#define TT_SAMPLE_SETUP_H

#include "config/config.h"

/*
 * Configure sampling from cfg. With TSC_BUDGET, time the calibration function (index 0,
 * through entry, or its stub when NULL) on this thread, timed and passed over in turn, for
 * the cost per timed call the budget is spent in (variant: TT_VAR_*, the clock's unit). After
 * the overhead calibration, with the guard down.
 */
void tt_sample_start(const struct tt_config *cfg, int variant, void *entry);

#endif /* TT_SAMPLE_SETUP_H */
