/*
 * load_sampling.c - what a report says of sampling (TSC_SAMPLE, TSC_BUDGET), checked and
 * filled into the model (load.h): the top-level "sampling" object, and per function
 * "skipped" (read with the other counts, load_func.c) and "sampling": the periods used and
 * the 95% bounds of the percentiles ("ci95"), and under a budget what merging needs of the
 * weights: "weights_sq", "weighted_total" and "weighted_raw", all three or none (reports from
 * before them; the function's "weighted_histogram" beside them is read by load_func.c). All
 * optional: reports without sampling have none of them.
 */
#include "cli/load.h"

#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/jget.h"

int tt_load_sampling_header(const char *file, json_t *root, struct tt_report *r)
{
	struct jloc top = { file, "" }, l = { file, "sampling" };
	double budget;
	json_t *s;

	if (tt_jget_opt(&top, root, "sampling", JSON_OBJECT, &s) < 0)
		return -1;
	if (!s)
		return 0;
	if (tt_jget_str(&l, s, "mode", &r->sampling.mode) < 0 ||
	    tt_jget_u64(&l, s, "period", &r->sampling.period) < 0 ||
	    tt_jget_num(&l, s, "budget", &budget) < 0 ||
	    tt_jget_u64(&l, s, "floor", &r->sampling.floor) < 0 ||
	    tt_jget_u64(&l, s, "timed_cost", &r->sampling.timed_cost) < 0)
		return -1;
	/* A budget's counting (count_cost, counting, over_budget): all three or none. */
	if (json_object_get(s, "over_budget")) {
		r->sampling.has_counting = true;
		if (tt_jget_num(&l, s, "count_cost", &r->sampling.count_cost) < 0 ||
		    tt_jget_num(&l, s, "counting", &r->sampling.counting) < 0 ||
		    tt_jget_bool(&l, s, "over_budget", &r->sampling.over_budget) < 0)
			return -1;
		r->sampling.has_count_cost_inline = json_object_get(s, "count_cost_inline") != NULL;
		if (r->sampling.has_count_cost_inline &&
		    tt_jget_num(&l, s, "count_cost_inline", &r->sampling.count_cost_inline) < 0)
			return -1;
	}
	if (strcmp(r->sampling.mode, "fixed") != 0 && strcmp(r->sampling.mode, "budget") != 0)
		return tt_jbad(&l, "mode", "expected \"fixed\" or \"budget\"");
	if (!(budget >= 0 && budget <= 1))
		return tt_jbad(&l, "budget", "expected a fraction from 0 to 1");
	r->sampling.budget_ppm = (uint32_t)(budget * 1e6 + 0.5);
	return 0;
}

/* "median": [lo, hi], lo <= hi. */
static int load_bound(const struct jloc *l, json_t *ci, const char *key, struct tt_ci *out)
{
	json_t *arr;

	if (tt_jget(l, ci, key, JSON_ARRAY, &arr) < 0)
		return -1;
	if (json_array_size(arr) != 2 || tt_jget_index_u64(l, arr, 0, &out->lo) < 0 ||
	    tt_jget_index_u64(l, arr, 1, &out->hi) < 0 || out->lo > out->hi)
		return tt_jbad(l, key, "expected [low, high] with low <= high");
	return 0;
}

/* The sums beside a weighted function's weights (its "weighted_histogram" is read with the
 * other histograms, load_func.c): all three or none. */
static int load_weights(const struct jloc *l, json_t *s, struct tt_report_sampling *m)
{
	if (!json_object_get(s, "weights_sq"))
		return 0;
	if (!m->weighted)
		return tt_jbad(l, "weights_sq", "weights without \"weighted\"");
	if (tt_jget_u64(l, s, "weights_sq", &m->weights_sq) < 0 ||
	    tt_jget_u64(l, s, "weighted_total", &m->weighted_total) < 0 ||
	    tt_jget_u64(l, s, "weighted_raw", &m->weighted_raw) < 0)
		return -1;
	m->has_weights = true;
	return 0;
}

int tt_load_sampling_func(const char *file, const char *path, json_t *obj, struct tt_report_func *f)
{
	char sp[160], cp[176];
	struct jloc l = { file, path }, ls = { file, sp }, lc = { file, cp };
	struct tt_report_sampling *m = &f->sampling;
	json_t *s, *ci;

	if (tt_jget_opt(&l, obj, "sampling", JSON_OBJECT, &s) < 0)
		return -1;
	if (!s)
		return 0;
	snprintf(sp, sizeof(sp), "%s.sampling", path);
	snprintf(cp, sizeof(cp), "%s.ci95", sp);
	f->has_sampling = true;
	if (tt_jget_u64(&ls, s, "period_min", &m->period_min) < 0 ||
	    tt_jget_u64(&ls, s, "period_max", &m->period_max) < 0 ||
	    tt_jget_opt(&ls, s, "ci95", JSON_OBJECT, &ci) < 0)
		return -1;
	if (m->period_min > m->period_max)
		return tt_jbad(&ls, NULL, "period_min > period_max");
	m->weighted = json_object_get(s, "weighted") != NULL;
	if (json_object_get(s, "timed_cost") &&
	    tt_jget_u64(&ls, s, "timed_cost", &m->timed_cost) < 0)
		return -1;
	if (load_weights(&ls, s, m) < 0)
		return -1;
	if (!ci)
		return 0;
	m->has_ci = true;
	return load_bound(&lc, ci, "median", &m->median) < 0 ||
			       load_bound(&lc, ci, "p90", &m->p90) < 0 ||
			       load_bound(&lc, ci, "p99", &m->p99) < 0
		       ? -1
		       : 0;
}
