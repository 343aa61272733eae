/*
 * plot_by_arg.c - `tsctrace plot --by-arg`: a function's latency by argument (TSC_ARGS,
 * "by_arg") as one SVG chart: the median and the p99 of each argument bucket, against the
 * bucket, both axes on a log scale (arguments are sizes and counts that span decades; so do
 * times, and on log-log axes a cost proportional to the argument is a line of slope 1: the
 * cycles-per-byte question). Each bucket [lo, hi] sits at its low edge, 0 at its own place
 * (log10(v + 1)). Buckets with no timed call have no point.
 */
#include "cli/plot.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "cli/names.h"
#include "cli/svg.h"

#define X0 90
#define X1 (TT_PLOT_WIDTH - 40)
#define TOP 56
#define HEIGHT 220
#define MEDIAN "#4682b4"
#define P99 "#c0392b"
#define GRID "#dddddd"
#define AXIS "#333333"
#define GAP 40.0 /* px between argument labels, or the later one is left out */

struct axis {
	double d0, d1, p0, p1;
};

static double lg(uint64_t v)
{
	return log10((double)v + 1);
}

static double at(const struct axis *a, double v)
{
	return a->p0 + (v - a->d0) / (a->d1 - a->d0) * (a->p1 - a->p0);
}

/* Whole decades around [lo, hi], at least one. */
static void decades(struct axis *a, uint64_t lo, uint64_t hi)
{
	a->d0 = floor(lg(lo));
	a->d1 = ceil(lg(hi));
	if (a->d1 <= a->d0)
		a->d1 = a->d0 + 1;
}

/* Grid lines and labels at each power of ten of the time axis. */
static void time_ticks(struct tt_buf *out, const struct axis *v)
{
	char label[32];
	int k;

	for (k = (int)v->d0; k <= (int)v->d1; k++) {
		double py = at(v, lg((uint64_t)pow(10, k)));

		if (py < v->p1 - 1 || py > v->p0 + 1)
			continue;
		snprintf(label, sizeof(label), "%.0f", pow(10, k));
		tt_svg_line(out, X0, py, X1, py, GRID);
		tt_svg_text(out, X0 - 6, py + 4, "end", 11, label);
	}
}

/* One series (median or p99) as a line through dots. */
static void series(struct tt_buf *out, const struct axis *x, const struct axis *v,
		   const struct tt_report_by_arg *a, bool p99, const char *color)
{
	size_t i;

	tt_svg_poly_begin(out, color);
	for (i = 0; i < a->nbuckets; i++)
		if (a->buckets[i].timed)
			tt_svg_poly_point(out, at(x, lg(a->buckets[i].lo)),
					  at(v,
					     lg(p99 ? a->buckets[i].p99 : a->buckets[i].median)));
	tt_svg_poly_end(out);
	for (i = 0; i < a->nbuckets; i++)
		if (a->buckets[i].timed)
			tt_svg_circle(out, at(x, lg(a->buckets[i].lo)),
				      at(v, lg(p99 ? a->buckets[i].p99 : a->buckets[i].median)),
				      3.5, color);
}

void tt_plot_by_arg(struct tt_buf *out, double y, const struct tt_report_func *f, bool in_ns)
{
	const struct tt_report_by_arg *a = &f->by_arg;
	char name[TT_CLI_NAME_BYTES], label[160];
	struct axis x = { 0, 1, X0, X1 }, v = { 0, 1, y + TOP + HEIGHT, y + TOP };
	uint64_t lo = UINT64_MAX, hi = 0;
	double bottom = y + TOP + HEIGHT, last = -1e9;
	size_t i;

	tt_buf_printf(out, "<text x=\"20\" y=\"%.2f\" font-size=\"15\" font-weight=\"bold\">",
		      y + 22);
	tt_svg_escape(out, tt_cli_display_name(f->name, name, sizeof(name)));
	tt_buf_puts(out, "</text>\n");
	snprintf(label, sizeof(label), "by argument %u%s%s%s", a->arg,
		 a->filter ? " (timed where " : "", a->filter ? a->filter : "",
		 a->filter ? ")" : "");
	tt_svg_text(out, TT_PLOT_WIDTH - 20, y + 22, "end", 12, label);
	for (i = 0; i < a->nbuckets; i++) {
		if (!a->buckets[i].timed)
			continue;
		lo = a->buckets[i].min < lo ? a->buckets[i].min : lo;
		hi = a->buckets[i].p99 > hi ? a->buckets[i].p99 : hi;
	}
	if (lo == UINT64_MAX) {
		tt_svg_text(out, X0, y + TOP, "start", 12, "no timed calls");
		return;
	}
	decades(&v, lo < hi ? lo : hi, hi);
	x.d0 = lg(a->buckets[0].lo);
	x.d1 = lg(a->buckets[a->nbuckets - 1].lo);
	if (x.d1 - x.d0 < 1e-9) { /* one bucket: in the middle */
		x.d0 -= 1;
		x.d1 += 1;
	}
	x.p0 = X0 + 20;
	x.p1 = X1 - 20;
	time_ticks(out, &v);
	tt_svg_line(out, X0, bottom, X1, bottom, AXIS);
	tt_svg_line(out, X0, bottom, X0, y + TOP, AXIS);
	for (i = 0; i < a->nbuckets; i++) {
		double px = at(&x, lg(a->buckets[i].lo));

		tt_svg_line(out, px, bottom, px, bottom + 4, AXIS);
		if (px - last < GAP)
			continue;
		last = px;
		snprintf(label, sizeof(label), "%" PRIu64, a->buckets[i].lo);
		tt_svg_text(out, px, bottom + 16, "middle", 11, label);
	}
	series(out, &x, &v, a, false, MEDIAN);
	series(out, &x, &v, a, true, P99);
	snprintf(label, sizeof(label), "%s (log scale): median (blue), p99 (red)%s",
		 in_ns ? "ns" : "cycles",
		 a->merged_estimate ? "; merged: timed-weighted means of the runs'" : "");
	tt_svg_text(out, X0, y + TOP - 10, "start", 12, label);
	snprintf(label, sizeof(label),
		 "argument %u, low edge of its power-of-two bucket (log scale)", a->arg);
	tt_svg_text(out, (X0 + X1) / 2.0, bottom + 34, "middle", 12, label);
}
