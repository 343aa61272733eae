/*
 * expo.h - reports as metrics: the Prometheus text exposition (format 0.0.4) or OpenMetrics
 * 1.0 text, with one fixed bucket layout (pure; the same writer serves `tsctrace export` and
 * the shim's live TSC_EXPORT, so both write byte-identical formats).
 *
 * Families (docs/metrics.md):
 *   tsctrace_call_cycles    histogram of the timed calls, in cycles (TSC ticks less the
 *                           measured overhead), for reports of the TSC;
 *   tsctrace_call_seconds   the same for reports of the monotonic clock (unit ns), in exact
 *                           decimal seconds;
 *   tsctrace_calls          counter of every call, timed or not (samples tsctrace_calls_total).
 * Labels: function, program (executable base name), hook, then pid when asked, then the
 * caller's constant labels. Reports whose label sets are equal are added into one series:
 * that is what makes many processes one fleet-wide histogram.
 *
 * The layout: le = 2^k - 1 for k = 4..30 (15, 31, ..., 1073741823), then +Inf, in every
 * series of every export. Cycles are integers, so le = 2^k - 1 counts the calls that took
 * fewer than 2^k cycles. A report bucket [low, high] is counted at an edge only when high is at
 * or below the edge: the count at an edge is then exactly the number of calls whose report
 * bucket lies at or below it (see tt_expo_cumulative for how that compares with the truth).
 */
#ifndef TT_EXPO_H
#define TT_EXPO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "report/report_model.h"

#define TT_EXPO_FIRST_BITS 4
#define TT_EXPO_LAST_BITS 30
#define TT_EXPO_NEDGES (TT_EXPO_LAST_BITS - TT_EXPO_FIRST_BITS + 1)

/* Edge i of the fixed layout (0 <= i < TT_EXPO_NEDGES): 2^(4 + i) - 1. */
static inline uint64_t tt_expo_edge(unsigned int i)
{
	return ((uint64_t)1 << (TT_EXPO_FIRST_BITS + i)) - 1;
}

enum tt_expo_format { TT_EXPO_PROMETHEUS, TT_EXPO_OPENMETRICS };

struct tt_expo_label {
	const char *name, *value;
};

struct tt_expo_opts {
	enum tt_expo_format format;
	bool label_pid;			    /* a pid label: one series per process */
	const struct tt_expo_label *labels; /* constant labels on every sample */
	size_t nlabels;
};

/*
 * Why name cannot be a constant label (not [a-zA-Z_][a-zA-Z0-9_]*, reserved "__" prefix, or
 * one of the labels the writer sets itself: function, program, hook, pid, le), or NULL.
 */
const char *tt_expo_label_refusal(const char *name);

/*
 * The cumulative counts of f's histogram at the fixed edges: out[i] counts the samples of
 * the buckets whose high edge is <= tt_expo_edge(i). Returns the count of every bucket (the
 * +Inf count).
 *
 * How this compares with the true count of calls <= E: the shim's histogram holds raw ticks
 * and the report shifts every bucket down by the subtracted overhead S. Raw buckets below 1024
 * are single values and every raw bucket above starts at a multiple of its width, a power
 * of two, so raw 2^k always starts a bucket. Hence with S = 0 (TSC_OVERHEAD=0, or the
 * monotonic clock with nothing subtracted) every count is exact, and so is it for any S at
 * edges with E + S < 1024. Otherwise one report bucket may straddle E: its calls (all within
 * E/128 below E or above it) are counted at the next edge. A quantile is then in the same
 * fixed bucket as the report's own percentile, which takes a bucket's high edge.
 */
uint64_t tt_expo_cumulative(const struct tt_report_func *f, uint64_t out[TT_EXPO_NEDGES]);

/*
 * Append the metrics of reps[0..n) in o->format (OpenMetrics ends with "# EOF"). Returns 0,
 * or -1 when memory ran out (out->failed is then set too).
 */
int tt_expo_write(struct tt_buf *out, const struct tt_report *const *reps, size_t n,
		  const struct tt_expo_opts *o);

#endif /* TT_EXPO_H */
