/*
 * self_hist.c - the cold half of the self-time histogram (self_hist.h): bucket edges and
 * merge. The distribution over all calls at report time is report/self_dist.c. Pure: no
 * globals, no I/O.
 */
#include "hist/self_hist.h"

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
