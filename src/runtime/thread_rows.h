/*
 * thread_rows.h - one function's counts per thread, for the report's "threads": kept for
 * threads that have exited (their counters are merged and freed at exit), read in place for
 * live ones.
 */
#ifndef TT_THREAD_ROWS_H
#define TT_THREAD_ROWS_H

#include <stddef.h>
#include <stdint.h>

#include "hot/thread.h"

struct tt_thread_row {
	int64_t tid;		     /* 0: exited threads past the rows kept, summed */
	char name[16];		     /* comm, NUL-terminated; "" when it could not be read */
	uint32_t func;		     /* function index */
	uint64_t calls;		     /* entries */
	uint64_t timed;		     /* calls in the histogram */
	uint64_t raw;		     /* their raw ticks, summed */
	uint64_t weights, wraw, wsq; /* TSC_BUDGET: the weighted histogram's (whist) sum of
				      * the weights, of weight x raw ticks, of the squared
				      * weights; 0 otherwise */
	/* The overhead `sub` the row was made against, and what flooring each timed reading at
	 * it gives back against raw - timed x sub (tt_stats_floor_back; wback the weighted
	 * one's): a row kept at a thread's exit has no histogram left to floor from. */
	uint64_t sub, back, wback;
	struct tt_self_hist_sums {
		uint64_t count, total, nested, whole_total, lost;
		uint64_t leaf_back; /* tt_self_leaf_back at the row's sub */
	} self; /* the self histogram's sums (self_hist.h): what a self total needs */
	struct tt_self_hist_sums wself; /* TSC_BUDGET: the weighted one's (wself) */
};

/*
 * At a thread's exit, with the thread lock held: keep a row per function it called, floored
 * at sub, the overhead the report will subtract (measured before, if the thread timed a
 * call: threads.c).
 */
void tt_thread_rows_keep(struct tt_thread *t, uint64_t sub);

/* In a fork child: forget every kept row. */
void tt_thread_rows_reset(void);

/* Read every live thread's name (/proc/self/task/TID/comm) into its block. Report time. */
void tt_thread_rows_names(void);

/*
 * The rows of function func, exited threads first, then live ones (with the thread lock
 * held by the caller; floored at sub), ordered by tid, into out[0..max). Returns how many
 * there are in all.
 */
size_t tt_thread_rows_of(uint32_t func, uint64_t sub, struct tt_thread_row *out, size_t max);

/* At report time, under TSC_SAMPLE=N (else nothing): the row's weighted sums, self's too
 * (zero: the exit records them only under a budget), from its plain ones, every timed call
 * weighing N (tt_func_stats_weigh_fixed). */
void tt_thread_rows_weigh_fixed(struct tt_thread_row *r);

/* A self histogram's sums, as a row keeps them (leaf_back left to the caller). */
void tt_thread_rows_self_sums(const struct tt_self_hist *h, struct tt_self_hist_sums *out);

#endif /* TT_THREAD_ROWS_H */
