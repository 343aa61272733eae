/*
 * self_hist.c - the cold half of the self-time histogram (self_hist.h): edges, merge, and the
 * distribution over all calls at report time. Pure: no globals, no I/O.
 */
#include <string.h>

#include "report/self_hist.h"
#include "report/stats.h"

static inline uint64_t load(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

uint64_t tt_self_bucket_low(uint32_t i)
{
	unsigned int e;

	if (i < TT_SELF_LINEAR)
		return i;
	if (i >= TT_SELF_BUCKETS)
		i = TT_SELF_BUCKETS - 1;
	e = TT_SELF_LINEAR_BITS + ((i - TT_SELF_LINEAR) >> TT_SELF_SUB_BITS);
	return (uint64_t)(TT_SELF_SUB + ((i - TT_SELF_LINEAR) & (TT_SELF_SUB - 1)))
	       << (e - TT_SELF_SUB_BITS);
}

uint64_t tt_self_bucket_high(uint32_t i)
{
	if (i >= TT_SELF_BUCKETS - 1)
		return UINT64_MAX; /* the last bucket holds everything from 2^48 up */
	return tt_self_bucket_low(i + 1) - 1;
}

void tt_self_merge(struct tt_self_hist *dst, const struct tt_self_hist *src)
{
	uint64_t n = load(&src->count), v;
	uint32_t i;

	/* Nothing recorded (every writer adds to count or lost): its buckets are left unread, in
	 * a thread's counters untouched pages that a read would fault in as zero pages. */
	if (!n && !load(&src->lost))
		return;
	for (i = 0; i < TT_SELF_BUCKETS; i++) {
		if ((v = load(&src->b[i].self)))
			dst->b[i].self += v;
		if ((v = load(&src->b[i].whole)))
			dst->b[i].whole += v;
		if ((v = load(&src->b[i].early)))
			dst->b[i].early += v;
		if ((v = load(&src->b[i].nested)))
			dst->b[i].nested += v;
	}
	if (n) {
		if (dst->count == 0 || load(&src->min) < dst->min)
			dst->min = load(&src->min);
		if (load(&src->max) > dst->max)
			dst->max = load(&src->max);
	}
	if ((v = load(&src->early))) {
		if (dst->early == 0 || load(&src->early_min) < dst->early_min)
			dst->early_min = load(&src->early_min);
		if (load(&src->early_max) > dst->early_max)
			dst->early_max = load(&src->early_max);
		dst->early += v;
	}
	dst->count += n;
	dst->total += load(&src->total);
	dst->nested += load(&src->nested);
	dst->whole_total += load(&src->whole_total);
	dst->lost += load(&src->lost);
}

static uint64_t sub_floor(uint64_t v, uint64_t s)
{
	return v > s ? v - s : 0;
}

/* a - b, floored at 0. */
static uint64_t minus(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

uint64_t tt_self_leaf_back(const struct tt_hist *all, const struct tt_self_hist *self, uint64_t sub)
{
	uint64_t back = 0, amin = load(&all->min), amax = load(&all->max);
	uint32_t k;

	if (!load(&all->count) || amin >= sub)
		return 0;
	/* Each coarse self bucket spans whole buckets of `all`; the calls in it that made
	 * traced calls (`whole`) are taken from its longest readings first: each holds a whole
	 * traced call besides its own work. The rest are leaf calls. */
	for (k = tt_self_index(amin); k < TT_SELF_BUCKETS && tt_self_bucket_low(k) < sub; k++) {
		uint64_t whole = load(&self->b[k].whole);
		uint64_t hi = tt_self_bucket_high(k) < amax ? tt_self_bucket_high(k) : amax;
		uint32_t lo = tt_hist_index(tt_self_bucket_low(k)), i = tt_hist_index(hi);

		for (;; i--) {
			uint64_t c = load(&all->counts[i]), recorded = c < whole ? c : whole;

			whole -= recorded;
			if (tt_hist_bucket_low(i) < sub)
				back += (c - recorded) * tt_stats_bucket_back(i, sub);
			if (i <= lo)
				break;
		}
	}
	return back;
}

uint64_t tt_self_total(uint64_t timed, uint64_t raw_total, const struct tt_self_hist *self,
		       uint64_t sub, uint64_t nested_cost, uint64_t leaf_back)
{
	uint64_t n = load(&self->count), lost = load(&self->lost);
	uint64_t leaves = minus(timed, n + lost);
	uint64_t leaf = minus(minus(raw_total, load(&self->whole_total)) + leaf_back, leaves * sub);
	uint64_t inner = minus(load(&self->total), n * sub + load(&self->nested) * nested_cost);

	return leaf + inner;
}

/* Put count samples of value v (already shifted) into h. */
static void put(struct tt_hist *h, uint64_t v, uint64_t count)
{
	if (!count)
		return;
	h->counts[tt_hist_index(v)] += count;
	h->count += count;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

/* What the traced calls made by the early calls of self bucket i cost them beyond their
 * readings, per call: at the mean number those calls made (a sum of weights over a sum of
 * weights alike when weighted). */
static uint64_t bucket_shift(const struct tt_self_hist *self, uint32_t i, uint64_t nested_cost)
{
	uint64_t calls = load(&self->b[i].early);

	return calls ? (load(&self->b[i].nested) * nested_cost + calls / 2) / calls : 0;
}

static uint64_t clamp(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v > hi ? hi : v < lo ? lo : v;
}

/* The calls of self bucket i at the middle of the bucket (within 6.25% either way), clamped
 * to the extremes known exactly (the early ones to their own, which stay put once the cost is
 * known), the early ones less their bucket's nested cost. The largest is known exactly: with
 * exact_max, one call of its bucket there (weighted: the extreme alone, as its call's weight
 * is not known). */
static void put_recorded(const struct tt_self_hist *self, uint32_t i, uint64_t nested_cost,
			 bool exact_max, struct tt_hist *out)
{
	uint64_t lo = tt_self_bucket_low(i), hi = tt_self_bucket_high(i), mid = lo + (hi - lo) / 2;
	uint64_t smax = load(&self->max), emax = load(&self->early_max);
	uint64_t placed = load(&self->b[i].self), early = load(&self->b[i].early);
	uint64_t shift = bucket_shift(self, i, nested_cost);

	if (!placed && !early)
		return;
	if (i == tt_self_index(smax)) {
		/* The largest key is an early call's, or one placed for good. */
		bool is_early = early && emax == smax;
		uint64_t top = is_early ? sub_floor(smax, shift) : smax;

		/* (a snapshot of a live thread's counts may not have the call yet) */
		if (exact_max && (is_early ? early : placed)) {
			put(out, top, 1);
			if (is_early)
				early--;
			else
				placed--;
		} else if (!exact_max && top > out->max) {
			out->max = top;
		}
	}
	put(out, clamp(mid, load(&self->min), smax), placed);
	put(out, sub_floor(clamp(mid, load(&self->early_min), emax), shift), early);
}

/* exact_max: one call of the largest's bucket at its exact value; not for weighted
 * histograms, where a count is a sum of weights and the largest call's is not known. */
static uint64_t distribution(const struct tt_hist *all, const struct tt_self_hist *self,
			     uint64_t sub, uint64_t nested_cost, struct tt_hist *out,
			     bool exact_max)
{
	uint64_t leaf[TT_SELF_BUCKETS]; /* 3.2 KiB of stack */
	uint64_t n = load(&self->count), amin = load(&all->min);
	uint64_t amax = load(&all->max), smin = load(&self->min);
	uint32_t i, first = 0, last = 0;
	bool any_leaf = false;

	tt_hist_init(out);
	memset(leaf, 0, sizeof(leaf));
	/* Only the buckets from the least to the largest call can hold any (hist.c). */
	if (amin <= amax) {
		first = tt_hist_index(amin);
		last = tt_hist_index(amax) + 1;
	}
	for (i = first; i < last && i < TT_HIST_BUCKETS; i++) {
		uint64_t c = load(&all->counts[i]);

		if (c)
			leaf[tt_self_index(tt_hist_bucket_low(i))] += c;
	}
	for (i = 0; i < TT_SELF_BUCKETS; i++) {
		leaf[i] = minus(leaf[i], load(&self->b[i].whole));
		any_leaf |= leaf[i] > 0;
	}
	/* Where no call that made traced calls fell, the leaf calls are the full histogram's
	 * own buckets: kept at its resolution (all of it for a function that made none). */
	for (i = first; i < last && i < TT_HIST_BUCKETS; i++) {
		uint64_t c = load(&all->counts[i]), v;
		uint32_t k;

		if (!c)
			continue;
		k = tt_self_index(tt_hist_bucket_low(i));
		if (load(&self->b[k].whole))
			continue;
		v = tt_hist_bucket_high(i);
		v = v > amax ? amax : v < amin ? amin : v;
		put(out, v, c);
		leaf[k] = 0;
	}
	/* The rest at the middle of their coarse buckets (within 6.25% either way), clamped to
	 * the extremes known exactly. */
	for (i = 0; i < TT_SELF_BUCKETS; i++) {
		uint64_t lo = tt_self_bucket_low(i), hi = tt_self_bucket_high(i);
		uint64_t mid = lo + (hi - lo) / 2;

		if (leaf[i])
			put(out, mid > amax ? amax : mid < amin ? amin : mid, leaf[i]);
		put_recorded(self, i, nested_cost, exact_max, out);
	}
	/* The smallest self is the smaller of the recorded calls' least and, when leaf calls
	 * exist, the least of all calls (a call that made traced calls has self below its
	 * total): exact either way, unless early calls of another bucket, less their nested
	 * cost, were placed below it (then that placement stands: min stays below every call). */
	if (out->count) {
		uint32_t k = tt_self_index(smin);
		uint64_t lo = UINT64_MAX;

		/* the least: an early call's less its bucket's cost, or one placed for good */
		if (n && load(&self->early) && load(&self->early_min) == smin)
			lo = sub_floor(smin, bucket_shift(self, k, nested_cost));
		else if (n)
			lo = smin;

		if (any_leaf && amin < lo)
			lo = amin;
		if (lo < out->min)
			out->min = lo;
	}
	return tt_self_total(load(&all->count), load(&all->total), self, sub, nested_cost,
			     tt_self_leaf_back(all, self, sub));
}

uint64_t tt_self_distribution(const struct tt_hist *all, const struct tt_self_hist *self,
			      uint64_t sub, uint64_t nested_cost, struct tt_hist *out)
{
	return distribution(all, self, sub, nested_cost, out, true);
}

uint64_t tt_self_distribution_weighted(const struct tt_hist *all, const struct tt_self_hist *self,
				       uint64_t sub, uint64_t nested_cost, struct tt_hist *out)
{
	return distribution(all, self, sub, nested_cost, out, false);
}
