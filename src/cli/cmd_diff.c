/*
 * cmd_diff.c - `tsctrace diff BASE NEW`: per function, min, median and p99 of both reports
 * and their change, and whether the change is real.
 *
 * "Real" is decided by the Mann-Whitney U test on the two histograms (mwu.c): it asks whether
 * a call picked from NEW tends to take longer or shorter than one picked from BASE, using every
 * sample rather than a few percentiles, and assumes no distribution: call times are skewed and
 * often multi-modal (cache hits and misses), where a t-test would mislead. Two-sided, a
 * verdict needs p < 0.01, which bounds false alarms to 1 in 100 functions compared. Below 20
 * timed calls a side the normal approximation is poor, and such functions get no verdict.
 *
 * With millions of calls the test finds even tiny shifts significant: the change columns say
 * how large a shift is, the verdict only that it is not noise.
 *
 * Functions are matched through their names (group.h): "memcpy|memmove" in BASE and "memcpy"
 * in NEW are one row. Where one report has two entries of a row (memcpy and memmove at two
 * addresses there, one in the other), they are merged (merge_func.c) before comparing.
 */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "group.h"
#include "load.h"
#include "merge.h"
#include "mwu.h"
#include "names.h"
#include "outfile.h"
#include "table.h"

#define ALPHA 0.01   /* two-sided significance level */
#define MIN_TIMED 20 /* timed calls a side below which there is no verdict */
#define NCOLS 12

enum verdict { V_FASTER, V_SLOWER, V_SAME, V_FEW, V_ONLY_BASE, V_ONLY_NEW, V_END };

static const char *const verdict_names[V_END] = {
	"faster", "slower", "no significant change", "too few calls", "only in base", "only in new",
};

static const struct option diff_opts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void value_cell(struct tt_table *t, const struct tt_report_func *f, uint64_t v)
{
	if (f && f->timed)
		tt_table_addf(t, "%" PRIu64, v);
	else
		tt_table_add(t, "-");
}

enum stat { ST_MIN, ST_MEDIAN, ST_P99 };

static uint64_t stat_of(const struct tt_report_func *f, enum stat st)
{
	if (!f)
		return 0;
	return st == ST_MIN ? f->cycles.min : st == ST_MEDIAN ? f->cycles.median : f->cycles.p99;
}

/* The three cells of one statistic: base, new, change in percent of base. */
static void stat_cells(struct tt_table *t, const struct tt_report_func *a,
		       const struct tt_report_func *b, enum stat st)
{
	uint64_t va = stat_of(a, st), vb = stat_of(b, st);

	value_cell(t, a, va);
	value_cell(t, b, vb);
	if (!a || !b || !a->timed || !b->timed)
		tt_table_add(t, "-");
	else if (va == 0)
		tt_table_add(t, vb == 0 ? "+0.0%" : "n/a"); /* no base to be a share of */
	else
		tt_table_addf(t, "%+.1f%%", ((double)vb - (double)va) * 100.0 / (double)va);
}

static void p_cell(struct tt_table *t, double p)
{
	if (p >= 0.001)
		tt_table_addf(t, "%.3f", p);
	else if (p > 0)
		tt_table_addf(t, "%.1e", p);
	else
		tt_table_add(t, "<1e-300"); /* erfc underflows past z = 38 */
}

static enum verdict judge(const struct tt_report_func *a, const struct tt_report_func *b,
			  struct tt_table *t)
{
	struct tt_mwu m;

	if (!a || !b || a->timed < MIN_TIMED || b->timed < MIN_TIMED) {
		tt_table_add(t, "-");
		return !a ? V_ONLY_NEW : !b ? V_ONLY_BASE : V_FEW;
	}
	tt_mwu_test(a->buckets, a->nbuckets, b->buckets, b->nbuckets, &m);
	p_cell(t, m.p);
	if (!(m.p < ALPHA))
		return V_SAME;
	return m.z < 0 ? V_FASTER : V_SLOWER;
}

static void row(struct tt_table *t, const char *name, const struct tt_report_func *a,
		const struct tt_report_func *b, size_t *counts)
{
	char shown[TT_CLI_NAME_BYTES];
	enum verdict v;

	tt_table_add(t, tt_cli_display_name(name, shown, sizeof(shown)));
	stat_cells(t, a, b, ST_MIN);
	stat_cells(t, a, b, ST_MEDIAN);
	stat_cells(t, a, b, ST_P99);
	v = judge(a, b, t);
	tt_table_add(t, verdict_names[v]);
	counts[v]++;
}

static void header(struct tt_buf *out, const struct cli_report *a, const struct cli_report *b)
{
	const struct cli_report *reps[2] = { a, b };
	const char *labels[2] = { "base:  ", "new:   " };
	double ha = (double)a->r.clock.tsc_hz, hb = (double)b->r.clock.tsc_hz;
	size_t i;

	for (i = 0; i < 2; i++) {
		tt_buf_puts(out, labels[i]);
		tt_table_clean(out, reps[i]->file);
		tt_buf_puts(out, "  ");
		tt_table_clean(out, reps[i]->r.program);
		tt_buf_printf(out, ", pid %" PRId64 "\n", reps[i]->r.pid);
	}
	tt_buf_puts(out, "test:  Mann-Whitney U on the histograms (calls in one bucket are ties), "
			 "normal\n       approximation with tie correction, two-sided; a verdict "
			 "needs p < 0.01\n");
	if (tt_load_in_ns(&a->r))
		tt_buf_printf(out,
			      "unit:  ns (monotonic clock, less %" PRIu64 " and %" PRIu64
			      " ns of overhead)\n",
			      a->r.overhead.subtracted, b->r.overhead.subtracted);
	else
		tt_buf_printf(out,
			      "unit:  cycles (TSC ticks less %" PRIu64 " and %" PRIu64
			      " of overhead)\n",
			      a->r.overhead.subtracted, b->r.overhead.subtracted);
	if (ha > 0 && hb > 0 && fabs(ha - hb) > 0.01 * ha)
		tt_buf_printf(out,
			      "note:  the TSC rates differ (%.1f and %.1f MHz): cycles are "
			      "compared as they are\n",
			      ha / 1e6, hb / 1e6);
}

static void summary(struct tt_buf *out, const size_t *counts)
{
	const char *sep = "\n";
	size_t v;

	for (v = 0; v < V_END; v++) {
		if (!counts[v])
			continue;
		tt_buf_printf(out, "%s%zu %s", sep, counts[v], verdict_names[v]);
		sep = ", ";
	}
	tt_buf_puts(out, "\n");
}

/*
 * The entry of group g in reps[which]: NULL when it has none, its only one, or its several
 * merged into *tmp (freed by the caller with tt_merge_func_free). -1 after a "tsctrace:" line.
 */
static int side(struct cli_report *const *reps, size_t which, const struct tt_group *g,
		struct tt_report_func *tmp, const struct tt_report_func **out)
{
	const struct tt_group_member *m = g->members;
	size_t n = 0;

	/* Members come in report order: reps[0]'s, then reps[1]'s. */
	for (; m < g->members + g->nmembers && m->rep < which; m++)
		;
	while (m + n < g->members + g->nmembers && m[n].rep == which)
		n++;
	*out = n ? m->f : NULL;
	if (n < 2)
		return 0;
	*out = tmp;
	return tt_merge_func(reps, g, m, n, reps[which]->r.clock.tsc_hz, tmp);
}

/* One row per function of either report; -1 after a "tsctrace:" line. */
static int rows(struct tt_table *t, struct cli_report *const *reps, size_t *counts)
{
	struct tt_report_func tmp[2] = { { 0 } };
	const struct tt_report_func *a, *b;
	struct tt_group *groups;
	size_t ngroups, i;
	int rc = 0;

	if (tt_group_funcs(reps, 2, &groups, &ngroups) < 0)
		rc = -1;
	for (i = 0; i < ngroups && rc == 0; i++) {
		if (side(reps, 0, &groups[i], &tmp[0], &a) < 0 ||
		    side(reps, 1, &groups[i], &tmp[1], &b) < 0)
			rc = -1;
		else
			row(t, groups[i].name, a, b, counts);
		tt_merge_func_free(&tmp[0]);
		tt_merge_func_free(&tmp[1]);
	}
	tt_groups_free(groups, ngroups);
	return rc;
}

static int diff(struct tt_buf *out, struct cli_report *const *reps)
{
	static const char *const heads[NCOLS] = { "function", "base",	"new",	  "change",
						  "base",     "new",	"change", "base",
						  "new",      "change", "p",	  "verdict" };
	static const struct tt_table_group groups[] = { { 1, "min" },
							{ 4, "median" },
							{ 7, "p99" } };
	size_t counts[V_END] = { 0 }, i;
	struct tt_table t;

	header(out, reps[0], reps[1]);
	tt_buf_puts(out, "\n");
	tt_table_init(&t, NCOLS, 1ul << 0 | 1ul << (NCOLS - 1));
	for (i = 0; i < NCOLS; i++)
		tt_table_add(&t, heads[i]);
	if (rows(&t, reps, counts) < 0) {
		tt_table_free(&t);
		return -1;
	}
	if (t.failed)
		out->failed = true;
	tt_table_print(&t, out, "", groups, sizeof(groups) / sizeof(groups[0]));
	tt_table_free(&t);
	summary(out, counts);
	return 0;
}

int tt_cli_diff(int argc, char **argv)
{
	struct tt_buf out = TT_BUF_INIT;
	struct cli_report **reps;
	int c, rc = CLI_EXIT_BAD;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", diff_opts, NULL)) != -1) {
		if (c == 'h') {
			tt_cli_help("diff");
			return CLI_EXIT_OK;
		}
		return tt_cli_opt_error("diff", c, argv);
	}
	if (argc - optind != 2) {
		tt_cli_err("diff: takes two reports, BASE and NEW (see tsctrace diff --help)");
		return CLI_EXIT_BAD;
	}
	reps = tt_load_reports(argv + optind, 2);
	if (!reps)
		return CLI_EXIT_BAD;
	if (tt_load_in_ns(&reps[0]->r) != tt_load_in_ns(&reps[1]->r)) {
		tt_cli_err("diff: %s counts %s and %s counts %s: not comparable", reps[0]->file,
			   tt_load_in_ns(&reps[0]->r) ? "ns" : "cycles", reps[1]->file,
			   tt_load_in_ns(&reps[1]->r) ? "ns" : "cycles");
		goto out_free;
	}
	if (diff(&out, reps) < 0)
		goto out_free;
	if (out.failed)
		tt_cli_err("diff: out of memory");
	else if (tt_outfile_write(NULL, out.data, out.len) == 0)
		rc = CLI_EXIT_OK;
out_free:
	tt_buf_free(&out);
	tt_load_free_all(reps, 2);
	return rc;
}
