/*
 * cmd_merge.c - `tsctrace merge -o OUT FILE...`: many reports (processes of one job, repeated
 * runs) made into one schema-1 report.
 *
 * Functions are matched by name and merged by merge_func.c (exact sums, exact extremes, the
 * union of the histograms, percentiles recomputed from it). Entries sharing any of their
 * "names" are one function (group.h): "memcpy|memmove" of one report and "memcpy" of another
 * merge into one entry listing both names. The header is the first report's
 * (program, argv, pid, start time, wall time, clock, overhead), except that thread counts are
 * summed, the warnings of all reports are kept (each once), notes on what differed are added
 * as warnings, and two extra members say it is a merge: "merged_from" counts the original
 * reports (a merged report merged again counts its own) and "merged" lists them (pid, argv,
 * start time). The same run given twice (a report named twice, or a report and a merge that
 * holds it) is refused unless --allow-duplicates: its calls would count twice (runlist.h).
 * Reports in ns (monotonic clock) and in cycles cannot be merged: their numbers have
 * different units.
 *
 * Under TSC_BUDGET each function's weighted figures are merged from the weights its reports
 * carry (merge_func.c); a function some report weighed but another cannot be weighed with
 * is merged unweighted, with a note.
 *
 * Self time and per-thread rows are merged by merge_self.c (threads kept per process), call
 * sites by merge_sites.c (a site known by its frames' objects and addresses, its rows added,
 * its percentiles from the union of their histograms), into one "objects" table. Sites from
 * before site histograms that share a site with another input's cannot be merged: that
 * function then has no callers, and a warning says so.
 *
 * The JSON comes from report_json.c, the shim's own writer, so merged and original reports
 * read alike; "merged_from" is added as the last member of the top-level object.
 */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/load.h"
#include "cli/merge.h"
#include "cli/outfile.h"
#include "report/report_fmt.h"
#include "cli/runlist.h"
#include "cli/strsort.h"

#define NOTES 5 /* at most one note of each kind below */

struct merged {
	struct tt_report r;
	struct tt_report_func *funcs;
	struct tt_group *groups; /* one per merged function, first-seen order */
	size_t ngroups;
	const char **warnings;
	char *notes[NOTES]; /* malloc'd, among warnings */
	size_t nnotes;
	uint64_t merged_from;
	struct tt_run_ref *runs; /* every input's runs, in order: the "merged" list */
	size_t nruns;
	bool list_runs;	 /* false when an input is a merge from before "merged" was written */
	bool unweighted; /* note_unweighted has said it */
	struct tt_merge_objects objects; /* of the merged sites' frames */
	bool sites_dropped;		 /* some function's callers could not be merged */
	bool by_arg_dropped;		 /* some function's by_arg could not be merged */
};

static const struct option merge_opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "allow-duplicates", no_argument, NULL, 'D' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void note(struct merged *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct merged *m, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (m->nnotes == NOTES)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) >= 0) {
		m->notes[m->nnotes++] = s;
		m->warnings[m->r.nwarnings++] = s;
	}
	va_end(ap);
}

/* Notes on what the reports disagree about, which the header (the first's) hides. */
static void add_notes(struct merged *m, struct cli_report *const *reps, size_t n)
{
	const struct tt_report *a = &reps[0]->r;
	bool overhead = false, rate = false, program = false;
	size_t i;

	for (i = 1; i < n; i++) {
		overhead |= reps[i]->r.overhead.subtracted != a->overhead.subtracted;
		rate |= fabs((double)reps[i]->r.clock.tsc_hz - (double)a->clock.tsc_hz) >
			0.001 * (double)a->clock.tsc_hz;
		program |= strcmp(reps[i]->r.program, a->program) != 0;
	}
	if (overhead)
		note(m, "merged reports subtracted different overheads: each one's cycles are "
			"its own, and buckets with different edges were kept apart");
	if (rate)
		note(m,
		     "merged reports have different TSC rates: ns percentiles use %" PRIu64
		     " Hz (the first report's)",
		     a->clock.tsc_hz);
	if (program)
		note(m, "merged reports of different programs: the header is the first one's");
}

/*
 * Every report's warnings into m->warnings, each text once, where it first comes. Sorted
 * rather than compared pairwise: a file may hold millions of them.
 */
static int keep_warnings(struct merged *m, struct cli_report *const *reps, size_t n, size_t all)
{
	struct tt_str_ref *refs = calloc(all ? all : 1, sizeof(*refs));
	bool *first = calloc(all ? all : 1, sizeof(*first));
	size_t i, j, k = 0;

	if (!refs || !first) {
		free(refs);
		free(first);
		return -1;
	}
	for (i = 0; i < n; i++)
		for (j = 0; j < reps[i]->r.nwarnings; j++, k++)
			refs[k] = (struct tt_str_ref){ reps[i]->r.warnings[j], k, k };
	tt_str_refs_sort(refs, all);
	for (i = 0; i < all; i = tt_str_run_end(refs, all, i))
		first[refs[i].owner] = true;
	for (i = 0, k = 0; i < n; i++)
		for (j = 0; j < reps[i]->r.nwarnings; j++, k++)
			if (first[k])
				m->warnings[m->r.nwarnings++] = reps[i]->r.warnings[j];
	free(refs);
	free(first);
	return 0;
}

static int merge_header(struct merged *m, struct cli_report *const *reps, size_t n)
{
	size_t i, all = 0;

	m->r = reps[0]->r;
	m->r.threads.traced = m->r.threads.pinned = m->r.threads.migrations = 0;
	m->merged_from = 0;
	for (i = 0; i < n; i++) {
		m->r.threads.traced += reps[i]->r.threads.traced;
		m->r.threads.pinned += reps[i]->r.threads.pinned;
		m->r.threads.migrations += reps[i]->r.threads.migrations;
		m->merged_from += reps[i]->merged_from;
		all += reps[i]->r.nwarnings;
	}
	m->warnings = calloc(all + NOTES, sizeof(*m->warnings));
	m->r.nwarnings = 0;
	if (!m->warnings || keep_warnings(m, reps, n, all) < 0)
		return -1;
	add_notes(m, reps, n);
	m->r.warnings = m->warnings;
	return 0;
}

/* Most cycles first (weighted under a budget), as the shim lists them; ties keep first-seen
 * order. */
static int by_total(const void *pa, const void *pb, void *pfuncs)
{
	const struct tt_report_func *funcs = pfuncs;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	uint64_t ta = tt_report_func_cycles_est(&funcs[a]),
		 tb = tt_report_func_cycles_est(&funcs[b]);

	if (ta != tb)
		return ta > tb ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Put m->funcs in by_total order. */
static int sort_funcs(struct merged *m)
{
	struct tt_report_func *sorted = calloc(m->r.nfuncs ? m->r.nfuncs : 1, sizeof(*sorted));
	size_t *order = calloc(m->r.nfuncs ? m->r.nfuncs : 1, sizeof(*order)), i;

	if (!sorted || !order) {
		free(sorted);
		free(order);
		return -1;
	}
	for (i = 0; i < m->r.nfuncs; i++)
		order[i] = i;
	qsort_r(order, m->r.nfuncs, sizeof(*order), by_total, m->funcs);
	for (i = 0; i < m->r.nfuncs; i++)
		sorted[i] = m->funcs[order[i]];
	free(m->funcs);
	free(order);
	m->funcs = sorted;
	m->r.funcs = sorted;
	return 0;
}

/* A note when a function some input weighed (TSC_BUDGET) came out unweighted: another input
 * of it is a budget's from before the weights were written (merge_func.c). */
static void note_unweighted(struct merged *m, const struct tt_group *g,
			    const struct tt_report_func *out)
{
	size_t i;

	if (out->sampling.weighted || m->unweighted)
		return;
	for (i = 0; i < g->nmembers; i++)
		if (g->members[i].f->sampling.weighted) {
			note(m,
			     "%s (and maybe others): a report has no weights of its budgeted "
			     "calls: merged unweighted, percentiles and mean of the calls timed",
			     g->name);
			m->unweighted = true;
			return;
		}
}

/* Returns -1 after a "tsctrace:" line. */
static int merge_funcs(struct merged *m, struct cli_report *const *reps, size_t n)
{
	bool dropped;
	size_t i;

	if (tt_group_funcs(reps, n, &m->groups, &m->ngroups) < 0)
		return -1;
	m->funcs = calloc(m->ngroups ? m->ngroups : 1, sizeof(*m->funcs));
	if (!m->funcs) {
		tt_cli_err("merge: out of memory");
		return -1;
	}
	for (i = 0; i < m->ngroups; i++) {
		if (tt_merge_func(reps, &m->groups[i], m->groups[i].members, m->groups[i].nmembers,
				  m->r.clock.tsc_hz, &m->funcs[i]) < 0)
			return -1;
		m->r.nfuncs = i + 1;
		note_unweighted(m, &m->groups[i], &m->funcs[i]);
		if (tt_merge_sites(reps, &m->groups[i], m->groups[i].members, m->groups[i].nmembers,
				   &m->objects, &m->funcs[i], &dropped) < 0)
			return -1;
		if (dropped && !m->sites_dropped)
			note(m,
			     "%s (and maybe others): a report's call sites have no histograms "
			     "(written before them): its callers are not merged",
			     m->groups[i].name);
		m->sites_dropped |= dropped;
		if (tt_merge_tail(reps, m->groups[i].members, m->groups[i].nmembers, &m->funcs[i],
				  &dropped) < 0)
			return -1;
		if (dropped && !m->by_arg_dropped)
			note(m,
			     "%s (and maybe others): reports time different arguments or filters "
			     "(TSC_ARGS): its latency by argument is not merged",
			     m->groups[i].name);
		m->by_arg_dropped |= dropped;
	}
	m->r.objects = m->objects.v;
	m->r.nobjects = m->objects.n;
	m->r.funcs = m->funcs;
	if (sort_funcs(m) < 0) {
		tt_cli_err("merge: out of memory");
		return -1;
	}
	return 0;
}

static void merged_free(struct merged *m)
{
	size_t i;

	for (i = 0; i < m->r.nfuncs; i++)
		tt_merge_func_free(&m->funcs[i]);
	for (i = 0; i < m->nnotes; i++)
		free(m->notes[i]);
	free(m->funcs);
	tt_groups_free(m->groups, m->ngroups);
	free(m->warnings);
	free(m->runs);
	free(m->objects.v);
}

/* The runs that went in, as JSON: [{"pid": .., "argv": [..], "start_unix_ns": ..}, ...]. */
static void render_runs(struct tt_buf *out, const struct merged *m)
{
	size_t i, k;

	tt_buf_puts(out, ",\n  \"merged\": [");
	for (i = 0; i < m->nruns; i++) {
		const struct tt_report_run *run = &m->runs[i].run;

		tt_buf_printf(out, "%s\n    {\"pid\": %" PRId64 ", \"argv\": [", i ? "," : "",
			      run->pid);
		for (k = 0; k < run->argc; k++) {
			tt_buf_puts(out, k ? ", " : "");
			tt_json_string(out, run->argv[k]);
		}
		tt_buf_printf(out, "], \"start_unix_ns\": %" PRIu64 "}", run->start_unix_ns);
	}
	tt_buf_puts(out, "\n  ]");
}

/* The merged report as JSON: the shim's writer, then "merged_from" and "merged" before the
 * final '}'. */
static int render(struct tt_buf *out, const struct merged *m)
{
	static const char end[] = "\n}\n";

	tt_report_json(out, &m->r);
	if (out->failed || out->len < sizeof(end) - 1 ||
	    strcmp(out->data + out->len - (sizeof(end) - 1), end) != 0)
		return -1;
	out->len -= sizeof(end) - 1;
	tt_buf_printf(out, ",\n  \"merged_from\": %" PRIu64, m->merged_from);
	if (m->list_runs)
		render_runs(out, m);
	tt_buf_puts(out, "\n}\n");
	return out->failed ? -1 : 0;
}

/*
 * The runs of the inputs into m, refusing one run given twice (a report named twice, or a
 * report and a merge holding it) unless allow: its calls would count twice. Returns 0, or -1
 * after a "tsctrace:" line.
 */
static int take_runs(struct merged *m, struct cli_report *const *reps, size_t n, bool allow)
{
	size_t a, b, i;

	if (tt_runlist(reps, n, &m->runs, &m->nruns) < 0) {
		tt_cli_err("merge: out of memory");
		return -1;
	}
	m->list_runs = true;
	for (i = 0; i < n; i++)
		m->list_runs &= reps[i]->merged_from == 1 || reps[i]->r.nmerged > 0;
	if (allow || !tt_runlist_repeat(m->runs, m->nruns, &a, &b))
		return 0;
	if (m->runs[a].rep == m->runs[b].rep)
		tt_cli_err("merge: %s holds pid %" PRId64 " started at %" PRIu64
			   " ns twice (--allow-duplicates merges it anyway)",
			   reps[m->runs[a].rep]->file, m->runs[b].run.pid,
			   m->runs[b].run.start_unix_ns);
	else
		tt_cli_err(
			"merge: %s and %s are the same run (pid %" PRId64 " started at %" PRIu64
			" ns): its calls would count twice (--allow-duplicates merges it anyway)",
			reps[m->runs[a].rep]->file, reps[m->runs[b].rep]->file, m->runs[b].run.pid,
			m->runs[b].run.start_unix_ns);
	return -1;
}

static int check_units(struct cli_report *const *reps, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++) {
		if (tt_load_in_ns(&reps[i]->r) != tt_load_in_ns(&reps[0]->r)) {
			tt_cli_err("merge: %s counts %s and %s counts %s: not mergeable",
				   reps[0]->file, tt_load_in_ns(&reps[0]->r) ? "ns" : "cycles",
				   reps[i]->file, tt_load_in_ns(&reps[i]->r) ? "ns" : "cycles");
			return -1;
		}
	}
	return 0;
}

int tt_merge_render(struct cli_report *const *reps, size_t n, bool allow_dups, struct tt_buf *out)
{
	struct merged m = { 0 };
	int rc = -1;

	if (check_units(reps, n) < 0 || take_runs(&m, reps, n, allow_dups) < 0)
		goto out_free;
	if (merge_header(&m, reps, n) < 0) {
		tt_cli_err("merge: out of memory");
		goto out_free;
	}
	if (merge_funcs(&m, reps, n) < 0)
		goto out_free;
	if (render(out, &m) < 0) {
		tt_cli_err("merge: out of memory");
		goto out_free;
	}
	rc = 0;
out_free:
	merged_free(&m);
	return rc;
}

int tt_cli_merge(int argc, char **argv)
{
	struct tt_buf out = TT_BUF_INIT;
	const char *output = NULL;
	struct cli_report **reps;
	bool allow_dups = false;
	size_t n;
	int c, rc = CLI_EXIT_BAD;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", merge_opts, NULL)) != -1) {
		switch (c) {
		case 'o': output = optarg; break;
		case 'D': allow_dups = true; break;
		case 'h': tt_cli_help("merge"); return CLI_EXIT_OK;
		default: return tt_cli_opt_error("merge", c, argv);
		}
	}
	n = (size_t)(argc - optind);
	if (!output || !*output || !n) {
		tt_cli_err("merge: %s (see tsctrace merge --help)",
			   !output || !*output ? "-o OUT is required" : "no report given");
		return CLI_EXIT_BAD;
	}
	reps = tt_load_reports(argv + optind, n);
	if (!reps)
		return CLI_EXIT_BAD;
	if (tt_merge_render(reps, n, allow_dups, &out) == 0 &&
	    tt_outfile_write(output, out.data, out.len) == 0)
		rc = CLI_EXIT_OK;
	tt_buf_free(&out);
	tt_load_free_all(reps, n);
	return rc;
}
