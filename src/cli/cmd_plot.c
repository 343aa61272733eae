/*
 * cmd_plot.c - `tsctrace plot [-f NAME] [--log-y] -o OUT.svg FILE`: a report drawn as a
 * standalone SVG image (no gnuplot or other helper), one panel per function (plot.c), in the
 * report's order; `tsctrace plot --flame [--weight W] [--title T] -o OUT.svg FILE...`: the
 * reports' call paths as a flame graph (plot_flame.c); `tsctrace plot --by-arg [-f NAME] -o
 * OUT.svg FILE`: the latency by argument of the functions that have one (plot_by_arg.c).
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>

#include "cli/cli.h"
#include "cli/load.h"
#include "cli/outfile.h"
#include "cli/plot.h"
#include "cli/svg.h"

#define HEADER 44 /* px above the first panel */

static const struct option plot_opts[] = {
	{ "function", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "log-y", no_argument, NULL, 'L' },
	{ "flame", no_argument, NULL, 'F' },
	{ "weight", required_argument, NULL, 'w' },
	{ "title", required_argument, NULL, 't' },
	{ "by-arg", no_argument, NULL, 'A' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* only: the entry -f named (by any of its names), NULL for all. */
static bool wanted(const struct tt_report_func *f, const struct tt_report_func *only)
{
	return !only || f == only;
}

static double panel_height(const struct tt_report_func *f, bool by_arg)
{
	if (by_arg)
		return f->has_by_arg ? TT_PLOT_PANEL : 0;
	return f->timed && f->nbuckets ? TT_PLOT_PANEL : TT_PLOT_EMPTY;
}

static void draw(struct tt_buf *out, const struct cli_report *rep,
		 const struct tt_report_func *only, bool log_y, bool by_arg)
{
	double h = HEADER, y = HEADER;
	char line[96];
	size_t i;

	for (i = 0; i < rep->r.nfuncs; i++)
		if (wanted(&rep->funcs[i], only))
			h += panel_height(&rep->funcs[i], by_arg);
	tt_svg_begin(out, TT_PLOT_WIDTH, h);
	tt_buf_puts(out, "<title>tsctrace: ");
	tt_svg_escape(out, rep->r.program);
	tt_buf_puts(out, "</title>\n");
	if (rep->merged_from > 1)
		snprintf(line, sizeof(line),
			 "tsctrace report, merged %" PRIu64 " runs: ", rep->merged_from);
	else
		snprintf(line, sizeof(line), "tsctrace report of pid %" PRId64 ": ", rep->r.pid);
	tt_buf_puts(out, "<text x=\"20\" y=\"28\" font-size=\"16\">");
	tt_svg_escape(out, line);
	tt_svg_escape(out, rep->r.program);
	tt_buf_puts(out, "</text>\n");
	for (i = 0; i < rep->r.nfuncs; i++) {
		if (!wanted(&rep->funcs[i], only) || !panel_height(&rep->funcs[i], by_arg))
			continue;
		tt_svg_line(out, 10, y, TT_PLOT_WIDTH - 10, y, "#999999");
		if (by_arg)
			tt_plot_by_arg(out, y, &rep->funcs[i], tt_load_in_ns(&rep->r));
		else
			tt_plot_function(out, y, &rep->funcs[i], tt_load_in_ns(&rep->r), log_y);
		y += panel_height(&rep->funcs[i], by_arg);
	}
	tt_svg_end(out);
}

/* plot --flame over the reports argv[0..n). */
static int flame(char **files, size_t n, const char *weight, const char *title, const char *output)
{
	struct tt_buf out = TT_BUF_INIT;
	struct cli_report **reps = tt_load_reports(files, n);
	int rc = CLI_EXIT_BAD;

	if (!reps)
		return CLI_EXIT_BAD;
	if (tt_plot_flame(&out, reps, n, weight, title) == 0 &&
	    tt_outfile_write(output, out.data, out.len) == 0)
		rc = CLI_EXIT_OK;
	tt_buf_free(&out);
	tt_load_free_all(reps, n);
	return rc;
}

int tt_cli_plot(int argc, char **argv)
{
	const char *output = NULL, *name = NULL, *weight = NULL, *title = NULL;
	const struct tt_report_func *only = NULL;
	struct tt_buf out = TT_BUF_INIT;
	struct cli_report *rep;
	bool log_y = false, flames = false, by_arg = false;
	size_t i, shown = 0;
	int c, rc = CLI_EXIT_BAD;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:o:h", plot_opts, NULL)) != -1) {
		switch (c) {
		case 'f': name = optarg; break;
		case 'o': output = optarg; break;
		case 'L': log_y = true; break;
		case 'F': flames = true; break;
		case 'A': by_arg = true; break;
		case 'w': weight = optarg; break;
		case 't': title = optarg; break;
		case 'h': tt_cli_help("plot"); return CLI_EXIT_OK;
		default: return tt_cli_opt_error("plot", c, argv);
		}
	}
	if (flames ? name || log_y || by_arg : weight || title || (by_arg && log_y)) {
		tt_cli_err("plot: %s", flames	? "-f, --log-y and --by-arg are not for --flame"
				       : by_arg ? "--log-y is for histograms (--by-arg is log-log)"
						: "--weight and --title are for --flame");
		return CLI_EXIT_BAD;
	}
	if (!output || !*output || argc == optind || (!flames && argc - optind != 1)) {
		tt_cli_err("plot: %s (see tsctrace plot --help)",
			   !output || !*output ? "-o OUT.svg is required"
			   : argc == optind    ? "no report given"
					       : "takes one report");
		return CLI_EXIT_BAD;
	}
	if (flames)
		return flame(argv + optind, (size_t)(argc - optind), weight, title, output);
	rep = tt_load_report(argv[optind]);
	if (!rep)
		return CLI_EXIT_BAD;
	if (name && !(only = tt_load_find(rep, name))) {
		tt_cli_err("plot: %s has no function named %s", rep->file, name);
		goto out_free;
	}
	for (i = 0; by_arg && i < rep->r.nfuncs; i++)
		shown += wanted(&rep->funcs[i], only) && rep->funcs[i].has_by_arg;
	if (by_arg && !shown) {
		tt_cli_err("plot: %s has no latency by argument%s%s (taken without TSC_ARGS)",
			   rep->file, only ? " of " : "", only ? name : "");
		goto out_free;
	}
	draw(&out, rep, only, log_y, by_arg);
	if (out.failed)
		tt_cli_err("plot: out of memory");
	else if (tt_outfile_write(output, out.data, out.len) == 0)
		rc = CLI_EXIT_OK;
out_free:
	tt_buf_free(&out);
	tt_load_free(rep);
	return rc;
}
