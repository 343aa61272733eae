/*
 * callers.c - per-thread call-site tables (see callers.h). Runs in tt_call_exit, after the
 * second TSC read: built like traced_call.c, general registers and raw syscalls only.
 */
#include <sys/mman.h>

#include "base/sys.h"
#include "hot/callers.h"

uint32_t tt_callers_depth;
uintptr_t tt_callers_landing_lo, tt_callers_landing_hi;

const struct tt_frame *tt_callers_tail_origin(const struct tt_frame *f)
{
	const struct tt_frame *p, *base = tt_tls.thread ? tt_tls.thread->frames : f;

	if (f->ret < tt_callers_landing_lo || f->ret >= tt_callers_landing_hi)
		return NULL;
	/* The body that pushed the landing moved %rsp to its caller's, f->sp: jumps keep it. */
	for (p = f - 1; p >= base && p->sp <= f->sp; p--)
		if (p->sp == f->sp)
			return p;
	return NULL;
}

uint64_t tt_callers_caller(const struct tt_frame *f)
{
	const struct tt_frame *p = tt_callers_tail_origin(f);

	return p ? TT_TAIL_FRAME | p->func : f->ret;
}

static uint64_t path_key(const uint64_t *ips, uint32_t depth)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a over the addresses */
	uint32_t i;

	if (depth == 1)
		return ips[0] > TT_SITE_UNKNOWN ? ips[0] : TT_SITE_UNKNOWN + 1;
	for (i = 0; i < depth; i++)
		h = (h ^ ips[i]) * 1099511628211ull;
	return h > TT_SITE_UNKNOWN ? h : h + TT_SITE_UNKNOWN + 1;
}

static bool same_path(const struct tt_site *s, const uint64_t *ips, uint32_t depth)
{
	uint32_t i;

	if (s->depth != depth)
		return false;
	for (i = 0; i < depth; i++)
		if (s->ips[i] != ips[i])
			return false;
	return true;
}

static struct tt_site_table *table(struct tt_thread *t, uint32_t func)
{
	struct tt_site_table *tab;

	if (func >= t->nstats) /* a frame of no counters of this thread (fork's sink) */
		return NULL;
	tab = t->sites[func];
	if (!tab) {
		tab = tt_sys_mmap(NULL, sizeof(*tab), PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
		if (tab)
			__atomic_store_n(&t->sites[func], tab, __ATOMIC_RELEASE);
	}
	return tab;
}

/* Give site s its counters, then publish its key: readers skip slots with key 0. */
static struct tt_func_stats *claim(struct tt_site *s, uint32_t func, uint64_t key,
				   const uint64_t *ips, uint32_t depth)
{
	uint32_t i;

	if (!s->stat) {
		s->stat = tt_func_stats_new(func);
		if (!s->stat)
			return NULL;
		s->stat->warm = 1; /* a site's cold call is its function's: counted there */
		s->depth = depth;
		for (i = 0; i < depth && ips; i++)
			s->ips[i] = ips[i];
		__atomic_store_n(&s->key, key, __ATOMIC_RELEASE);
	}
	return s->stat;
}

struct tt_func_stats *tt_callers_site(struct tt_thread *t, uint32_t func, const uint64_t *ips,
				      uint32_t depth)
{
	struct tt_site_table *tab = table(t, func);
	uint64_t key = path_key(ips, depth);
	uint32_t i, slot;

	for (i = 0; i < depth && i < TT_PATH_MAX && ips; i++) /* for a kept slow call */
		t->site_path[i] = ips[i];
	t->site_depth = i;
	if (!tab)
		return NULL;
	slot = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 58); /* 6 bits: TT_SITES */
	for (i = 0; i < TT_SITES; i++, slot = (slot + 1) % TT_SITES) {
		struct tt_site *s = &tab->sites[slot];

		if (s->key == key && same_path(s, ips, depth))
			return s->stat;
		if (!s->key)
			return claim(s, func, key, ips, depth);
	}
	return claim(&tab->other, func, TT_SITE_OTHER, NULL, 0);
}

struct tt_func_stats *tt_callers_unknown(struct tt_thread *t, uint32_t func)
{
	struct tt_site_table *tab = table(t, func);

	t->site_depth = 0;
	return tab ? claim(&tab->unknown, func, TT_SITE_UNKNOWN, NULL, 0) : NULL;
}
