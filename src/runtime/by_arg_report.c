/*
 * by_arg_report.c - TSC_ARGS: which functions are watched, and their calls by argument for
 * the report.
 */
#include "runtime/by_arg_report.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "hook/funcs.h"
#include "hot/by_arg.h"
#include "log/log.h"
#include "report/stats.h"
#include "runtime/threads.h"

/* Whether traced function fn goes by the name n. */
static bool named(const struct tt_func *fn, const char *n)
{
	size_t i;

	if (fn->name && !strcmp(fn->name, n))
		return true;
	for (i = 0; i < fn->nnames; i++)
		if (!strcmp(fn->names[i], n))
			return true;
	return false;
}

void tt_by_arg_setup(const struct tt_config *cfg)
{
	uint32_t i, count = tt_funcs_count(), n = 0;
	size_t a;

	for (a = 0; a < cfg->nargs; a++) {
		const struct tt_arg_spec *sp = &cfg->args[a];
		bool found = false;

		for (i = 1; i < count; i++) {
			struct tt_func *fn = tt_funcs_get(i);

			if (!fn || !named(fn, sp->name) || tt_arg_watch_of(i))
				continue;
			if (n == TT_ARG_WATCH_MAX) {
				tt_warn("TSC_ARGS: more than %d functions, the rest not watched",
					TT_ARG_WATCH_MAX);
				return;
			}
			tt_arg_watches[n] = (struct tt_arg_watch){
				.func = i, .k = sp->k, .op = sp->op, .n = sp->n
			};
			__atomic_store_n(&tt_arg_nwatches, ++n, __ATOMIC_RELEASE);
			found = true;
		}
		if (!found)
			tt_warn("TSC_ARGS names %s, which TSC_FUNCS does not trace: ignored",
				sp->name);
	}
}

/* The value at rank r (1-based) of bucket b's timed calls: its histogram bucket's middle,
 * within the calls' min and max. */
static uint64_t at_rank(const struct tt_arg_bucket *b, uint64_t r)
{
	uint64_t seen = 0, v = b->max;
	uint32_t i;

	for (i = 0; i < TT_ARG_HIST; i++) {
		seen += b->counts[i];
		if (b->counts[i] && seen >= r) {
			uint64_t lo = tt_arg_hist_low(i), hi = tt_arg_hist_high(i);

			v = lo + (hi - lo) / 2;
			break;
		}
	}
	if (v < b->min - 1)
		v = b->min - 1;
	if (v > b->max)
		v = b->max;
	return v;
}

static uint64_t rank(uint64_t n, unsigned int per_1000)
{
	uint64_t r = (n * per_1000 + 999) / 1000;

	return r ? r : 1;
}

/* One table every watched function's calls are merged into in turn (~270 kB: not the
 * arena's, once a function). */
static struct tt_by_arg *scratch_table(void)
{
	static struct tt_by_arg *t;
	void *p;

	if (!t) {
		p = mmap(NULL, sizeof(*t), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
			 0);
		t = p == MAP_FAILED ? NULL : p;
	}
	return t;
}

void tt_by_arg_collect(uint32_t func, uint64_t subtract, tt_alloc_fn alloc, void *ctx,
		       struct tt_report_func *out)
{
	const struct tt_arg_watch *w = tt_arg_watch_of(func);
	struct tt_by_arg *t;
	struct tt_report_arg_bucket *rows;
	uint32_t i;
	size_t n = 0;

	if (!w)
		return;
	out->has_by_arg = true;
	out->by_arg.arg = w->k;
	if (w->op != TT_ARG_ALL) {
		char *f = alloc(ctx, 32);

		if (f) {
			snprintf(f, 32, "%s%" PRIu64, w->op == TT_ARG_GE ? ">=" : "==", w->n);
			out->by_arg.filter = f;
		}
	}
	t = scratch_table();
	rows = alloc(ctx, TT_ARG_BUCKETS * sizeof(*rows));
	if (!t || !rows)
		return;
	memset(t, 0, sizeof(*t));
	tt_thread_collect_args(func, t);
	out->has_filtered = true; /* 0 without a filter */
	out->filtered = t->filtered;
	for (i = 0; i < TT_ARG_BUCKETS; i++) {
		const struct tt_arg_bucket *b = &t->b[i];
		struct tt_report_arg_bucket *r = &rows[n];

		if (!b->calls)
			continue;
		memset(r, 0, sizeof(*r));
		r->lo = i ? 1ull << (i - 1) : 0;
		r->hi = i ? (i == 64 ? UINT64_MAX : (1ull << i) - 1) : 0;
		r->calls = b->calls;
		r->timed = b->timed;
		if (b->timed) {
			r->min = tt_stats_sub_floor(b->min - 1, subtract);
			r->median = tt_stats_sub_floor(at_rank(b, rank(b->timed, 500)), subtract);
			r->p99 = tt_stats_sub_floor(at_rank(b, rank(b->timed, 990)), subtract);
		}
		n++;
	}
	out->by_arg.buckets = rows;
	out->by_arg.nbuckets = n;
}
