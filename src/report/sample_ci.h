/*
 * sample_ci.h - how sure a percentile taken from a sample is (pure, shared by the shim and
 * the tsctrace command).
 *
 * The p-quantile of the sampled calls is the value at rank ceil(p n) of n timed calls. Which
 * ranks the true quantile lies between with 95% confidence follows from the order statistics
 * (the count of sampled values below it is binomial(n, p)), approximated as normal:
 * n p -+ 1.96 sqrt(n p (1 - p)), widened to whole ranks, then mapped through the histogram.
 */
#ifndef TT_SAMPLE_CI_H
#define TT_SAMPLE_CI_H

#include <stdint.h>

#include "hist/hist.h"
#include "report/report_model.h"

/* The ranks (1-based, within 1..n) bounding the p-quantile (0 < p < 1) of n samples at 95%. */
void tt_sample_ci_ranks(uint64_t n, double p, uint64_t *lo, uint64_t *hi);

/* The 95% bounds of the p-quantile of h's samples, in h's unit minus subtract (floored). */
struct tt_ci tt_sample_ci(const struct tt_hist *h, double p, uint64_t subtract);

/*
 * The same for a histogram whose samples carry weights (TSC_BUDGET's, each timed call
 * counted as the calls it stands for): h->count is the sum of the weights, wsq the sum of
 * their squares. The binomial count is that of the effective sample size
 * n_eff = (sum w)^2 / sum w^2 (Kish), at most the number of samples, and its ranks are
 * scaled to the weights' sum.
 */
struct tt_ci tt_sample_ci_weighted(const struct tt_hist *h, uint64_t wsq, double p,
				   uint64_t subtract);

/* The weighted ranks (1-based, within 1..sum) bounding the p-quantile of samples whose
 * weights add up to sum and their squares to wsq (sum, wsq > 0), as above: what
 * tt_sample_ci_weighted reads its histogram at, and `tsctrace merge` its merged buckets. */
void tt_sample_ci_weighted_ranks(uint64_t sum, uint64_t wsq, double p, uint64_t *lo, uint64_t *hi);

#endif /* TT_SAMPLE_CI_H */
