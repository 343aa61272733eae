/*
 * cmd_diff.c - `tsctrace diff [OPTIONS] BASE... -- NEW...` (or `diff BASE NEW`): per function,
 * how min, median, p90, p99 and mean changed from the base runs to the new ones, and whether
 * that is more than run-to-run noise.
 *
 * Each statistic is taken per run (per report), and the runs are the samples (runstats.h):
 * calls within one process are not independent draws of the program's speed, and testing
 * them (a U test over a million calls) called identical runs different at p < 1e-300. Shown
 * per statistic: its mean over the base runs and over the new runs, the change in percent of
 * base, and with two runs or more a side Welch's 95% interval of that change.
 *
 * The verdict is taken on one statistic (--stat, the median by default) against a threshold
 * (--threshold, 5% by default), the smallest change that matters:
 *   slower / faster    the interval lies wholly above / below 0 and the change is at least
 *                      the threshold: a change that is both real and large enough;
 *   no change          the whole interval lies within the threshold either way: whatever
 *                      the change is, it is smaller than that;
 *   not enough runs    anything else: the runs vary too much to tell, and more runs
 *                      narrow the interval.
 * So two sets of runs of the same program read "no change" when the statistic's run-to-run
 * spread is well below the threshold, and "not enough runs" (never "slower") when it is not.
 * With one run on a side nothing separates a change from run-to-run noise: the differences
 * are shown without verdicts, and a note says so.
 *
 * A percentile a run took from a sample (TSC_SAMPLE, TSC_BUDGET: its "ci95") is uncertain
 * within the run too. The runs' spread includes that sampling noise on average, but a few
 * runs can agree by chance, and do often when values come in whole steps of the clock: so a
 * side's variance is never taken below the mean sampling variance of its runs, each read
 * from its 95% bounds as ((hi - lo) / (2 x 1.96))^2. The interval then cannot be narrower
 * than the runs' own intervals allow, and "slower" needs a change beyond them. A sampled
 * run's mean is an estimate too: its sampling variance is the (weighted) variance of its
 * buckets over their effective sample size, (sum w)^2 / sum w^2 (the count of timed calls
 * under a fixed period), which takes the weights as unrelated to the values.
 *
 * Functions are matched through their names (group.h): "memcpy|memmove" in one report and
 * "memcpy" in another are one row. Where one report has two entries of a row (memcpy and
 * memmove at two addresses there, one in the other), they are merged (merge_func.c) first.
 */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/buckets.h"
#include "cli/cli.h"
#include "cli/group.h"
#include "cli/load.h"
#include "cli/merge.h"
#include "cli/names.h"
#include "cli/outfile.h"
#include "cli/runlist.h"
#include "cli/runstats.h"
#include "cli/table.h"

#define DEFAULT_THRESHOLD 5.0 /* percent */
#define CLI_EXIT_SLOWER 1     /* --fail-on-slower and a function is slower */

enum stat { ST_MIN, ST_MEDIAN, ST_P90, ST_P99, ST_P999, ST_MEAN, ST_END };

/* p99.9 rows only where the reports have it (not those from before it); --stat p999 too. */
static const char *const stat_names[ST_END] = { "min", "median", "p90", "p99", "p99.9", "mean" };

enum verdict { V_FASTER, V_SLOWER, V_SAME, V_FEW, V_ZERO, V_ONLY_BASE, V_ONLY_NEW, V_END };

static const char *const verdict_names[V_END] = {
	"faster", "slower", "no change", "not enough runs", "base 0", "only in base", "only in new",
};

struct opts {
	double threshold; /* percent */
	enum stat by;	  /* the statistic the verdict is taken on */
	bool fail_on_slower;
};

/* The reports: na base runs, then nb new runs. */
struct sides {
	struct cli_report **reps;
	size_t na, nb;
};

static const struct option diff_opts[] = {
	{ "threshold", required_argument, NULL, 't' },
	{ "stat", required_argument, NULL, 's' },
	{ "fail-on-slower", no_argument, NULL, 'F' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static double stat_of(const struct tt_report_func *f, enum stat st)
{
	switch (st) {
	case ST_MIN: return (double)f->cycles.min;
	case ST_MEDIAN: return (double)f->cycles.median;
	case ST_P90: return (double)f->cycles.p90;
	case ST_P99: return (double)f->cycles.p99;
	case ST_P999: return (double)f->cycles.p999;
	default: return f->cycles.mean;
	}
}

/* A value as the reports give it: whole cycles without decimals, a mean of runs with one. */
static void value_cell(struct tt_table *t, const struct tt_runs *r)
{
	if (!r->n)
		tt_table_add(t, "-");
	else if (r->mean == floor(r->mean) && r->mean < 1e15)
		tt_table_addf(t, "%.0f", r->mean);
	else
		tt_table_addf(t, "%.1f", r->mean);
}

static void change_cells(struct tt_table *t, const struct tt_change *c, bool runs)
{
	if (!c->defined)
		tt_table_add(t, "-");
	else
		tt_table_addf(t, "%+.1f%%", fabs(c->pct) < 0.05 ? 0.0 : c->pct); /* not "-0.0%" */
	if (!runs)
		return;
	if (!c->defined || !c->has_ci)
		tt_table_add(t, "-");
	else
		tt_table_addf(t, "%+.1f%% .. %+.1f%%", c->lo, c->hi);
}

static enum verdict judge(const struct tt_runs *a, const struct tt_runs *b,
			  const struct tt_change *c, const struct opts *o)
{
	if (!a->n)
		return V_ONLY_NEW;
	if (!b->n)
		return V_ONLY_BASE;
	if (!c->defined)
		return b->mean == 0 ? V_SAME : V_ZERO;
	if (!c->has_ci)
		return V_FEW;
	if (c->lo > 0 && c->pct >= o->threshold)
		return V_SLOWER;
	if (c->hi < 0 && c->pct <= -o->threshold)
		return V_FASTER;
	if (c->lo > -o->threshold && c->hi < o->threshold)
		return V_SAME;
	return V_FEW;
}

/* The sampling variance of f's mean (see the top): from its weighted buckets under a
 * budget, its buckets under a fixed period; 0 for a budget's from before the weights. */
static double mean_var(const struct tt_report_func *f)
{
	const struct tt_report_sampling *m = &f->sampling;
	uint64_t n;

	if (m->weighted && m->has_weights)
		return tt_buckets_mean_var(f->weighted_buckets, f->nweighted_buckets, m->weights_sq,
					   f->cycles.mean);
	if (m->weighted || !tt_buckets_total(f->buckets, f->nbuckets, &n))
		return 0;
	return tt_buckets_mean_var(f->buckets, f->nbuckets, n, f->cycles.mean);
}

/* The sampling variance of statistic st of f, from its 95% bounds (the mean's from its
 * buckets); 0 when not sampled. */
static double sample_var(const struct tt_report_func *f, enum stat st)
{
	const struct tt_ci *ci;
	double sd;

	if (!f->has_sampling || !f->sampling.has_ci)
		return 0;
	switch (st) {
	case ST_MEDIAN: ci = &f->sampling.median; break;
	case ST_P90: ci = &f->sampling.p90; break;
	case ST_P99: ci = &f->sampling.p99; break;
	case ST_MEAN: return mean_var(f);
	default: return 0; /* min, max: of the timed calls themselves */
	}
	sd = (double)(ci->hi - ci->lo) / (2 * 1.959964);
	return sd * sd;
}

/*
 * The values of statistic st of one function over runs [from, to): runs where it was timed.
 * Its variance is at least the mean sampling variance of those runs (see the top).
 */
static void collect(const struct tt_report_func *const *entry, size_t from, size_t to, enum stat st,
		    double *x, struct tt_runs *out)
{
	size_t i, n = 0;
	double sv = 0;

	for (i = from; i < to; i++) {
		if (entry[i] && entry[i]->timed && (st != ST_P999 || entry[i]->cycles.has_tail)) {
			x[n++] = stat_of(entry[i], st);
			sv += sample_var(entry[i], st);
		}
	}
	tt_runs_summarize(x, n, out);
	if (n > 1 && sv / (double)n > out->var)
		out->var = sv / (double)n;
}

/*
 * One function's rows, one per statistic: name (and runs) on the first, the verdict on the
 * verdict statistic's. Returns the verdict, V_END for a function never timed.
 */
static enum verdict rows(struct tt_table *t, const char *name,
			 const struct tt_report_func *const *entry, const struct sides *s,
			 const struct opts *o, double *x)
{
	bool runs = s->na > 1 && s->nb > 1, any = false, tail = false, one_side;
	char shown[TT_CLI_NAME_BYTES];
	enum verdict v = V_END, vs;
	struct tt_runs a, b;
	struct tt_change c;
	const char *note;
	size_t i;
	int st;

	for (i = 0; i < s->na + s->nb; i++) {
		any |= entry[i] && entry[i]->timed;
		tail |= entry[i] && entry[i]->timed && entry[i]->cycles.has_tail;
	}
	for (st = 0; st < ST_END && (any || st == 0); st++) {
		if (st == ST_P999 && !tail)
			continue;
		collect(entry, 0, s->na, (enum stat)st, x, &a);
		collect(entry, s->na, s->na + s->nb, (enum stat)st, x, &b);
		tt_runs_change(&a, &b, &c);
		vs = judge(&a, &b, &c, o);
		one_side = vs == V_ONLY_BASE || vs == V_ONLY_NEW;
		tt_table_add(t, st == 0 ? tt_cli_display_name(name, shown, sizeof(shown)) : "");
		if (runs && st == 0)
			tt_table_addf(t, "%zu:%zu", a.n, b.n);
		else if (runs)
			tt_table_add(t, "");
		tt_table_add(t, stat_names[st]);
		value_cell(t, &a);
		value_cell(t, &b);
		note = !any ? "no timed calls" : one_side ? verdict_names[vs] : NULL;
		if (note && !runs) {
			tt_table_add(t, st == 0 ? note : "-");
		} else {
			change_cells(t, &c, runs);
			if (runs)
				tt_table_add(t, note		   ? (st == 0 ? note : "")
						: st == (int)o->by ? verdict_names[vs]
								   : "");
		}
		if (any && (one_side || st == (int)o->by))
			v = vs;
	}
	return v;
}

/* Some run sampled (TSC_SAMPLE, TSC_BUDGET): its percentiles may carry 95% bounds. */
static bool any_sampled(const struct sides *s)
{
	size_t i;

	for (i = 0; i < s->na + s->nb; i++)
		if (s->reps[i]->r.sampling.mode)
			return true;
	return false;
}

static void header(struct tt_buf *out, const struct sides *s, const struct opts *o)
{
	const char *labels[2] = { "base:    ", "new:     " };
	uint64_t lo, hi, ov;
	size_t side, i, from, n;
	double hz, hz0 = (double)s->reps[0]->r.clock.tsc_hz;
	bool rates = false;

	for (side = 0; side < 2; side++) {
		from = side ? s->na : 0;
		n = side ? s->nb : s->na;
		tt_buf_printf(out, "%s%zu run%s:", labels[side], n, n > 1 ? "s" : "");
		for (i = from; i < from + n; i++) {
			tt_buf_puts(out, " ");
			tt_table_clean(out, s->reps[i]->file);
			tt_buf_printf(out, " (pid %" PRId64 ")", s->reps[i]->r.pid);
		}
		tt_buf_puts(out, "\n         ");
		tt_table_clean(out, s->reps[from]->r.program);
		tt_buf_puts(out, "\n");
	}
	for (side = 0; side < 2; side++) {
		from = side ? s->na : 0;
		n = side ? s->nb : s->na;
		lo = UINT64_MAX;
		hi = 0;
		for (i = from; i < from + n; i++) {
			ov = s->reps[i]->r.overhead.subtracted;
			lo = ov < lo ? ov : lo;
			hi = ov > hi ? ov : hi;
			hz = (double)s->reps[i]->r.clock.tsc_hz;
			rates |= hz0 > 0 && hz > 0 && fabs(hz - hz0) > 0.01 * hz0;
		}
		if (side == 0)
			tt_buf_printf(out, "unit:    %s less overhead: ",
				      tt_load_in_ns(&s->reps[0]->r) ? "ns (monotonic clock)"
								    : "cycles (TSC ticks)");
		if (lo == hi)
			tt_buf_printf(out, "%" PRIu64, lo);
		else
			tt_buf_printf(out, "%" PRIu64 " to %" PRIu64, lo, hi);
		tt_buf_puts(out, side == 0 ? " base, " : " new\n");
	}
	if (rates)
		tt_buf_puts(out,
			    "note:    the TSC rates of the runs differ by more than 1%: cycles "
			    "are compared\n         as they are\n");
	if (s->na < 2 || s->nb < 2) {
		tt_buf_printf(
			out,
			"note:    %s: a change cannot be told apart from run-to-run noise,\n"
			"         so there are no verdicts, only differences; give two runs or "
			"more\n         a side: diff A1 A2 A3 -- B1 B2 B3\n",
			s->na < 2 && s->nb < 2 ? "one run per side"
			: s->na < 2	       ? "one base run"
					       : "one new run");
		return;
	}
	tt_buf_printf(out,
		      "method:  each statistic is taken per run; base and new are its means over "
		      "the runs,\n         the interval is Welch's 95%% t-interval of the change "
		      "over the runs\n%sverdict: on the %s: slower or faster when the interval "
		      "excludes 0 and the\n         change is at least %g%%; no change when the "
		      "interval lies within +-%g%%;\n         not enough runs otherwise\n",
		      any_sampled(s) ? "         (percentiles and means from a sample: never "
				       "narrower than their runs' sampling allows)\n"
				     : "",
		      stat_names[o->by], o->threshold, o->threshold);
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
	if (counts[V_FEW])
		tt_buf_puts(out, "\n(not enough runs: give more runs a side, or see the "
				 "intervals)");
	tt_buf_puts(out, "\n");
}

/*
 * The entry of group g in report `which`: NULL when it has none, its only one, or its several
 * merged into *tmp (freed by the caller with tt_merge_func_free). -1 after a "tsctrace:" line.
 */
static int entry_of(struct cli_report *const *reps, size_t which, const struct tt_group *g,
		    struct tt_report_func *tmp, const struct tt_report_func **out)
{
	const struct tt_group_member *m = g->members;
	size_t n = 0;

	/* Members come in report order. */
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

/* Every function's rows; -1 after a "tsctrace:" line. */
static int all_rows(struct tt_table *t, const struct sides *s, const struct opts *o, size_t *counts)
{
	size_t n = s->na + s->nb, ngroups = 0, i, k;
	struct tt_report_func *tmp = calloc(n, sizeof(*tmp));
	const struct tt_report_func **entry = calloc(n, sizeof(*entry));
	double *x = calloc(n, sizeof(*x));
	struct tt_group *groups = NULL;
	enum verdict v;
	int rc = 0;

	if (!tmp || !entry || !x) {
		tt_cli_err("diff: out of memory");
		rc = -1;
	} else if (tt_group_funcs(s->reps, n, &groups, &ngroups) < 0) {
		rc = -1;
	}
	for (i = 0; i < ngroups && rc == 0; i++) {
		for (k = 0; k < n && rc == 0; k++)
			if (entry_of(s->reps, k, &groups[i], &tmp[k], &entry[k]) < 0)
				rc = -1;
		if (rc == 0) {
			v = rows(t, groups[i].name, entry, s, o, x);
			if (v != V_END)
				counts[v]++;
		}
		for (k = 0; k < n; k++)
			tt_merge_func_free(&tmp[k]);
	}
	tt_groups_free(groups, ngroups);
	free(tmp);
	free(entry);
	free(x);
	return rc;
}

static int diff(struct tt_buf *out, const struct sides *s, const struct opts *o, size_t *counts)
{
	static const char *const heads[] = { "function", "runs",   "statistic",	   "base",
					     "new",	 "change", "95% interval", "verdict" };
	static const char *const heads1[] = { "function", "statistic", "base", "new", "change" };
	bool runs = s->na > 1 && s->nb > 1;
	size_t ncols = runs ? 8 : 5, i;
	struct tt_table t;

	header(out, s, o);
	tt_buf_puts(out, "\n");
	/* left-aligned: function, statistic, verdict */
	tt_table_init(&t, ncols, runs ? 1ul << 0 | 1ul << 2 | 1ul << 7 : 1ul << 0 | 1ul << 1);
	for (i = 0; i < ncols; i++)
		tt_table_add(&t, runs ? heads[i] : heads1[i]);
	if (all_rows(&t, s, o, counts) < 0) {
		tt_table_free(&t);
		return -1;
	}
	if (t.failed)
		out->failed = true;
	tt_table_print(&t, out, "", NULL, 0);
	tt_table_free(&t);
	if (runs)
		summary(out, counts);
	return 0;
}

/* "5%", "5" or "2.5%": a percentage in (0, 1000). */
static int parse_threshold(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end != s && *end == '%')
		end++;
	if (end == s || *end || !(v > 0 && v < 1000) || strchr(s, ' ')) {
		tt_cli_err("diff: --threshold takes a percentage above 0, such as 5%%, not '%s'",
			   s);
		return -1;
	}
	*out = v;
	return 0;
}

static int parse_stat(const char *s, enum stat *out)
{
	int i;

	if (strcmp(s, "p999") == 0)
		s = "p99.9";
	for (i = 0; i < ST_END; i++) {
		if (strcmp(s, stat_names[i]) == 0) {
			*out = (enum stat)i;
			return 0;
		}
	}
	tt_cli_err("diff: --stat takes min, median, p90, p99, p999 or mean, not '%s'", s);
	return -1;
}

/* A side's runs must be distinct runs: one given twice would pass for a second run agreeing
 * perfectly with the first, and narrow the interval. 0, or -1 after a "tsctrace:" line. */
static int check_runs(const struct sides *s)
{
	struct tt_run_ref *runs;
	size_t side, n, a, b;
	bool repeat;

	for (side = 0; side < 2; side++) {
		if (tt_runlist(s->reps + (side ? s->na : 0), side ? s->nb : s->na, &runs, &n) < 0) {
			tt_cli_err("diff: out of memory");
			return -1;
		}
		repeat = tt_runlist_repeat(runs, n, &a, &b);
		if (repeat)
			tt_cli_err("diff: %s and %s are the same run (pid %" PRId64
				   "): each %s run must be another run",
				   s->reps[runs[a].rep + (side ? s->na : 0)]->file,
				   s->reps[runs[b].rep + (side ? s->na : 0)]->file, runs[b].run.pid,
				   side ? "new" : "base");
		free(runs);
		if (repeat)
			return -1;
	}
	return 0;
}

static int check_units(const struct sides *s)
{
	size_t i;

	for (i = 1; i < s->na + s->nb; i++) {
		if (tt_load_in_ns(&s->reps[i]->r) != tt_load_in_ns(&s->reps[0]->r)) {
			tt_cli_err("diff: %s counts %s and %s counts %s: not comparable",
				   s->reps[0]->file,
				   tt_load_in_ns(&s->reps[0]->r) ? "ns" : "cycles",
				   s->reps[i]->file,
				   tt_load_in_ns(&s->reps[i]->r) ? "ns" : "cycles");
			return -1;
		}
	}
	return 0;
}

/*
 * The files of argv[first..argc): "BASE NEW", or "BASE... -- NEW..." where mark (the pointer
 * that stood for the "--" given, see tt_cli_diff) separates them. Files go into files[] in
 * order, base first. 0, or -1 after a "tsctrace:" line.
 */
static int split_files(char **argv, int first, int argc, const char *mark, char **files,
		       struct sides *s)
{
	int i, sep = -1;
	size_t n = 0;

	for (i = first; i < argc; i++) {
		if (argv[i] == mark && sep < 0)
			sep = i;
		else
			files[n++] = argv[i];
	}
	if (sep < 0) {
		if (n != 2) {
			tt_cli_err(
				"diff: takes two reports, BASE and NEW, or runs of each: BASE... "
				"-- NEW... (see tsctrace diff --help)");
			return -1;
		}
		s->na = s->nb = 1;
		return 0;
	}
	s->na = (size_t)(sep - first);
	s->nb = n - s->na;
	if (!s->na || !s->nb) {
		tt_cli_err("diff: no %s (see tsctrace diff --help)",
			   s->na ? "new report after '--'" : "base report before '--'");
		return -1;
	}
	return 0;
}

int tt_cli_diff(int argc, char **argv)
{
	/* getopt drops a "--" it meets while permuting, and with it where base ends: the first
	 * one is swapped for this marker (not an option, so getopt keeps it among the files),
	 * found again by its address. */
	static char mark[] = "(--)";
	struct opts o = { DEFAULT_THRESHOLD, ST_MEDIAN, false };
	size_t counts[V_END] = { 0 };
	struct tt_buf out = TT_BUF_INIT;
	struct sides s = { 0 };
	char **files = NULL;
	int c, i, rc = CLI_EXIT_BAD;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			argv[i] = mark;
			break;
		}
	}
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":t:s:h", diff_opts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (parse_threshold(optarg, &o.threshold) < 0)
				return CLI_EXIT_BAD;
			break;
		case 's':
			if (parse_stat(optarg, &o.by) < 0)
				return CLI_EXIT_BAD;
			break;
		case 'F': o.fail_on_slower = true; break;
		case 'h': tt_cli_help("diff"); return CLI_EXIT_OK;
		default: return tt_cli_opt_error("diff", c, argv);
		}
	}
	files = calloc((size_t)argc, sizeof(*files));
	if (!files) {
		tt_cli_err("diff: out of memory");
		return CLI_EXIT_BAD;
	}
	if (split_files(argv, optind, argc, mark, files, &s) < 0) {
		free(files);
		return CLI_EXIT_BAD;
	}
	s.reps = tt_load_reports(files, s.na + s.nb);
	free(files);
	if (!s.reps)
		return CLI_EXIT_BAD;
	if (check_units(&s) < 0 || check_runs(&s) < 0 || diff(&out, &s, &o, counts) < 0)
		goto out_free;
	if (out.failed)
		tt_cli_err("diff: out of memory");
	else if (tt_outfile_write(NULL, out.data, out.len) == 0)
		rc = o.fail_on_slower && counts[V_SLOWER] ? CLI_EXIT_SLOWER : CLI_EXIT_OK;
out_free:
	tt_buf_free(&out);
	tt_load_free_all(s.reps, s.na + s.nb);
	return rc;
}
