/*
 * by_arg.h - TSC_ARGS=func:K: a function's timed calls by the value of its K-th integer
 * argument, in log2 buckets of that value, each with a coarse histogram of raw ticks (8
 * sub-buckets an octave: percentiles within 12.5%, min and max exact) for its median and p99.
 *
 * Every call of such a function ends in C (its counters' slow_floor is 0), which files it
 * here; a call's arguments are in its shadow frame (slow_calls.h). The table lies in its
 * counters' mapping after the slowest calls' list; a bucket's pages are touched on its first
 * call. With a filter (func:K>=N, func:K==N) calls whose argument does not match are not
 * timed: counted as `filtered` only.
 */
#ifndef TT_BY_ARG_H
#define TT_BY_ARG_H

#include <stdint.h>

#include "hot/thread.h"

#define TT_ARG_BUCKETS 65 /* 0, then [2^k, 2^(k+1)) for k = 0..63 */
#define TT_ARG_SUB_BITS 3
#define TT_ARG_HIST (64 << TT_ARG_SUB_BITS)
#define TT_ARG_WATCH_MAX 64 /* TSC_ARGS entries */

enum tt_arg_op { TT_ARG_ALL, TT_ARG_GE, TT_ARG_EQ };

struct tt_arg_bucket {
	uint64_t calls; /* ended calls whose argument fell here */
	uint64_t timed;
	uint64_t min, max; /* raw ticks of the timed ones (min 0: none yet) */
	uint64_t counts[TT_ARG_HIST];
};

struct tt_by_arg {
	uint64_t filtered; /* calls the filter left untimed */
	struct tt_arg_bucket b[TT_ARG_BUCKETS];
};

/* What TSC_ARGS watches, by function index; set at start-up after the functions are found
 * (runtime/by_arg_report.c), read when a thread first maps a function's counters. */
struct tt_arg_watch {
	uint32_t func;
	uint32_t k; /* 1..6 */
	uint32_t op;
	uint64_t n;
};
extern struct tt_arg_watch tt_arg_watches[TT_ARG_WATCH_MAX];
extern uint32_t tt_arg_nwatches;

/* Function func's watch, or NULL. */
const struct tt_arg_watch *tt_arg_watch_of(uint32_t func);

/* The bucket of an argument's value, and of a raw tick count in a bucket's histogram. */
uint32_t tt_arg_bucket_of(uint64_t v);
uint32_t tt_arg_hist_index(uint64_t raw);
/* The smallest and largest value of histogram index i. */
uint64_t tt_arg_hist_low(uint32_t i);
uint64_t tt_arg_hist_high(uint32_t i);

/* Whether frame f's call passes the watch's filter. */
int tt_arg_matches(const struct tt_arg_watch *w, const struct tt_frame *f);

/* File an ended call: timed (raw ticks) or not. Hot path. */
void tt_arg_record(struct tt_by_arg *t, const struct tt_arg_watch *w, const struct tt_frame *f,
		   int timed, uint64_t raw);

/* Add src into dst. */
void tt_arg_merge(struct tt_by_arg *dst, const struct tt_by_arg *src);

#endif /* TT_BY_ARG_H */
