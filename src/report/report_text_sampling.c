/*
 * report_text_sampling.c - the text report's sampling lines (TSC_SAMPLE, TSC_BUDGET): how
 * calls were chosen, and per function how many were timed, as "timed 1 in ~N", with the 95%
 * bounds of the percentiles that came from a sample.
 */
#include <inttypes.h>

#include "report/report_fmt.h"
#include "report/text_clean.h"

static void bounds(struct tt_buf *out, const char *name, const struct tt_ci *ci)
{
	tt_buf_printf(out, " %s %" PRIu64, name, ci->lo);
	if (ci->hi != ci->lo)
		tt_buf_printf(out, "-%" PRIu64, ci->hi);
}

void tt_report_text_sampling(struct tt_buf *out, const struct tt_report *r)
{
	size_t i;

	if (!r->sampling.mode)
		return;
	if (r->sampling.budget_ppm)
		tt_buf_printf(out,
			      "\nsampling: TSC_BUDGET %.4g%% (a timed call costs %" PRIu64
			      " more than a counted one; the first %" PRIu64
			      " calls of each function in each thread all timed)\n",
			      r->sampling.budget_ppm / 1e4, r->sampling.timed_cost,
			      r->sampling.floor);
	if (r->sampling.budget_ppm && r->sampling.over_budget)
		tt_buf_printf(
			out,
			"sampling: over budget: counting every call alone costs ~%.3g%% of the "
			"run (~%.2g a call through a GOT stub, ~%.2g inline), over the %.4g%% "
			"budget; the counts stay exact, timing kept 1/8 of the budget\n",
			r->sampling.counting * 100, r->sampling.count_cost,
			r->sampling.has_count_cost_inline ? r->sampling.count_cost_inline
							  : r->sampling.count_cost,
			r->sampling.budget_ppm / 1e4);
	if (!r->sampling.budget_ppm)
		tt_buf_printf(out,
			      "\nsampling: TSC_SAMPLE %" PRIu64 " (about 1 call in %" PRIu64
			      " timed, chosen at random; every call counted)\n",
			      r->sampling.period, r->sampling.period);
	for (i = 0; i < r->nfuncs; i++) {
		const struct tt_report_func *f = &r->funcs[i];
		const struct tt_report_sampling *m = &f->sampling;

		if (f->count_only)
			continue; /* never timed, sampled or not: its own line says so */
		tt_text_put_clean(out, f->name, false);
		if (!f->skipped) {
			tt_buf_printf(out, ": no call passed over (%" PRIu64 " timed)\n", f->timed);
			continue;
		}
		tt_buf_printf(out, ": timed 1 in ~%.0f (%" PRIu64 " of %" PRIu64 " calls",
			      f->timed ? (double)f->calls / (double)f->timed : 0.0, f->timed,
			      f->calls);
		if (m->period_max > m->period_min)
			tt_buf_printf(out, ", periods %" PRIu64 "-%" PRIu64, m->period_min,
				      m->period_max);
		if (m->timed_cost)
			tt_buf_printf(out, ", a timed call ~%" PRIu64 " more here", m->timed_cost);
		tt_buf_puts(out, ")");
		if (m->weighted)
			tt_buf_puts(out, "; percentiles and mean weighted by period");
		if (m->has_ci) {
			tt_buf_puts(out, "; percentiles from a sample, 95% bounds:");
			bounds(out, "median", &m->median);
			bounds(out, "p90", &m->p90);
			bounds(out, "p99", &m->p99);
		}
		tt_buf_puts(out, "\n");
	}
}
