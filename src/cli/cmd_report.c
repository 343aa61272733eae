/*
 * cmd_report.c - `tsctrace report`: JSON reports printed as the shim's own text report.
 *
 * The text comes from report_text.c, the formatter the shim itself uses, fed with the struct
 * tt_report that load.c rebuilt from the JSON, so `report --callers` of a JSON report prints
 * what TSC_FORMAT=text would have written (up to the order options chosen here). Without
 * --callers the per-call-site tables are left out: with TSC_CALLERS=N they can be long.
 *
 * With --callers, frames are named from the objects' symbols and debug information where the
 * report says which object and address each is (sites.h): function+offset and file:line,
 * also for stripped programs whose debug files are found by build ID (--debug-dir adds places).
 *
 * With no file, the latest run directory of `tsctrace run` in the current directory is read
 * (rundir.h): its merged.json, or with --per-process each process's report of it; a run
 * directory named as the file is read the same way.
 *
 * With --top, the total% column is a share of the functions shown (the formatter sums what it
 * is given); a note under the table says so. Functions never called get no row (a line counts
 * them), as in the shim's own text report, unless --all.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>

#include "cli/cli.h"
#include "cli/load_text.h"
#include "cli/load.h"
#include "cli/outfile.h"
#include "report/report_fmt.h"
#include "cli/rundir.h"
#include "cli/sites.h"
#include "cli/table.h"

enum sort_key {
	SORT_FILE,
	SORT_TOTAL,
	SORT_CALLS,
	SORT_MEDIAN,
	SORT_P99,
	SORT_P999,
	SORT_NAME,
	SORT_SELF
};

static const char *const sort_names[] = { "file", "total", "calls", "median",
					  "p99",  "p999",  "name",  "self" };

/* What the options add to the text: tables left out by default, rows never called. */
struct view {
	bool callers, all, threads, slowest, by_arg, wide;
};

struct order {
	const struct tt_report_func *f;
	size_t index; /* position in the file: the final tie-break keeps sorts stable */
};

static const struct option report_opts[] = {
	{ "sort", required_argument, NULL, 's' },
	{ "top", required_argument, NULL, 'n' },
	{ "callers", no_argument, NULL, 'c' },
	{ "all", no_argument, NULL, 'a' },
	{ "debug-dir", required_argument, NULL, 'd' },
	{ "self", no_argument, NULL, 'S' },
	{ "threads", no_argument, NULL, 'T' },
	{ "slowest", no_argument, NULL, 'L' },
	{ "by-arg", no_argument, NULL, 'A' },
	{ "wide", no_argument, NULL, 'W' },
	{ "per-process", no_argument, NULL, 'P' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static int cmp_u64_desc(uint64_t a, uint64_t b)
{
	return a == b ? 0 : a > b ? -1 : 1;
}

static int by_key(const void *pa, const void *pb, void *pkey)
{
	const struct order *a = pa, *b = pb;
	enum sort_key key = *(const enum sort_key *)pkey;
	int c = 0;

	switch (key) {
	case SORT_TOTAL:
		c = cmp_u64_desc(tt_report_func_cycles_est(a->f), tt_report_func_cycles_est(b->f));
		break;
	case SORT_CALLS: c = cmp_u64_desc(a->f->calls, b->f->calls); break;
	case SORT_MEDIAN: c = cmp_u64_desc(a->f->cycles.median, b->f->cycles.median); break;
	case SORT_P99: c = cmp_u64_desc(a->f->cycles.p99, b->f->cycles.p99); break;
	case SORT_P999: c = cmp_u64_desc(a->f->cycles.p999, b->f->cycles.p999); break;
	case SORT_NAME: c = strcmp(a->f->name, b->f->name); break;
	case SORT_SELF: c = cmp_u64_desc(a->f->self.total, b->f->self.total); break;
	case SORT_FILE: break;
	}
	if (c)
		return c;
	return a->index < b->index ? -1 : a->index > b->index;
}

static bool any_callers(const struct cli_report *rep)
{
	size_t i;

	for (i = 0; i < rep->r.nfuncs; i++)
		if (rep->funcs[i].has_callers)
			return true;
	return false;
}

/* Whether some function has slow calls kept (by_arg false) or a by_arg table (true). */
static bool any_tail(const struct cli_report *rep, bool by_arg)
{
	size_t i;

	for (i = 0; i < rep->r.nfuncs; i++)
		if (by_arg ? rep->funcs[i].has_by_arg && rep->funcs[i].by_arg.nbuckets
			   : rep->funcs[i].nslowest > 0)
			return true;
	return false;
}

/* One report as text into out; -1 when out of memory. */
static int one(struct tt_buf *out, const struct cli_report *rep, enum sort_key key, size_t top,
	       const struct view *v)
{
	bool callers = v->callers, threads = v->threads;
	size_t n = rep->r.nfuncs, shown = top < n ? top : n, i;
	struct order *ord = calloc(n ? n : 1, sizeof(*ord));
	struct tt_report_func *funcs = calloc(n ? n : 1, sizeof(*funcs));
	struct tt_report r = rep->r;

	if (!ord || !funcs) {
		free(ord);
		free(funcs);
		return -1;
	}
	for (i = 0; i < n; i++)
		ord[i] = (struct order){ &rep->funcs[i], i };
	qsort_r(ord, n, sizeof(*ord), by_key, &key);
	for (i = 0; i < shown; i++) {
		funcs[i] = *ord[i].f;
		funcs[i].has_callers = funcs[i].has_callers && callers;
	}
	r.funcs = funcs;
	r.nfuncs = shown;
	r.text_threads = threads;
	r.text_slowest = v->slowest;
	r.text_by_arg = v->by_arg;
	r.wide_names = v->wide;
	tt_report_text_rows(out, &r, v->all);
	if (shown < n)
		tt_buf_printf(out, "\n(%zu of %zu functions shown, by %s; total%% is of those)\n",
			      shown, n, sort_names[key == SORT_FILE ? SORT_TOTAL : key]);
	if (callers && !any_callers(rep))
		tt_buf_puts(out, "\nno callers in this report (taken without TSC_CALLERS)\n");
	if (key == SORT_SELF && n && !rep->funcs[0].has_self)
		tt_buf_puts(out,
			    "\nno self time in this report (written before tsctrace kept it)\n");
	if (threads && n && !rep->funcs[0].has_threads)
		tt_buf_puts(out, "\nno per-thread rows in this report (written before tsctrace "
				 "kept them, or merged)\n");
	if (v->slowest && !any_tail(rep, false))
		tt_buf_puts(out, "\nno slowest calls in this report (taken with TSC_SLOWEST=0, or "
				 "before tsctrace kept them)\n");
	if (v->by_arg && !any_tail(rep, true))
		tt_buf_puts(out, "\nno latency by argument in this report (taken without "
				 "TSC_ARGS)\n");
	free(ord);
	free(funcs);
	return 0;
}

static int parse_sort(const char *s, enum sort_key *key)
{
	size_t i;

	for (i = SORT_TOTAL; i <= SORT_SELF; i++) {
		if (strcmp(s, sort_names[i]) == 0) {
			*key = (enum sort_key)i;
			return 0;
		}
	}
	tt_cli_err("report: --sort takes total, calls, median, p99, p999, name or self, not '%s'",
		   s);
	return -1;
}

/*
 * What to read when no file or a run directory is named (see the top of the file): the path
 * of its merged.json into *merged (malloc'd), or with per_process its process reports into
 * *pp. Returns 0, or -1 after a "tsctrace:" line.
 */
static int run_reports(const char *named, bool per_process, char **merged,
		       struct tt_run_reports *pp)
{
	char latest[NAME_MAX + 1];
	const char *dir = named;
	struct stat st;

	if (!dir) {
		if (tt_rundir_latest("report", latest, sizeof(latest)) < 0)
			return -1;
		dir = latest;
	}
	if (per_process) {
		if (tt_rundir_load(dir, pp) < 0)
			return -1;
		if (!pp->n) {
			tt_cli_err("report: %s holds no process report (nothing was traced)", dir);
			return -1;
		}
		return 0;
	}
	if (asprintf(merged, "%s/" TT_RUNDIR_MERGED, dir) < 0) {
		*merged = NULL;
		tt_cli_err("report: out of memory");
		return -1;
	}
	if (stat(*merged, &st) < 0) {
		tt_cli_err("report: %s has no " TT_RUNDIR_MERGED
			   " (nothing was traced in that run, "
			   "or it has not ended)",
			   dir);
		free(*merged);
		*merged = NULL;
		return -1;
	}
	return 0;
}

/* Whether path names a run directory: a directory holding merged.json (any other is an
 * error of the loader's, "Is a directory"). */
static bool is_run_dir(const char *path)
{
	struct stat st;
	char *merged;
	bool yes;

	if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode) ||
	    asprintf(&merged, "%s/" TT_RUNDIR_MERGED, path) < 0)
		return false;
	yes = stat(merged, &st) == 0;
	free(merged);
	return yes;
}

int tt_cli_report(int argc, char **argv)
{
	struct tt_buf out = TT_BUF_INIT;
	enum sort_key key = SORT_FILE;
	struct view v = { false };
	bool per_process = false;
	struct cli_report **reps;
	struct tt_run_reports pp = { 0 };
	char *merged = NULL, **files;
	bool from_run = false;
	struct tt_sites **sites = NULL;
	const char **dirs = calloc((size_t)argc + 1, sizeof(*dirs));
	size_t top = SIZE_MAX, nfiles, ndirs = 0, i;
	int c, rc = CLI_EXIT_BAD;

	if (!dirs) {
		tt_cli_err("report: out of memory");
		return CLI_EXIT_BAD;
	}

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":s:n:cad:STWPh", report_opts, NULL)) != -1) {
		switch (c) {
		case 's':
			if (parse_sort(optarg, &key) < 0)
				goto out_dirs;
			break;
		case 'n':
			if (!tt_cli_parse_count(optarg, &top)) {
				tt_cli_err("report: --top takes a positive count, not '%s'",
					   optarg);
				goto out_dirs;
			}
			break;
		case 'c': v.callers = true; break;
		case 'S': key = SORT_SELF; break;
		case 'T': v.threads = true; break;
		case 'L': v.slowest = true; break;
		case 'A': v.by_arg = true; break;
		case 'W': v.wide = true; break;
		case 'a': v.all = true; break;
		case 'P': per_process = true; break;
		case 'd':
			if (!optarg[0]) {
				tt_cli_err("report: --debug-dir takes a directory, not ''");
				goto out_dirs;
			}
			dirs[ndirs++] = optarg;
			break;
		case 'h':
			tt_cli_help("report");
			free(dirs);
			return CLI_EXIT_OK;
		default: free(dirs); return tt_cli_opt_error("report", c, argv);
		}
	}
	nfiles = (size_t)(argc - optind);
	files = argv + optind;
	if (nfiles > 1 && per_process) {
		tt_cli_err("report: --per-process takes one run directory, or none for the latest");
		goto out_dirs;
	}
	if (!nfiles || per_process || (nfiles == 1 && is_run_dir(files[0]))) {
		if (run_reports(nfiles ? files[0] : NULL, per_process, &merged, &pp) < 0)
			goto out_dirs;
		if (merged) {
			files = &merged;
			nfiles = 1;
		} else { /* the process reports, theirs to free from here on (labels aside) */
			reps = pp.v;
			nfiles = pp.n;
			pp.v = NULL;
			pp.n = 0;
			from_run = true;
		}
	}
	if (!from_run)
		reps = tt_load_reports(files, nfiles);
	if (!reps)
		goto out_dirs;
	if ((v.callers &&
	     tt_load_text_lacks("report", reps, nfiles, "callers", "its callers") < 0) ||
	    (v.threads &&
	     tt_load_text_lacks("report", reps, nfiles, "threads", "its threads") < 0) ||
	    (v.slowest &&
	     tt_load_text_lacks("report", reps, nfiles, "slowest", "its slowest calls") < 0) ||
	    (v.by_arg &&
	     tt_load_text_lacks("report", reps, nfiles, "by_arg", "its latency by argument") < 0))
		goto out;
	sites = calloc(nfiles, sizeof(*sites));
	for (i = 0; v.callers && sites && i < nfiles; i++)
		if (tt_sites_resolve(reps[i], dirs, ndirs, &sites[i]) < 0)
			goto out;
	if (!sites) {
		tt_cli_err("report: out of memory");
		goto out;
	}
	for (i = 0; i < nfiles; i++) {
		if (nfiles > 1) {
			tt_buf_puts(&out, i ? "\n==> " : "==> ");
			tt_table_clean(&out, reps[i]->file);
			tt_buf_puts(&out, " <==\n");
		}
		if (one(&out, reps[i], key, top, &v) < 0)
			out.failed = true;
	}
	if (out.failed)
		tt_cli_err("report: out of memory");
	else if (tt_outfile_write(NULL, out.data, out.len) == 0)
		rc = CLI_EXIT_OK;
out:
	tt_buf_free(&out);
	tt_load_free_all(reps, nfiles);
	for (i = 0; sites && i < nfiles; i++)
		tt_sites_free(sites[i]);
	free(sites);
out_dirs:
	tt_rundir_reports_free(&pp);
	free(merged);
	free(dirs);
	return rc;
}
