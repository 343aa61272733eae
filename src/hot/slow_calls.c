/*
 * slow_calls.c - keeping each function's slowest timed calls (slow_calls.h). Hot path:
 * general registers, no libc.
 */
#include "hot/slow_calls.h"

#include <stddef.h>

uint32_t tt_slow_capacity;
uint64_t tt_slow_threshold;

uint64_t tt_slow_initial_floor(const struct tt_func_stats *s)
{
	if (!s->slow || s->func == 0) /* index 0 is the overhead calibration's */
		return UINT64_MAX;
	return tt_slow_threshold;
}

static uint32_t fastest(const struct tt_slow_list *l)
{
	uint32_t i, m = 0;

	for (i = 1; i < l->n; i++)
		if (l->calls[i].raw < l->calls[m].raw)
			m = i;
	return m;
}

/* Room for one more call slower than the fastest kept: its slot, or NULL (counted). */
static struct tt_slow_call *slot_for(struct tt_slow_list *l, uint64_t raw)
{
	struct tt_slow_call *c;

	if (l->n < tt_slow_capacity) {
		c = &l->calls[l->n++];
		if (l->n == 1 || raw < l->calls[l->min].raw)
			l->min = (uint32_t)(c - l->calls);
		return c;
	}
	/* Full. Under TSC_SLOWER_THAN, every call above it that is not kept is counted. */
	if (tt_slow_threshold)
		l->not_kept++;
	if (raw <= l->calls[l->min].raw)
		return NULL;
	return &l->calls[l->min];
}

/* After a write into a full list: the fastest kept changed. */
static void settle(struct tt_slow_list *l, struct tt_slow_call *c)
{
	if (l->n == tt_slow_capacity && c == &l->calls[l->min])
		l->min = fastest(l);
}

static uint64_t floor_of(const struct tt_slow_list *l)
{
	if (tt_slow_threshold || l->n < tt_slow_capacity)
		return tt_slow_threshold;
	return l->calls[l->min].raw;
}

void tt_slow_keep(struct tt_func_stats *s, const struct tt_frame *f, uint64_t raw, uint32_t cpu,
		  struct tt_thread *t, const uint64_t *path, uint32_t depth)
{
	struct tt_slow_list *l = s->slow;
	struct tt_slow_call *c;
	uint32_t i;
	int all;

	if (!l || raw <= floor_of(l))
		return;
	c = slot_for(l, raw);
	if (c) {
		c->raw = raw;
		c->start = f->start_ticks;
		for (i = 0; i < 6; i++)
			c->args[i] = f->args[i];
		c->ret = f->retval;
		c->tid = t->tid;
		c->nswitches = tt_offcpu_latest(t, c->switches, TT_OFFCPU_SWITCHES, &all);
		c->all_switches = (uint32_t)all;
		c->cpu = cpu;
		c->depth = path ? depth : 0;
		for (i = 0; i < c->depth && i < TT_PATH_MAX; i++)
			c->path[i] = path[i];
		settle(l, c);
	}
	/* A thread's switch records from its first call slow enough to be worth them (opening
	 * them costs ~0.1 ms here: not for every short-lived thread); that call has none. */
	if (!t->offcpu_ring && !t->offcpu_tried && raw >= TT_OFFCPU_WORTH) {
		t->offcpu_tried = 1;
		tt_offcpu_open(t);
	}
	if (!s->watch) /* TSC_ARGS: every call comes to C anyway */
		__atomic_store_n(&s->slow_floor, floor_of(l), __ATOMIC_RELAXED);
}

/* Word by word: no memcpy in the hot path's objects. */
static void copy_call(struct tt_slow_call *to, const struct tt_slow_call *from)
{
	volatile uint64_t *d = (volatile uint64_t *)to;
	const uint64_t *s = (const uint64_t *)from;
	size_t i;

	for (i = 0; i < sizeof(*to) / sizeof(uint64_t); i++)
		d[i] = s[i];
}

void tt_slow_merge(struct tt_slow_list *dst, const struct tt_slow_list *src)
{
	uint32_t i;

	if (!dst || !src)
		return;
	dst->not_kept += src->not_kept;
	for (i = 0; i < src->n; i++) {
		struct tt_slow_call *c;

		if (dst->n < tt_slow_capacity) {
			c = &dst->calls[dst->n++];
		} else {
			if (tt_slow_threshold)
				dst->not_kept++;
			if (src->calls[i].raw <= dst->calls[dst->min].raw)
				continue;
			c = &dst->calls[dst->min];
		}
		copy_call(c, &src->calls[i]);
		dst->min = fastest(dst);
	}
}
