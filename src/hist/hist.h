/*
 * hist.h - log-linear latency histogram (HdrHistogram-style), one per function per thread.
 *
 * Values below TT_HIST_LINEAR (1024 ticks) get a bucket each, so every statistic there is
 * exact; above, each power of two splits into 128 equal buckets, so a bucket is at most 1/128
 * (0.8%) of its low edge wide. 7,936 buckets cover the whole 64-bit range. The counts array is
 * 62 KiB of address space but only the pages of buckets actually hit become resident (the shim
 * maps it anonymously), typically 2-3 pages per function per thread.
 *
 * Recording is on the hot path: tt_hist_record() is inline, branch-light, touches no vector
 * register (traced_call.c builds with -mgeneral-regs-only) and calls nothing. A histogram has a single
 * writer (its thread); readers (the merger, the report) may read it concurrently and accept a
 * slightly stale view: counters are written with relaxed atomic stores so that is well defined.
 */
#ifndef TT_HIST_H
#define TT_HIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TT_HIST_LINEAR_BITS 10
#define TT_HIST_LINEAR (1u << TT_HIST_LINEAR_BITS) /* exact below this many ticks */
#define TT_HIST_SUB_BITS 7
#define TT_HIST_SUB (1u << TT_HIST_SUB_BITS) /* buckets per power of two above */
#define TT_HIST_BUCKETS (TT_HIST_LINEAR + (64 - TT_HIST_LINEAR_BITS) * TT_HIST_SUB)

struct tt_hist {
	uint64_t count;			  /* samples recorded */
	uint64_t min;			  /* exact; UINT64_MAX while empty */
	uint64_t max;			  /* exact; 0 while empty */
	uint64_t total;			  /* exact sum of samples */
	uint64_t counts[TT_HIST_BUCKETS]; /* samples per bucket */
};

/* Bucket index of a value: the value itself below 1024, then 128 buckets per octave. */
static inline uint32_t tt_hist_index(uint64_t v)
{
	unsigned int e, sub;

	if (v < TT_HIST_LINEAR)
		return (uint32_t)v;
	e = 63 - (unsigned int)__builtin_clzll(v);
	sub = (unsigned int)(v >> (e - TT_HIST_SUB_BITS)) & (TT_HIST_SUB - 1);
	return TT_HIST_LINEAR + ((e - TT_HIST_LINEAR_BITS) << TT_HIST_SUB_BITS) + sub;
}

/* Owner-only update: relaxed load and store, no lock prefix (see file comment). */
#define TT_OWNER_ADD(field, n)                                                        \
	__atomic_store_n(&(field), __atomic_load_n(&(field), __ATOMIC_RELAXED) + (n), \
			 __ATOMIC_RELAXED)

/* Record sample v as standing for w samples (a sampled call weighted by its period). Hot
 * path: no calls, no vector registers. */
static inline void tt_hist_record_weighted(struct tt_hist *h, uint64_t v, uint64_t w)
{
	TT_OWNER_ADD(h->counts[tt_hist_index(v)], w);
	TT_OWNER_ADD(h->count, w);
	TT_OWNER_ADD(h->total, w * v);
	if (v < __atomic_load_n(&h->min, __ATOMIC_RELAXED))
		__atomic_store_n(&h->min, v, __ATOMIC_RELAXED);
	if (v > __atomic_load_n(&h->max, __ATOMIC_RELAXED))
		__atomic_store_n(&h->max, v, __ATOMIC_RELAXED);
}

/* Record one sample. */
static inline void tt_hist_record(struct tt_hist *h, uint64_t v)
{
	tt_hist_record_weighted(h, v, 1);
}

/* Make h empty. h may be freshly mapped zero memory; only min needs a non-zero value. Its
 * buckets must lie between its min and max, as recording and merging keep them; only those
 * are looked at. */
void tt_hist_init(struct tt_hist *h);

/* Lowest and highest value that fall into bucket i (i < TT_HIST_BUCKETS). */
uint64_t tt_hist_bucket_low(uint32_t i);
uint64_t tt_hist_bucket_high(uint32_t i);

/* Add every sample of src to dst (exact: counts, min, max, total). */
void tt_hist_merge(struct tt_hist *dst, const struct tt_hist *src);

/*
 * Value of the sample of rank `rank` (1 = smallest, h->count = largest): exact below 1024,
 * otherwise the high edge of its bucket clamped to [min, max], so within 1% above.
 * Returns 0 for an empty histogram or a rank of 0; a rank past count gives max.
 */
uint64_t tt_hist_value_at_rank(const struct tt_hist *h, uint64_t rank);

/* Nearest-rank percentile: value at rank ceil(p / 100 * count), at least rank 1. p in [0, 100]. */
uint64_t tt_hist_percentile(const struct tt_hist *h, double p);

/* Nearest-rank percentile in ten-thousandths (9990: p99.9): rank ceil(pm * count / 10000),
 * at least 1, in integers, so that p99.9 of 1,000 samples is exactly rank 999. pm <= 10000. */
uint64_t tt_hist_permyriad(const struct tt_hist *h, uint32_t pm);

/* Greatest common divisor of all recorded values below 1024 (exact buckets); 0 if none. */
uint64_t tt_hist_gcd_exact(const struct tt_hist *h);

#endif /* TT_HIST_H */
