/*
 * runstats.h - a statistic compared over repeated runs: the mean of its per-run values on each
 * side and the change between them with a 95% confidence interval (runstats.c), for diff.
 *
 * The samples are runs, not calls: calls within one process share its caches, frequency and
 * neighbours, so they say nothing about how much a second run of the same program would
 * differ. The interval is Welch's t-interval on the difference of the two means (no equal
 * variances assumed), its degrees of freedom rounded down, which widens it: with three runs
 * a side t is 2.8 to 4.3, not 1.96. Pure: no globals, no I/O, no allocation.
 */
#ifndef TT_RUNSTATS_H
#define TT_RUNSTATS_H

#include <stdbool.h>
#include <stddef.h>

/* One side: n per-run values summarized. */
struct tt_runs {
	size_t n;
	double mean;
	double var; /* sample variance (n - 1 in the denominator); 0 when n < 2 */
};

void tt_runs_summarize(const double *x, size_t n, struct tt_runs *out);

/* The change from base a to new b, in percent of a's mean. */
struct tt_change {
	bool defined;  /* a's mean is not 0 */
	double pct;    /* (mean b - mean a) / mean a * 100 */
	bool has_ci;   /* both sides have 2 runs or more */
	double lo, hi; /* the 95% interval of pct */
	double df;     /* Welch-Satterthwaite degrees of freedom, before rounding down */
};

void tt_runs_change(const struct tt_runs *a, const struct tt_runs *b, struct tt_change *out);

/* The 0.975 quantile of Student's t with df degrees of freedom (df >= 1; rounded down). */
double tt_t975(double df);

#endif /* TT_RUNSTATS_H */
