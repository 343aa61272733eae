/*
 * callers_merge.c - TSC_CALLERS sites of exited threads.
 *
 * An exiting thread's call sites are merged into per-function lists (under the thread lock,
 * like its other counters); the report (callers_report.c) reads those lists with the live
 * threads' tables. In a fork child every site is forgotten.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/chunked.h"
#include "base/sys.h"
#include "hook/funcs.h"
#include "runtime/callers_merge.h"
#include "runtime/func_stats_merge.h"

/* struct tt_merged_site * lists by function, under tt_thread_lock. */
static struct tt_chunked merged;

/* Where function func's list starts; NULL when it cannot be made (out of memory). */
static struct tt_merged_site **list_of(uint32_t func, bool make)
{
	if (make && tt_chunked_reserve(&merged, (uint64_t)func + 1, sizeof(void *)) < 0)
		return NULL;
	return tt_chunked_at(&merged, func, sizeof(void *));
}

bool tt_callers_same_site(const struct tt_site *a, const struct tt_site *b)
{
	return a->key == b->key && a->depth == b->depth &&
	       memcmp(a->ips, b->ips, a->depth * sizeof(a->ips[0])) == 0;
}

static void merge_site(uint32_t func, const struct tt_site *s)
{
	struct tt_merged_site *m, **list = list_of(func, true);

	if (!list)
		return;
	for (m = *list; m; m = m->next)
		if (tt_callers_same_site(&m->site, s))
			break;
	if (!m) {
		m = calloc(1, sizeof(*m));
		if (!m)
			return;
		m->site = *s;
		m->site.stat = tt_func_stats_new(func);
		if (!m->site.stat) {
			free(m);
			return;
		}
		m->next = *list;
		*list = m;
	}
	tt_func_stats_merge(m->site.stat, s->stat);
}

void tt_callers_each_site(struct tt_site_table *tab, void (*fn)(const struct tt_site *s, void *ctx),
			  void *ctx)
{
	unsigned int i;

	for (i = 0; i < TT_SITES; i++)
		if (__atomic_load_n(&tab->sites[i].key, __ATOMIC_ACQUIRE))
			fn(&tab->sites[i], ctx);
	if (__atomic_load_n(&tab->other.key, __ATOMIC_ACQUIRE))
		fn(&tab->other, ctx);
	if (__atomic_load_n(&tab->unknown.key, __ATOMIC_ACQUIRE))
		fn(&tab->unknown, ctx);
}

struct merge_ctx {
	uint32_t func;
};

static void merge_and_free(const struct tt_site *s, void *arg)
{
	struct merge_ctx *c = arg;

	merge_site(c->func, s);
	tt_func_stats_free(s->stat);
}

void tt_callers_merge_thread(struct tt_thread *t)
{
	uint32_t i;

	for (i = 0; i < t->nstats; i++) {
		struct merge_ctx c = { i };

		if (!t->sites[i])
			continue;
		tt_callers_each_site(t->sites[i], merge_and_free, &c);
		tt_sys_munmap(t->sites[i], sizeof(*t->sites[i]));
		t->sites[i] = NULL;
	}
}

static void free_site(const struct tt_site *s, void *arg)
{
	(void)arg;
	tt_func_stats_free(s->stat);
}

void tt_callers_after_fork_child(struct tt_thread *self)
{
	uint32_t i, n = tt_funcs_count();

	for (i = 0; i < n; i++) {
		struct tt_merged_site **list = list_of(i, false);

		while (list && *list) {
			struct tt_merged_site *m = *list;

			*list = m->next;
			tt_func_stats_free(m->site.stat);
			free(m);
		}
	}
	for (i = 0; self && i < self->nstats; i++) {
		if (self->sites[i]) {
			tt_callers_each_site(self->sites[i], free_site, NULL);
			tt_sys_munmap(self->sites[i], sizeof(*self->sites[i]));
			self->sites[i] = NULL;
		}
	}
}

const struct tt_merged_site *tt_callers_merged(uint32_t func)
{
	struct tt_merged_site **list = list_of(func, false);

	return list ? *list : NULL;
}
