/*
 * callers_report.c - TSC_CALLERS at thread exit and at report time.
 *
 * An exiting thread's call sites are merged into per-function lists (under the thread lock,
 * like its other counters). The report merges those lists with the live threads' tables by
 * site, names each site, and adds one more row for what no site saw (calls still running
 * when the report was taken, or too deep for the shadow stack), so that every field of the
 * rows adds up to the function's exactly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "callers.h"
#include "callers_report.h"
#include "stats.h"
#include "symbolize.h"
#include "sys.h"

#define FSTAT_BYTES ((sizeof(struct tt_fstat) + 4095) & ~(size_t)4095)

struct merged_site {
	struct tt_site site;		/* site.stat: the merged counters */
	struct merged_site *next;
};

static struct merged_site *merged[TT_MAX_FUNCS];	/* under tt_thread_lock */

static bool same_site(const struct tt_site *a, const struct tt_site *b)
{
	return a->key == b->key && a->depth == b->depth &&
	       memcmp(a->ips, b->ips, a->depth * sizeof(a->ips[0])) == 0;
}

static void merge_site(uint32_t func, const struct tt_site *s)
{
	struct merged_site *m;

	for (m = merged[func]; m; m = m->next)
		if (same_site(&m->site, s))
			break;
	if (!m) {
		m = calloc(1, sizeof(*m));
		if (!m)
			return;
		m->site = *s;
		m->site.stat = tt_fstat_new(func);
		if (!m->site.stat) {
			free(m);
			return;
		}
		m->next = merged[func];
		merged[func] = m;
	}
	tt_fstat_merge(m->site.stat, s->stat);
}

static void each_site(struct tt_site_table *tab, void (*fn)(struct tt_site *s, void *ctx),
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

static void merge_and_free(struct tt_site *s, void *arg)
{
	struct merge_ctx *c = arg;

	merge_site(c->func, s);
	tt_sys_munmap(s->stat, FSTAT_BYTES);
}

void tt_callers_merge_thread(struct tt_thread *t)
{
	uint32_t i;

	for (i = 0; i < TT_MAX_FUNCS; i++) {
		struct merge_ctx c = { i };

		if (!t->sites[i])
			continue;
		each_site(t->sites[i], merge_and_free, &c);
		tt_sys_munmap(t->sites[i], sizeof(*t->sites[i]));
		t->sites[i] = NULL;
	}
}

static void free_site(struct tt_site *s, void *arg)
{
	(void)arg;
	tt_sys_munmap(s->stat, FSTAT_BYTES);
}

void tt_callers_after_fork_child(struct tt_thread *self)
{
	uint32_t i;

	for (i = 0; i < TT_MAX_FUNCS; i++) {
		while (merged[i]) {
			struct merged_site *m = merged[i];

			merged[i] = m->next;
			tt_sys_munmap(m->site.stat, FSTAT_BYTES);
			free(m);
		}
		if (self && self->sites[i]) {
			each_site(self->sites[i], free_site, NULL);
			tt_sys_munmap(self->sites[i], sizeof(*self->sites[i]));
			self->sites[i] = NULL;
		}
	}
}

/* ---- report time ------------------------------------------------------------------------ */

struct uniq {
	struct tt_site site;
	struct tt_fstat *sum;		/* own mapping, freed after summarising */
};

struct collect_ctx {
	struct uniq *u;
	size_t n, cap;
	uint32_t func;
};

static void add_site(struct tt_site *s, void *arg)
{
	struct collect_ctx *c = arg;
	size_t i;

	for (i = 0; i < c->n; i++)
		if (same_site(&c->u[i].site, s))
			break;
	if (i == c->n) {
		if (c->n == c->cap)
			return;
		c->u[i].site = *s;
		c->u[i].sum = tt_fstat_new(c->func);
		if (!c->u[i].sum)
			return;
		c->n++;
	}
	tt_fstat_merge(c->u[i].sum, s->stat);
}

static void count_site(struct tt_site *s, void *arg)
{
	(void)s;
	((struct collect_ctx *)arg)->cap++;
}

/* "a+0x1 (x) <- b+0x2 (y)": the site's frames, innermost first, and their joined name. */
static void name_site(const struct tt_site *s, struct tt_report_caller *row, tt_alloc_fn alloc,
		      void *ctx)
{
	static const size_t frame_bytes = 320;
	char **frames = alloc(ctx, (s->depth + 1) * sizeof(char *));
	char *joined = alloc(ctx, (s->depth + 1) * (frame_bytes + 4));
	size_t i, len = 0;

	if (!frames || !joined) {
		row->site = "?";
		return;
	}
	joined[0] = 0;
	if (s->key == TT_SITE_OTHER)
		snprintf(joined, frame_bytes, "(other: more than %d sites)", TT_SITES);
	else if (s->key == TT_SITE_UNKNOWN)
		snprintf(joined, frame_bytes, "(left by longjmp or an exception: path unknown)");
	for (i = 0; i < s->depth; i++) {
		frames[i] = alloc(ctx, frame_bytes);
		if (!frames[i])
			break;
		tt_symbolize(s->ips[i], frames[i], frame_bytes);
		len += (size_t)snprintf(joined + len, frame_bytes + 4, "%s%s", i ? " <- " : "",
					frames[i]);
	}
	row->site = joined;
	row->frames = (const char *const *)frames;
	row->nframes = i;
}

static void fill_row(struct tt_report_caller *row, const struct tt_fstat *st, uint64_t subtract)
{
	row->calls = st->calls;
	row->timed = st->hist.count;
	row->unwound = st->unwound;
	row->migrated = st->migrated;
	row->dropped = st->dropped;
	tt_stats_summarise(&st->hist, subtract, &row->cycles);
}

static uint64_t less(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

size_t tt_callers_collect(uint32_t func, const struct tt_report_func *fn, uint64_t subtract,
			  tt_alloc_fn alloc, void *ctx, struct tt_report_caller **out)
{
	struct collect_ctx c = { NULL, 0, 0, func };
	struct tt_report_caller *rows, rest;
	struct merged_site *m;
	struct tt_thread *t;
	size_t i, j, n;

	tt_thread_lock();
	for (m = merged[func]; m; m = m->next)
		c.cap++;
	for (t = tt_thread_list; t; t = t->next)
		if (t->sites[func])
			each_site(t->sites[func], count_site, &c);
	c.u = c.cap ? alloc(ctx, c.cap * sizeof(*c.u)) : NULL;
	if (c.u) {
		for (m = merged[func]; m; m = m->next)
			add_site(&m->site, &c);
		for (t = tt_thread_list; t; t = t->next)
			if (t->sites[func])
				each_site(t->sites[func], add_site, &c);
	}
	tt_thread_unlock();

	rows = alloc(ctx, (c.n + 1) * sizeof(*rows));
	if (!rows)
		return 0;
	memset(&rest, 0, sizeof(rest));
	rest.calls = fn->calls;
	rest.timed = fn->timed;
	rest.unwound = fn->unwound;
	rest.migrated = fn->migrated;
	rest.dropped = fn->dropped;
	for (i = 0; i < c.n; i++) {
		memset(&rows[i], 0, sizeof(rows[i]));
		fill_row(&rows[i], c.u[i].sum, subtract);
		name_site(&c.u[i].site, &rows[i], alloc, ctx);
		tt_sys_munmap(c.u[i].sum, FSTAT_BYTES);
		rest.calls = less(rest.calls, rows[i].calls);
		rest.timed = less(rest.timed, rows[i].timed);
		rest.unwound = less(rest.unwound, rows[i].unwound);
		rest.migrated = less(rest.migrated, rows[i].migrated);
		rest.dropped = less(rest.dropped, rows[i].dropped);
	}
	n = c.n;
	if (rest.calls) {
		rest.site = "(not seen at a site: running when the report was taken, or too deep)";
		rows[n++] = rest;
	}
	for (i = 1; i < n; i++) {	/* most calls first */
		struct tt_report_caller x = rows[i];

		for (j = i; j > 0 && rows[j - 1].calls < x.calls; j--)
			rows[j] = rows[j - 1];
		rows[j] = x;
	}
	*out = rows;
	return n;
}
