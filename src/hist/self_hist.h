/*
 * self_hist.h - self time (a call's ticks less those of the traced calls it made), kept per
 * function per thread beside the full histogram, in a coarser one.
 *
 * Only calls that made traced calls are recorded here: a leaf call's self time is its
 * total, already in the full histogram, so the common path pays nothing more. To rebuild the
 * distribution over all calls at report time, the totals of the recorded calls go into a
 * second array (`whole`) with the same buckets: leaf calls = the full histogram, coarsened,
 * less `whole`, bucket by bucket (exact: every full bucket lies inside one coarse bucket).
 *
 * What a traced call costs its caller beyond its own reading (overhead.nested) is measured
 * with the first report, not before (nothing is timed at start-up). A call recorded once it
 * is known has it taken off its own self and is placed for good (`self`); one recorded before
 * waits in `early`, its bucket summing the traced calls such calls made (`nested`), and the
 * report takes the cost off each bucket's early calls at that bucket's own mean. Never at the
 * function's mean: calls that make 1 or 300 traced calls by turns (a server's command loop)
 * would each lose the cost of 150, the short ones' self read as 0, and calls already reported
 * would move at every dump as the mix changed.
 *
 * Buckets: exact below 64 ticks, then 8 per power of two (a bucket is at most 12.5% of its
 * low edge wide) up to 2^48 ticks (a day at 3 GHz), above which one last bucket holds all
 * (max stays exact). 400 buckets of four counts and the header: 12,880 bytes per function
 * per thread of address space. The counts of a bucket lie side by side, so that a function
 * whose calls are short touches one page here, not one per array; and nothing here is written
 * until a call made traced calls (`min` is meaningful only once `count` is not 0), so a leaf
 * function touches none of it. Self time is a difference
 * of two readings, each already uncertain by the granularity and the overhead's spread, so
 * 12.5% buckets for its percentiles lose little; its total is summed exactly.
 *
 * Hot path: tt_self_record is inline, general registers only.
 */
#ifndef TT_SELF_HIST_H
#define TT_SELF_HIST_H

#include <stdint.h>

#include "hist/hist.h"

#define TT_SELF_LINEAR_BITS 6
#define TT_SELF_LINEAR (1u << TT_SELF_LINEAR_BITS)
#define TT_SELF_SUB_BITS 3
#define TT_SELF_SUB (1u << TT_SELF_SUB_BITS)
#define TT_SELF_TOP_BITS 48
#define TT_SELF_BUCKETS (TT_SELF_LINEAR + (TT_SELF_TOP_BITS - TT_SELF_LINEAR_BITS) * TT_SELF_SUB)

struct tt_self_hist {
	uint64_t count;	 /* calls recorded: timed, and made traced calls whose times are known */
	uint64_t min;	 /* of the recorded keys (below); meaningless (0 in fresh memory) while
			  * count is 0 */
	uint64_t max;	 /* of the recorded keys */
	uint64_t total;	 /* sum of self ticks (raw: no overhead removed) */
	uint64_t nested; /* traced calls these calls made: each one's overhead is removed later */
	uint64_t whole_total; /* sum of the total ticks of the calls in `whole` */
	uint64_t lost;	      /* timed calls whose self time is unknown: a traced call they made
			       * migrated or was left by longjmp (their totals are in whole) */
	uint64_t early;	      /* of count, the calls recorded before the nested cost was known */
	uint64_t early_min;   /* their least and greatest key (meaningless while early is 0) */
	uint64_t early_max;
	struct tt_self_bucket {
		uint64_t self;	 /* calls recorded with the nested cost known: their self less it
				  * (their key) falls here */
		uint64_t whole;	 /* recorded and lost calls whose total ticks fall here */
		uint64_t early;	 /* calls recorded before: their self (their key) falls here */
		uint64_t nested; /* traced calls made by the `early` calls */
	} b[TT_SELF_BUCKETS];
};

/* Coarse bucket of v. */
static inline uint32_t tt_self_index(uint64_t v)
{
	unsigned int e;

	if (v < TT_SELF_LINEAR)
		return (uint32_t)v;
	e = 63 - (unsigned int)__builtin_clzll(v);
	if (e >= TT_SELF_TOP_BITS)
		return TT_SELF_BUCKETS - 1;
	return TT_SELF_LINEAR + ((e - TT_SELF_LINEAR_BITS) << TT_SELF_SUB_BITS) +
	       ((unsigned int)(v >> (e - TT_SELF_SUB_BITS)) & (TT_SELF_SUB - 1));
}

/*
 * A timed call of `raw` ticks that made `nested` traced calls taking `child` ticks, standing
 * for w calls (1; under sampling the period that chose it: every count and sum added w times,
 * min and max as they are). cost: what a traced call costs its caller beyond its reading
 * (overhead.nested) once measured, else 0. Known, it is taken off this call's own self
 * here, which places the call for good (`self`); unknown, the call waits for it among the
 * `early` ones, its traced calls counted in its bucket. Owner only (see hist.h).
 */
static inline void tt_self_put(struct tt_self_hist *h, uint64_t raw, uint64_t child,
			       uint64_t nested, uint64_t cost, uint64_t w)
{
	uint64_t self = raw > child ? raw - child : 0;
	uint64_t key = self > nested * cost ? self - nested * cost : 0;
	uint64_t before = __atomic_load_n(&h->count, __ATOMIC_RELAXED);
	struct tt_self_bucket *b = &h->b[tt_self_index(key)];

	TT_OWNER_ADD(h->b[tt_self_index(raw)].whole, w);
	TT_OWNER_ADD(h->whole_total, raw * w);
	if (cost) {
		TT_OWNER_ADD(b->self, w);
	} else {
		uint64_t early = __atomic_load_n(&h->early, __ATOMIC_RELAXED);

		TT_OWNER_ADD(b->early, w);
		TT_OWNER_ADD(b->nested, nested * w);
		if (early == 0 || key < __atomic_load_n(&h->early_min, __ATOMIC_RELAXED))
			__atomic_store_n(&h->early_min, key, __ATOMIC_RELAXED);
		if (key > __atomic_load_n(&h->early_max, __ATOMIC_RELAXED))
			__atomic_store_n(&h->early_max, key, __ATOMIC_RELAXED);
		TT_OWNER_ADD(h->early, w);
	}
	/* min first: a reader that sees the count sees a min of a recorded call. */
	if (before == 0 || key < __atomic_load_n(&h->min, __ATOMIC_RELAXED))
		__atomic_store_n(&h->min, key, __ATOMIC_RELAXED);
	TT_OWNER_ADD(h->count, w);
	TT_OWNER_ADD(h->total, self * w);
	TT_OWNER_ADD(h->nested, nested * w);
	if (key > __atomic_load_n(&h->max, __ATOMIC_RELAXED))
		__atomic_store_n(&h->max, key, __ATOMIC_RELAXED);
}

static inline void tt_self_record(struct tt_self_hist *h, uint64_t raw, uint64_t child,
				  uint64_t nested, uint64_t cost)
{
	tt_self_put(h, raw, child, nested, cost, 1);
}

/* A timed call whose self time is unknown: its total still leaves the leaf calls. */
static inline void tt_self_lose(struct tt_self_hist *h, uint64_t raw)
{
	TT_OWNER_ADD(h->b[tt_self_index(raw)].whole, 1);
	TT_OWNER_ADD(h->whole_total, raw);
	TT_OWNER_ADD(h->lost, 1);
}

/* Sampling: tt_self_record / tt_self_lose for a timed call that stands for w calls. With the
 * histogram weighted alike as `all`, tt_self_distribution then estimates every call's. */
static inline void tt_self_record_weighted(struct tt_self_hist *h, uint64_t raw, uint64_t child,
					   uint64_t nested, uint64_t cost, uint64_t w)
{
	tt_self_put(h, raw, child, nested, cost, w);
}

static inline void tt_self_lose_weighted(struct tt_self_hist *h, uint64_t raw, uint64_t w)
{
	TT_OWNER_ADD(h->b[tt_self_index(raw)].whole, w);
	TT_OWNER_ADD(h->whole_total, raw * w);
	TT_OWNER_ADD(h->lost, w);
}

/* Lowest and highest value of coarse bucket i. */
uint64_t tt_self_bucket_low(uint32_t i);
uint64_t tt_self_bucket_high(uint32_t i);

/* Add src into dst (dst's min may be anything while its count is 0). */
void tt_self_merge(struct tt_self_hist *dst, const struct tt_self_hist *src);

#endif /* TT_SELF_HIST_H */
