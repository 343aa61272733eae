/*
 * by_arg.c - TSC_ARGS: calls filed by an argument's value (by_arg.h). Hot path: general
 * registers, no libc.
 */
#include "hot/by_arg.h"

struct tt_arg_watch tt_arg_watches[TT_ARG_WATCH_MAX];
uint32_t tt_arg_nwatches;

const struct tt_arg_watch *tt_arg_watch_of(uint32_t func)
{
	uint32_t i, n = __atomic_load_n(&tt_arg_nwatches, __ATOMIC_ACQUIRE);

	for (i = 0; i < n; i++)
		if (tt_arg_watches[i].func == func)
			return &tt_arg_watches[i];
	return NULL;
}

uint32_t tt_arg_bucket_of(uint64_t v)
{
	return v ? 64 - (uint32_t)__builtin_clzll(v) : 0;
}

uint32_t tt_arg_hist_index(uint64_t raw)
{
	uint32_t e;

	if (raw < (1u << TT_ARG_SUB_BITS))
		return (uint32_t)raw;
	e = 63 - (uint32_t)__builtin_clzll(raw); /* >= SUB_BITS */
	return ((e - TT_ARG_SUB_BITS + 1) << TT_ARG_SUB_BITS) +
	       (uint32_t)((raw >> (e - TT_ARG_SUB_BITS)) & ((1u << TT_ARG_SUB_BITS) - 1));
}

uint64_t tt_arg_hist_low(uint32_t i)
{
	uint32_t e = i >> TT_ARG_SUB_BITS, m = i & ((1u << TT_ARG_SUB_BITS) - 1);

	if (e == 0)
		return m;
	return ((uint64_t)((1u << TT_ARG_SUB_BITS) | m)) << (e - 1);
}

uint64_t tt_arg_hist_high(uint32_t i)
{
	return i + 1 < TT_ARG_HIST ? tt_arg_hist_low(i + 1) - 1 : UINT64_MAX;
}

int tt_arg_matches(const struct tt_arg_watch *w, const struct tt_frame *f)
{
	uint64_t v = f->args[w->k - 1];

	if (w->op == TT_ARG_GE)
		return v >= w->n;
	if (w->op == TT_ARG_EQ)
		return v == w->n;
	return 1;
}

void tt_arg_record(struct tt_by_arg *t, const struct tt_arg_watch *w, const struct tt_frame *f,
		   int timed, uint64_t raw)
{
	struct tt_arg_bucket *b = &t->b[tt_arg_bucket_of(f->args[w->k - 1])];

	b->calls++;
	if (!timed)
		return;
	b->timed++;
	if (!b->min || raw + 1 < b->min)
		b->min = raw + 1; /* + 1: 0 means none */
	if (raw > b->max)
		b->max = raw;
	b->counts[tt_arg_hist_index(raw)]++;
}

void tt_arg_merge(struct tt_by_arg *dst, const struct tt_by_arg *src)
{
	uint32_t i, j;

	if (!dst || !src)
		return;
	dst->filtered += src->filtered;
	for (i = 0; i < TT_ARG_BUCKETS; i++) {
		const struct tt_arg_bucket *s = &src->b[i];
		struct tt_arg_bucket *d = &dst->b[i];

		if (!s->calls)
			continue; /* untouched: its pages stay unmapped */
		d->calls += s->calls;
		d->timed += s->timed;
		if (s->min && (!d->min || s->min < d->min))
			d->min = s->min;
		if (s->max > d->max)
			d->max = s->max;
		for (j = 0; j < TT_ARG_HIST; j++)
			if (s->counts[j])
				d->counts[j] += s->counts[j];
	}
}
