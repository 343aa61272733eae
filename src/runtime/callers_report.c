/*
 * callers_report.c - TSC_CALLERS at report time.
 *
 * The report merges the exited threads' sites (callers_merge.c) with the live threads' tables
 * by site, names each site, and adds one more row for what no site saw (calls still running
 * when the report was taken, or too deep for the shadow stack), so that every field of the
 * rows adds up to the function's exactly.
 */
#include <stdio.h>
#include <string.h>

#include "elf/symbolize.h"
#include "hook/funcs.h"
#include "report/self_dist.h"
#include "report/stats.h"
#include "runtime/callers_merge.h"
#include "runtime/callers_report.h"
#include "runtime/func_stats_merge.h"

/* ---- report time ------------------------------------------------------------------------ */

struct uniq {
	struct tt_site site;
	struct tt_func_stats *sum; /* own mapping, freed after summarising */
};

struct collect_ctx {
	struct uniq *u;
	size_t n, cap;
	uint32_t func;
};

static void add_site(const struct tt_site *s, void *arg)
{
	struct collect_ctx *c = arg;
	size_t i;

	for (i = 0; i < c->n; i++)
		if (tt_callers_same_site(&c->u[i].site, s))
			break;
	if (i == c->n) {
		if (c->n == c->cap)
			return;
		c->u[i].site = *s;
		c->u[i].sum = tt_func_stats_new(c->func);
		if (!c->u[i].sum)
			return;
		c->n++;
	}
	tt_func_stats_merge(c->u[i].sum, s->stat);
}

static void count_site(const struct tt_site *s, void *arg)
{
	(void)s;
	((struct collect_ctx *)arg)->cap++;
}

#define MAX_OBJECTS 1024 /* in a report's "objects"; frames in more are in none */

/* The index in objs of the object holding addr (added when new), -1 when none; *address is
 * then addr in that file's terms. */
static int64_t object_of(uint64_t addr, struct tt_callers_objects *objs, tt_alloc_fn alloc,
			 void *ctx, uint64_t *address)
{
	struct tt_code_object o;
	struct tt_report_object *v;
	char *path, *id;
	size_t i;

	*address = addr;
	if (!tt_symbolize_object(addr, &o))
		return -1;
	*address = addr - o.bias;
	for (i = 0; i < objs->n; i++)
		if (objs->bias[i] == o.bias && strcmp(objs->v[i].path, o.path) == 0)
			return (int64_t)i;
	if (!objs->v) {
		objs->v = alloc(ctx, MAX_OBJECTS * sizeof(*objs->v));
		objs->bias = alloc(ctx, MAX_OBJECTS * sizeof(*objs->bias));
		objs->cap = objs->v && objs->bias ? MAX_OBJECTS : 0;
	}
	path = alloc(ctx, strlen(o.path) + 1);
	id = alloc(ctx, strlen(o.build_id) + 1);
	if (objs->n == objs->cap || !path || !id)
		return -1;
	v = &objs->v[objs->n];
	v->path = strcpy(path, o.path);
	v->build_id = strcpy(id, o.build_id);
	objs->bias[objs->n] = o.bias;
	return (int64_t)objs->n++;
}

/*
 * Frame ip's name into out; the address it stands at. A tail frame (TT_TAIL_FRAME | index)
 * made its call with a jump, from no instruction of its own: it is named by its function,
 * "f [tail call] (app)", and located at the function's entry.
 */
static uint64_t name_frame(uint64_t ip, char *out, size_t size)
{
	const struct tt_func *fn;
	char entry[160];
	const char *obj, *off;

	if (!(ip & TT_TAIL_FRAME)) {
		tt_symbolize(ip, out, size);
		return ip;
	}
	fn = tt_funcs_get((uint32_t)(ip & ~TT_TAIL_FRAME));
	if (!fn || !fn->addr) {
		snprintf(out, size, "? [tail call]");
		return 0;
	}
	tt_symbolize((uint64_t)(uintptr_t)fn->addr, entry, sizeof(entry));
	obj = strstr(entry, " (");
	off = strstr(entry, "+0x");
	if (!obj || !off || off > obj) /* no symbol: "app+0x1f0", the marker after it */
		obj = off = entry + strlen(entry);
	/* "f+0x0 (app)": no offset (no instruction there made the call), the marker before
	 * the object, which is where tsctrace's commands look for it */
	snprintf(out, size, "%.*s [tail call]%.*s", (int)(off - entry), entry, (int)(size / 2),
		 obj);
	return (uint64_t)(uintptr_t)fn->addr;
}

void tt_callers_frame_name(uint64_t ip, char *out, size_t size)
{
	name_frame(ip, out, size);
}

/* "a+0x1 (x) <- b+0x2 (y)": the site's frames, innermost first, their joined name and where
 * each is (object and address, for symbolizers that read debug files). */
static void name_site(const struct tt_site *s, struct tt_report_caller *row, tt_alloc_fn alloc,
		      void *ctx, struct tt_callers_objects *objs)
{
	static const size_t frame_bytes = 320;
	char **frames = alloc(ctx, (s->depth + 1) * sizeof(char *));
	char *joined = alloc(ctx, (s->depth + 1) * (frame_bytes + 4));
	struct tt_report_location *locs = alloc(ctx, (s->depth + 1) * sizeof(*locs));
	size_t i, len = 0;
	uint64_t at;

	if (!frames || !joined || !locs) {
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
		at = name_frame(s->ips[i], frames[i], frame_bytes);
		locs[i].object = object_of(at, objs, alloc, ctx, &locs[i].address);
		locs[i].tail = (s->ips[i] & TT_TAIL_FRAME) != 0;
		len += (size_t)snprintf(joined + len, frame_bytes + 4, "%s%s", i ? " <- " : "",
					frames[i]);
	}
	row->site = joined;
	row->frames = (const char *const *)frames;
	row->nframes = i;
	row->locations = i ? locs : NULL;
}

/* The non-empty buckets of h (less subtract) from alloc into *out; *n 0 when none or out of
 * memory. */
static void site_buckets(const struct tt_hist *h, uint64_t subtract, tt_alloc_fn alloc, void *ctx,
			 const struct tt_bucket **out, size_t *n)
{
	size_t nb = h->count ? tt_stats_buckets(h, subtract, NULL, 0) : 0;
	struct tt_bucket *b = nb ? alloc(ctx, nb * sizeof(*b)) : NULL;

	*out = b;
	*n = b ? tt_stats_buckets(h, subtract, b, nb) : 0;
}

static void fill_row(struct tt_report_caller *row, const struct tt_func_stats *st,
		     uint64_t subtract, uint64_t nested, tt_alloc_fn alloc, void *ctx)
{
	row->calls = st->calls;
	row->timed = st->hist.count;
	row->unwound = st->unwound;
	row->migrated = st->migrated;
	row->dropped = st->dropped;
	row->skipped = tt_func_stats_skipped(st);
	tt_stats_summarise(&st->hist, subtract, &row->cycles);
	site_buckets(&st->hist, subtract, alloc, ctx, &row->buckets, &row->nbuckets);
	if (st->whist.count) { /* TSC_BUDGET: each timed call as the calls it stands for */
		row->weighted = true;
		site_buckets(&st->whist, subtract, alloc, ctx, &row->weighted_buckets,
			     &row->nweighted_buckets);
		row->weights = st->whist.count;
		row->weights_sq = st->est.wsq;
		row->weighted_total = tt_stats_weigh(&st->whist, subtract, &row->cycles);
	}
	row->has_self = true;
	row->self_total = tt_self_total(st->hist.count, st->hist.total, &st->self, subtract, nested,
					tt_self_leaf_back(&st->hist, &st->self, subtract));
	if (st->whist.count) { /* the same of the weighted: its calls' self, estimated */
		row->has_self_weighted = true;
		row->self_weighted_total = tt_self_total(st->whist.count, st->whist.total,
							 &st->wself, subtract, nested,
							 tt_self_leaf_back(&st->whist, &st->wself,
									   subtract));
	}
}

static uint64_t less(uint64_t a, uint64_t b)
{
	return a > b ? a - b : 0;
}

size_t tt_callers_collect(uint32_t func, const struct tt_report_func *fn, uint64_t subtract,
			  uint64_t nested, tt_alloc_fn alloc, void *ctx,
			  struct tt_callers_objects *objs, struct tt_report_caller **out)
{
	struct collect_ctx c = { NULL, 0, 0, func };
	struct tt_report_caller *rows, rest;
	const struct tt_merged_site *m;
	struct tt_thread *t;
	size_t i, j, n;

	tt_thread_lock();
	for (m = tt_callers_merged(func); m; m = m->next)
		c.cap++;
	for (t = tt_thread_list; t; t = t->next)
		if (tt_thread_sites(t, func))
			tt_callers_each_site(tt_thread_sites(t, func), count_site, &c);
	c.u = c.cap ? alloc(ctx, c.cap * sizeof(*c.u)) : NULL;
	if (c.u) {
		for (m = tt_callers_merged(func); m; m = m->next)
			add_site(&m->site, &c);
		for (t = tt_thread_list; t; t = t->next)
			if (tt_thread_sites(t, func))
				tt_callers_each_site(tt_thread_sites(t, func), add_site, &c);
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
	rest.skipped = fn->skipped;
	rest.has_self = fn->has_self;
	rest.self_total = fn->self.total;
	rest.has_self_weighted = fn->self_weighted;
	rest.self_weighted_total = fn->self_weighted_total;
	for (i = 0; i < c.n; i++) {
		memset(&rows[i], 0, sizeof(rows[i]));
		tt_func_stats_weigh_fixed(c.u[i].sum); /* TSC_SAMPLE=N: each timed call weighs N */
		fill_row(&rows[i], c.u[i].sum, subtract, nested, alloc, ctx);
		name_site(&c.u[i].site, &rows[i], alloc, ctx, objs);
		tt_func_stats_free(c.u[i].sum);
		rest.calls = less(rest.calls, rows[i].calls);
		rest.timed = less(rest.timed, rows[i].timed);
		rest.unwound = less(rest.unwound, rows[i].unwound);
		rest.migrated = less(rest.migrated, rows[i].migrated);
		rest.dropped = less(rest.dropped, rows[i].dropped);
		rest.skipped = less(rest.skipped, rows[i].skipped);
		rest.self_total = less(rest.self_total, rows[i].self_total);
		rest.self_weighted_total = less(rest.self_weighted_total,
						rows[i].self_weighted_total);
	}
	n = c.n;
	if (rest.calls) {
		rest.site = "(not seen at a site: running when the report was taken, or too deep)";
		rows[n++] = rest;
	}
	for (i = 1; i < n; i++) { /* most calls first */
		struct tt_report_caller x = rows[i];

		for (j = i; j > 0 && rows[j - 1].calls < x.calls; j--)
			rows[j] = rows[j - 1];
		rows[j] = x;
	}
	*out = rows;
	return n;
}
