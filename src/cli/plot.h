/*
 * plot.h - one function of a report drawn as two SVG charts side by side (plot.c): its latency
 * histogram and its percentile curve. cmd_plot.c stacks one panel per function.
 */
#ifndef TT_PLOT_H
#define TT_PLOT_H

#include <stdbool.h>

#include "base/buf.h"
#include "cli/load.h"
#include "report/report_model.h"

#define TT_PLOT_WIDTH 960 /* px */
#define TT_PLOT_PANEL 320 /* px per function with timed calls */
#define TT_PLOT_EMPTY 40  /* px per function without */

/* Draw f in the panel whose top edge is at y; in_ns: the unit is ns rather than cycles;
 * log_y: the histogram's counts on a log scale (a rare slow tail stays visible). */
void tt_plot_function(struct tt_buf *out, double y, const struct tt_report_func *f, bool in_ns,
		      bool log_y);

/* plot --by-arg: f's latency by argument (f->has_by_arg) in the panel whose top edge is at y
 * (plot_by_arg.c), TT_PLOT_PANEL high. */
void tt_plot_by_arg(struct tt_buf *out, double y, const struct tt_report_func *f, bool in_ns);

/* plot --flame: the call paths of reps[0..n) as a flame graph into out (plot_flame.c); weight
 * and title as given, NULL for the defaults. 0, or -1 after a "tsctrace:" line. */
int tt_plot_flame(struct tt_buf *out, struct cli_report **reps, size_t n, const char *weight,
		  const char *title);

#endif /* TT_PLOT_H */
