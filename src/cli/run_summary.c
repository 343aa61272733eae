/*
 * run_summary.c - see run_summary.h.
 *
 * Times are shown in ns (us, ms, s as they grow) from the report's own conversion with its
 * TSC rate, or in cycles when the report has no rate. "processes" counts the process reports
 * in which the function made at least one call. A report that cannot be read (a process
 * killed while writing it) is named on one line and left out of the merge.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/load.h"
#include "cli/merge.h"
#include "cli/names.h"
#include "cli/outfile.h"
#include "cli/run_summary.h"
#include "cli/rundir.h"
#include "cli/table.h"

/* A time in ns as people read it: "412 ns", "3.1 us", "12.0 ms", "1.52 s". */
static void add_time(struct tt_table *t, double ns, bool cycles)
{
	if (cycles)
		tt_table_addf(t, "%.0f cyc", ns);
	else if (ns < 1e3)
		tt_table_addf(t, "%.0f ns", ns);
	else if (ns < 1e6)
		tt_table_addf(t, "%.1f us", ns / 1e3);
	else if (ns < 1e9)
		tt_table_addf(t, "%.1f ms", ns / 1e6);
	else
		tt_table_addf(t, "%.2f s", ns / 1e9);
}

/* Whether rep has a function of f's names that was called. */
static bool called_in(const struct cli_report *rep, const struct tt_report_func *f)
{
	const struct tt_report_func *g;
	size_t i;

	if (!f->nnames) {
		g = tt_load_find(rep, f->name);
		return g && g->calls > 0;
	}
	for (i = 0; i < f->nnames; i++) {
		g = tt_load_find(rep, f->names[i]);
		if (g && g->calls > 0)
			return true;
	}
	return false;
}

/* The table of merged report m, its functions' processes counted in reps[0..n). */
static void table(struct tt_buf *out, const struct cli_report *m, struct cli_report *const *reps,
		  size_t n, size_t top)
{
	const struct tt_report *r = &m->r;
	bool in_ns = tt_load_in_ns(r);
	char buf[TT_CLI_NAME_BYTES];
	double all = 0;
	size_t i, k, called = 0, shown = 0;
	struct tt_table t;

	for (i = 0; i < r->nfuncs; i++) {
		all += (double)tt_report_func_cycles_est(&r->funcs[i]);
		called += r->funcs[i].calls > 0;
	}
	tt_table_init(&t, 8, 1ul);
	tt_table_add(&t, "function");
	tt_table_add(&t, "calls");
	tt_table_add(&t, "processes");
	tt_table_add(&t, "min");
	tt_table_add(&t, "median");
	tt_table_add(&t, "p90");
	tt_table_add(&t, "p99");
	tt_table_add(&t, "total");
	for (i = 0; i < r->nfuncs && shown < top; i++) {
		const struct tt_report_func *f = &r->funcs[i];
		bool cycles = !in_ns && !f->has_ns;
		size_t procs = 0;

		if (!f->calls)
			continue;
		shown++;
		for (k = 0; k < n; k++)
			procs += called_in(reps[k], f);
		tt_table_add(&t, tt_cli_display_name(f->name, buf, sizeof(buf)));
		tt_table_addf(&t, "%" PRIu64, f->calls);
		tt_table_addf(&t, "%zu", procs);
		if (!f->timed) {
			for (k = 0; k < 4; k++)
				tt_table_add(&t, "-");
		} else if (cycles || in_ns) {
			add_time(&t, (double)f->cycles.min, cycles);
			add_time(&t, (double)f->cycles.median, cycles);
			add_time(&t, (double)f->cycles.p90, cycles);
			add_time(&t, (double)f->cycles.p99, cycles);
		} else {
			add_time(&t, f->ns.min, false);
			add_time(&t, f->ns.median, false);
			add_time(&t, f->ns.p90, false);
			add_time(&t, f->ns.p99, false);
		}
		tt_table_addf(&t, "%.1f%%",
			      all > 0 ? 100.0 * (double)tt_report_func_cycles_est(f) / all : 0.0);
	}
	if (shown)
		tt_table_print(&t, out, "  ", NULL, 0);
	else
		tt_buf_puts(out, "  no traced function was called\n");
	if (shown < called)
		tt_buf_printf(out,
			      "  (%zu of %zu functions called shown, heaviest total first; --top N "
			      "shows more)\n",
			      shown, called);
	tt_table_free(&t);
}

/* Earliest start first: the merged header is then the command's own first process. */
static int by_start(const void *pa, const void *pb)
{
	const struct cli_report *a = *(struct cli_report *const *)pa,
				*b = *(struct cli_report *const *)pb;

	if (a->r.start_unix_ns != b->r.start_unix_ns)
		return a->r.start_unix_ns < b->r.start_unix_ns ? -1 : 1;
	return a->r.pid < b->r.pid ? -1 : a->r.pid > b->r.pid;
}

/* merged.json of the reports, then read back: the summary shows what the file holds. */
static struct cli_report *merge_into(const char *dir, struct cli_report *const *reps, size_t n)
{
	struct tt_buf out = TT_BUF_INIT;
	char path[PATH_MAX];
	struct cli_report *m = NULL;

	if ((size_t)snprintf(path, sizeof(path), "%s/" TT_RUNDIR_MERGED, dir) >= sizeof(path))
		return NULL;
	if (tt_merge_render(reps, n, false, &out) == 0 &&
	    tt_outfile_write(path, out.data, out.len) == 0)
		m = tt_load_report(path);
	tt_buf_free(&out);
	return m;
}

/* Whether s[0..n) is a plain C name: globs, object:name, name@version and C++ names are
 * matched in ways the merged names do not show. */
static bool plain_name(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!(s[i] == '_' || (s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= 'A' && s[i] <= 'Z')))
			return false;
	return n > 0;
}

/* The plain names of funcs (TSC_FUNCS: separated by commas or blanks) that no process of the
 * run called, on one line. */
static void uncalled(struct tt_buf *out, const char *funcs, const struct cli_report *m)
{
	const struct tt_report_func *f;
	char name[256];
	size_t n, said = 0;

	for (; funcs && *funcs; funcs += n + (funcs[n] != '\0')) {
		n = strcspn(funcs, ", \t\n");
		if (!plain_name(funcs, n) || n >= sizeof(name))
			continue;
		memcpy(name, funcs, n);
		name[n] = '\0';
		f = m ? tt_load_find(m, name) : NULL;
		if (f && f->calls)
			continue;
		tt_buf_puts(out, said++ ? ", "
					: "  not called in any process (not found, or never "
					  "called): ");
		tt_table_clean(out, name);
	}
	if (said)
		tt_buf_puts(out, "\n");
}

int tt_run_summary(const char *dir, const char *shown, const char *funcs, size_t top, bool quiet)
{
	struct tt_buf out = TT_BUF_INIT;
	struct tt_run_reports run;
	struct cli_report *m = NULL;
	size_t nempty = tt_rundir_empty_count(dir), n;
	int rc;

	if (tt_rundir_load(dir, &run) < 0)
		return -1;
	n = run.n;
	if (n) {
		qsort(run.v, n, sizeof(*run.v), by_start);
		m = merge_into(dir, run.v, n);
	}
	if (!quiet) {
		tt_buf_printf(&out, "tsctrace: %zu process%s reported", n, n == 1 ? "" : "es");
		if (nempty)
			tt_buf_printf(&out, ", %zu ran with nothing traced (no report)", nempty);
		if (run.unreadable)
			tt_buf_printf(&out, ", %zu report%s unreadable", run.unreadable,
				      run.unreadable == 1 ? "" : "s");
		tt_buf_puts(&out, "\n");
		if (m)
			table(&out, m, run.v, n, top);
		uncalled(&out, funcs, m);
	}
	rc = m || !n ? 0 : -1;
	tt_buf_printf(&out, "tsctrace: run data in %s/", shown);
	if (m)
		tt_buf_puts(&out, " (merged.json; tsctrace report shows it)\n");
	else
		tt_buf_puts(&out, n ? " (no merged.json: the reports could not be merged)\n"
				    : " (nothing traced: no report)\n");
	if (!out.failed)
		fwrite(out.data, 1, out.len, stderr);
	if (m)
		tt_load_free(m);
	tt_rundir_reports_free(&run);
	tt_buf_free(&out);
	return rc;
}
