/*
 * plot_flame.c - `tsctrace plot --flame [--weight W] [--title T] -o OUT.svg FILE...`: the
 * call paths of reports (TSC_CALLERS) drawn as a flame graph (flame.c).
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "base/basename.h"
#include "callpath.h"
#include "cli.h"
#include "export_paths.h"
#include "flame.h"
#include "folded.h"
#include "load.h"
#include "outfile.h"

static const struct option flame_opts[] = {
	{ "flame", no_argument, NULL, 'F' },	   { "weight", required_argument, NULL, 'w' },
	{ "title", required_argument, NULL, 't' }, { "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },	   { NULL, 0, NULL, 0 },
};

static const char *const weight_words[] = {
	[TT_WEIGHT_CALLS] = "calls",
	[TT_WEIGHT_CYCLES] = "total cycles",
	[TT_WEIGHT_SELF] = "self cycles",
};

/* The default title (a file name is at most 255 bytes: never cut) and the subtitle. */
static void headings(struct cli_report **reps, size_t n, enum tt_weight w, char *t, size_t tsize,
		     char *sub, size_t subsize)
{
	bool ns = tt_load_in_ns(&reps[0]->r);
	bool callers = false;
	size_t i, j;

	for (i = 0; i < n; i++)
		for (j = 0; j < reps[i]->r.nfuncs; j++)
			callers |= reps[i]->funcs[j].has_callers;
	if (n == 1)
		snprintf(t, tsize, "Flame graph: %s", tt_base_name(reps[0]->r.program));
	else
		snprintf(t, tsize, "Flame graph: %zu reports", n);
	snprintf(sub, subsize, "tsctrace, width: %s%s per call path%s", weight_words[w],
		 w != TT_WEIGHT_CALLS && ns ? " (ns)" : "",
		 callers ? "" : " (no TSC_CALLERS paths: one frame per function)");
}

int tt_cli_plot_flame(int argc, char **argv)
{
	const char *output = NULL, *title = NULL, *weight = NULL;
	struct tt_callpaths cp = { NULL, 0 };
	struct tt_stacks st = { NULL, 0 };
	struct tt_buf out = TT_BUF_INIT;
	enum tt_weight w = TT_WEIGHT_CYCLES;
	char head[320], sub[160];
	struct cli_report **reps;
	int c, rc = CLI_EXIT_BAD;
	size_t n;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", flame_opts, NULL)) != -1) {
		switch (c) {
		case 'F': break;
		case 'w': weight = optarg; break;
		case 't': title = optarg; break;
		case 'o': output = optarg; break;
		case 'h': tt_cli_help("plot"); return CLI_EXIT_OK;
		default: return tt_cli_opt_error("plot", c, argv);
		}
	}
	if (weight && !tt_weight_parse(weight, &w)) {
		tt_cli_err("plot: --weight %s: expected calls, cycles or self", weight);
		return CLI_EXIT_BAD;
	}
	if (!output || !*output || optind >= argc) {
		tt_cli_err("plot: %s (see tsctrace plot --help)",
			   !output || !*output ? "-o OUT.svg is required" : "no report given");
		return CLI_EXIT_BAD;
	}
	n = (size_t)(argc - optind);
	reps = tt_load_reports(argv + optind, n);
	if (!reps)
		return CLI_EXIT_BAD;
	if (tt_callpaths_collect("plot", reps, n, w, &cp) < 0 ||
	    tt_stacks_build("plot", &cp, w, &st) < 0)
		goto out_free;
	headings(reps, n, w, head, sizeof(head), sub, sizeof(sub));
	if (tt_flame_draw(&out, &st, title ? title : head, sub,
			  w == TT_WEIGHT_CALLS	       ? "calls"
			  : tt_load_in_ns(&reps[0]->r) ? "ns"
						       : "cycles") < 0)
		tt_cli_err("plot: out of memory");
	else if (tt_outfile_write(output, out.data, out.len) == 0)
		rc = CLI_EXIT_OK;
out_free:
	tt_stacks_free(&st);
	tt_callpaths_free(&cp);
	tt_buf_free(&out);
	tt_load_free_all(reps, n);
	return rc;
}
