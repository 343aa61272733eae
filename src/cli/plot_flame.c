/*
 * plot_flame.c - `tsctrace plot --flame [--weight W] [--title T] -o OUT.svg FILE...`: the
 * call paths of reports (TSC_CALLERS) drawn as a flame graph (flame.c); cmd_plot.c parses the
 * command line.
 */
#include <stdio.h>

#include "base/basename.h"
#include "cli/callpath.h"
#include "cli/cli.h"
#include "cli/plot.h"
#include "cli/flame.h"
#include "cli/folded.h"
#include "cli/load.h"

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

int tt_plot_flame(struct tt_buf *out, struct cli_report **reps, size_t n, const char *weight,
		  const char *title)
{
	struct tt_callpaths cp = { NULL, 0 };
	struct tt_stacks st = { NULL, 0 };
	enum tt_weight w = TT_WEIGHT_CYCLES;
	char head[320], sub[160];
	int rc = -1;

	if (weight && !tt_weight_parse(weight, &w)) {
		tt_cli_err("plot: --weight %s: expected calls, cycles or self", weight);
		return -1;
	}
	if (tt_callpaths_collect("plot", reps, n, w, &cp) < 0 ||
	    tt_stacks_build("plot", &cp, w, &st) < 0)
		goto out_free;
	headings(reps, n, w, head, sizeof(head), sub, sizeof(sub));
	if (tt_flame_draw(out, &st, title ? title : head, sub,
			  w == TT_WEIGHT_CALLS	       ? "calls"
			  : tt_load_in_ns(&reps[0]->r) ? "ns"
						       : "cycles") < 0)
		tt_cli_err("plot: out of memory");
	else
		rc = 0;
out_free:
	tt_stacks_free(&st);
	tt_callpaths_free(&cp);
	return rc;
}
