/*
 * cmd_export.c - `tsctrace export --openmetrics FILE...`: reports as an OpenMetrics text
 * exposition, for a Prometheus textfile collector, a push gateway or any OpenMetrics reader.
 *
 * Per function of each report, labelled program, function and pid:
 *   tsctrace_call_cycles     histogram of the timed calls in cycles: one cumulative
 *                            _bucket{le=H} per distinct bucket high edge H (calls <= H, exact
 *                            for integer cycles), le="+Inf", _count, _sum (cycles.total);
 *   tsctrace_call_seconds    the same for reports of the monotonic clock (TSC_CLOCK), whose
 *                            unit is ns: exact decimal seconds, never through a double;
 *   tsctrace_calls_total     counter of every call, timed or not.
 * Each family's samples are together, as OpenMetrics requires, and the text ends "# EOF".
 *
 * The counter's TYPE and HELP lines name it tsctrace_calls_total, as the Prometheus text
 * format wants, rather than the strict OpenMetrics family name tsctrace_calls: promtool
 * check metrics (and node_exporter's textfile collector) parse the text format and would
 * otherwise see an undocumented metric, while Prometheus's own OpenMetrics parser takes
 * either. Strict OpenMetrics validators (the Python client's parser) reject this choice.
 *
 * Two reports of the same program and pid would give identical series: refused.
 *
 * The function label is the entry's display name: "memcpy|memmove" for names that shared one
 * address, one series as it is one entry. Labels from "names" would split one function's
 * calls over series that each claim them all.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "cli.h"
#include "export_paths.h"
#include "load.h"
#include "names.h"
#include "outfile.h"

static const struct option export_opts[] = {
	{ "openmetrics", no_argument, NULL, 'm' },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

struct family {
	const char *name;
	const char *unit;
	const char *help;
	bool in_ns; /* for reports whose clock counts ns */
};

static const struct family families[] = {
	{ "tsctrace_call_cycles", "cycles",
	  "Duration of the timed calls of a traced function, in CPU cycles (TSC ticks less the "
	  "measured overhead).",
	  false },
	{ "tsctrace_call_seconds", "seconds",
	  "Duration of the timed calls of a traced function, measured with CLOCK_MONOTONIC_RAW "
	  "less the measured overhead.",
	  true },
};

/* A label value: backslash, double quote and newline escaped. */
static void label_value(struct tt_buf *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			tt_buf_printf(out, "\\%c", *s);
		else if (*s == '\n')
			tt_buf_puts(out, "\\n");
		else
			tt_buf_append(out, s, 1);
	}
}

static void labels(struct tt_buf *out, const struct cli_report *rep, const struct tt_report_func *f)
{
	char name[TT_CLI_NAME_BYTES];

	tt_buf_puts(out, "{program=\"");
	label_value(out, rep->r.program);
	tt_buf_puts(out, "\",function=\"");
	label_value(out, tt_cli_display_name(f->name, name, sizeof(name)));
	tt_buf_printf(out, "\",pid=\"%" PRId64 "\"", rep->r.pid);
}

/* v in the family's unit: cycles as they are; ns as exact decimal seconds. */
static void number(struct tt_buf *out, uint64_t v, bool in_ns)
{
	if (!in_ns)
		tt_buf_printf(out, "%" PRIu64, v);
	else
		tt_buf_printf(out, "%" PRIu64 ".%09" PRIu64, v / 1000000000u, v % 1000000000u);
}

static int by_high(const void *pa, const void *pb)
{
	const struct tt_bucket *a = pa, *b = pb;

	return a->high < b->high ? -1 : a->high > b->high;
}

/*
 * The cumulative buckets of f. A report's buckets are disjoint and ascending, but a merged
 * report may hold overlapping ones, so they are ordered by high edge first: the count at
 * le=H is then every sample of every bucket ending at or below H.
 */
static int histogram(struct tt_buf *out, const struct family *fam, const struct cli_report *rep,
		     const struct tt_report_func *f)
{
	struct tt_bucket *b = malloc((f->nbuckets ? f->nbuckets : 1) * sizeof(*b));
	uint64_t cum = 0;
	size_t i;

	if (!b)
		return -1;
	memcpy(b, f->buckets, f->nbuckets * sizeof(*b));
	qsort(b, f->nbuckets, sizeof(*b), by_high);
	for (i = 0; i < f->nbuckets; i++) {
		cum += b[i].count;
		if (i + 1 < f->nbuckets && b[i + 1].high == b[i].high)
			continue;
		tt_buf_printf(out, "%s_bucket", fam->name);
		labels(out, rep, f);
		tt_buf_puts(out, ",le=\"");
		number(out, b[i].high, fam->in_ns);
		tt_buf_printf(out, "\"} %" PRIu64 "\n", cum);
	}
	free(b);
	tt_buf_printf(out, "%s_bucket", fam->name);
	labels(out, rep, f);
	tt_buf_printf(out, ",le=\"+Inf\"} %" PRIu64 "\n%s_count", cum, fam->name);
	labels(out, rep, f);
	tt_buf_printf(out, "} %" PRIu64 "\n%s_sum", cum, fam->name);
	labels(out, rep, f);
	tt_buf_puts(out, "} ");
	number(out, f->cycles.total, fam->in_ns);
	tt_buf_puts(out, "\n");
	return 0;
}

static int family(struct tt_buf *out, const struct family *fam, struct cli_report **reps, size_t n)
{
	bool header = false;
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (tt_load_in_ns(&reps[i]->r) != fam->in_ns)
			continue;
		if (!header)
			tt_buf_printf(out, "# TYPE %s histogram\n# UNIT %s %s\n# HELP %s %s\n",
				      fam->name, fam->name, fam->unit, fam->name, fam->help);
		header = true;
		for (j = 0; j < reps[i]->r.nfuncs; j++)
			if (histogram(out, fam, reps[i], &reps[i]->funcs[j]) < 0)
				return -1;
	}
	return 0;
}

static int render(struct tt_buf *out, struct cli_report **reps, size_t n)
{
	size_t i, j;

	for (i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (family(out, &families[i], reps, n) < 0)
			return -1;
	tt_buf_puts(out, "# TYPE tsctrace_calls_total counter\n"
			 "# HELP tsctrace_calls_total Calls of a traced function, timed or not.\n");
	for (i = 0; i < n; i++) {
		for (j = 0; j < reps[i]->r.nfuncs; j++) {
			tt_buf_puts(out, "tsctrace_calls_total");
			labels(out, reps[i], &reps[i]->funcs[j]);
			tt_buf_printf(out, "} %" PRIu64 "\n", reps[i]->funcs[j].calls);
		}
	}
	tt_buf_puts(out, "# EOF\n");
	return out->failed ? -1 : 0;
}

static int check_distinct(struct cli_report **reps, size_t n)
{
	size_t i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i; j++) {
			if (reps[i]->r.pid == reps[j]->r.pid &&
			    strcmp(reps[i]->r.program, reps[j]->r.program) == 0) {
				tt_cli_err("export: %s and %s are both of pid %" PRId64 " of %s: "
					   "their series would be the same",
					   reps[j]->file, reps[i]->file, reps[i]->r.pid,
					   reps[i]->r.program);
				return -1;
			}
		}
	}
	return 0;
}

int tt_cli_export(int argc, char **argv)
{
	struct tt_buf out = TT_BUF_INIT;
	const char *output = NULL;
	struct cli_report **reps;
	bool om = false;
	int c, rc = CLI_EXIT_BAD;
	size_t n;

	if (tt_cli_argv_has(argc, argv, "--folded", NULL) ||
	    tt_cli_argv_has(argc, argv, "--format", "pprof"))
		return tt_cli_export_paths(argc, argv);
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", export_opts, NULL)) != -1) {
		switch (c) {
		case 'm': om = true; break;
		case 'o': output = optarg; break;
		case 'h': tt_cli_help("export"); return CLI_EXIT_OK;
		default: return tt_cli_opt_error("export", c, argv);
		}
	}
	n = (size_t)(argc - optind);
	if (!om || !n) {
		tt_cli_err("export: %s (see tsctrace export --help)",
			   !om ? "say which format: --openmetrics" : "no report given");
		return CLI_EXIT_BAD;
	}
	reps = tt_load_reports(argv + optind, n);
	if (!reps)
		return CLI_EXIT_BAD;
	if (check_distinct(reps, n) < 0)
		goto out_free;
	if (render(&out, reps, n) < 0)
		tt_cli_err("export: out of memory");
	else if (tt_outfile_write(output, out.data, out.len) == 0)
		rc = CLI_EXIT_OK;
out_free:
	tt_buf_free(&out);
	tt_load_free_all(reps, n);
	return rc;
}
