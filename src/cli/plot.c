/*
 * plot.c - a function's latency histogram and percentile curve as SVG (see plot.h).
 *
 * Call times span orders of magnitude (20 cycles for a cache hit, 100,000 for a page fault),
 * so both charts put time on a log scale, log10(v + 1) so that 0 has a place. The histogram
 * draws each bucket from its low edge with a height proportional to its count. Its width would
 * be its [low, high + 1) range, but that is a hundredth of a pixel for a one-cycle bucket at
 * 5,000 cycles and a third of a decade for the bucket of 0, so widths are kept to 2..6 px, and
 * a non-empty bar is at least 1 px high: a rare slow call stays visible.
 *
 * The percentile curve uses HdrHistogram's "nines" axis, -log10(1 - q): 0, 90%, 99%, 99.9%...
 * equally spaced, which is where tail latency lives; it runs to 1 - 1/count (at most six
 * nines), as far as the samples say anything. The curve is a step per bucket at the value the
 * report's percentiles use (the bucket's high edge, clamped to [min, max]), and the report's
 * own median, p90 and p99 are marked on it.
 */
#include "cli/plot.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "cli/names.h"
#include "cli/svg.h"

#define TOP 50 /* chart area below the panel's top edge, px */
#define HEIGHT 210
#define HIST_X0 80
#define HIST_X1 480
#define PCT_X0 580
#define PCT_X1 920
#define MAX_NINES 6
#define BAR_MIN 2.0 /* px */
#define BAR_MAX 6.0
#define TICK_GAP 14.0 /* px between tick labels, or the later one is left out */
#define BAR "#4682b4"
#define CURVE "#c0392b"
#define AXIS "#333333"
#define GRID "#dddddd"

struct scale {
	double d0, d1; /* domain */
	double p0, p1; /* pixels */
};

static double at(const struct scale *s, double v)
{
	return s->p0 + (v - s->d0) / (s->d1 - s->d0) * (s->p1 - s->p0);
}

static double lg(uint64_t v)
{
	return log10((double)v + 1);
}

/* Whole decades around [lo, hi] on the log10(v + 1) scale, at least one. */
static void decades(struct scale *s, uint64_t lo, uint64_t hi)
{
	s->d0 = floor(lg(lo));
	s->d1 = ceil(lg(hi));
	if (s->d1 <= s->d0)
		s->d1 = s->d0 + 1;
}

/* 1, 10, 100, 1k ... 1E: decade k's label. */
static const char *decade_label(char *buf, size_t size, int k)
{
	static const char suffix[] = " kMGTPE";

	if (k < 3)
		snprintf(buf, size, "%d", k == 0 ? 1 : k == 1 ? 10 : 100);
	else
		snprintf(buf, size, "%d%c",
			 k % 3 == 0   ? 1
			 : k % 3 == 1 ? 10
				      : 100,
			 suffix[k / 3 < 6 ? k / 3 : 6]);
	return buf;
}

/*
 * Ticks at 0 (when in range) and every power of ten on a log10(v + 1) axis: the histogram's
 * horizontal one (base: its y), or the percentile chart's vertical one (base: its x), which
 * also gets grid lines across the chart.
 */
static void log_ticks(struct tt_buf *out, const struct scale *s, bool vertical, double base,
		      double grid_end)
{
	double pos, last = -1e9;
	char label[16];
	int k;

	if (s->d0 <= 0) {
		last = at(s, 0);
		if (vertical)
			tt_svg_text(out, base - 6, last + 4, "end", 11, "0");
		else
			tt_svg_text(out, last, base + 16, "middle", 11, "0");
	}
	for (k = 0; k <= 18; k++) {
		pos = lg((uint64_t)pow(10, k));
		/* 10^k sits just right of decade k on the v + 1 scale: allow for it */
		if (pos < s->d0 || pos > s->d1 + 0.01)
			continue;
		pos = at(s, pos);
		if (fabs(pos - last) < TICK_GAP)
			continue;
		last = pos;
		decade_label(label, sizeof(label), k);
		if (vertical) {
			tt_svg_line(out, base, pos, grid_end, pos, GRID);
			tt_svg_text(out, base - 6, pos + 4, "end", 11, label);
		} else {
			tt_svg_line(out, pos, base, pos, base + 4, AXIS);
			tt_svg_text(out, pos, base + 16, "middle", 11, label);
		}
	}
}

/*
 * The linear count axis: ticks at whole multiples of a step of 1, 2 or 5 times a power of ten,
 * at most 5 intervals, the top one at or above the largest count (which sets *top). One call
 * reads 0, 1; never 0, 0, 1 from halving a count of 1.
 */
static uint64_t count_step(uint64_t most, uint64_t *top)
{
	static const uint64_t mult[3] = { 1, 2, 5 };
	uint64_t p = 1, step = 1;
	int i;

	for (;;) {
		for (i = 0; i < 3; i++) {
			step = mult[i] * p;
			if (most <= 5 * step) {
				*top = (most + step - 1) / step * step;
				if (!*top)
					*top = step;
				return step;
			}
		}
		if (p > UINT64_MAX / 10 / 5)
			break;
		p *= 10;
	}
	*top = most;
	return most ? most : 1;
}

/* Ticks and labels of the count axis (linear: integer steps; log: 0, 1, 10, 100...). */
static void count_axis(struct tt_buf *out, double bottom, const struct scale *cs, bool log_y,
		       uint64_t step, uint64_t top)
{
	char label[32];
	uint64_t v;
	double py;

	if (log_y) {
		log_ticks(out, cs, true, HIST_X0, HIST_X1);
		return;
	}
	for (v = 0;; v += step) {
		py = bottom - (double)v / (double)top * HEIGHT;
		snprintf(label, sizeof(label), "%" PRIu64, v);
		if (v)
			tt_svg_line(out, HIST_X0, py, HIST_X1, py, GRID);
		tt_svg_text(out, HIST_X0 - 6, py + 4, "end", 11, label);
		if (v >= top || top - v < step)
			break;
	}
}

static void histogram(struct tt_buf *out, double y, const struct tt_report_func *f,
		      const char *unit, bool log_y)
{
	const struct tt_bucket *b = f->buckets;
	struct scale x = { .p0 = HIST_X0, .p1 = HIST_X1 };
	struct scale cs = { .p0 = y + TOP + HEIGHT, .p1 = y + TOP };
	double bottom = y + TOP + HEIGHT, x0, w, h;
	uint64_t most = 0, lo, hi, step = 1, top = 1;
	char label[64];
	size_t i;

	for (i = 0; i < f->nbuckets; i++)
		most = b[i].count > most ? b[i].count : most;
	/* Edges at the function's own min and max: no call lies beyond them (report_text.c
	 * clamps its histogram's edges the same way). */
	decades(&x, f->cycles.min, f->cycles.max + 1);
	if (log_y)
		decades(&cs, 0, most);
	else
		step = count_step(most, &top);
	for (i = 0; i < f->nbuckets; i++) {
		lo = b[i].low < f->cycles.min ? f->cycles.min : b[i].low;
		hi = b[i].high > f->cycles.max ? f->cycles.max : b[i].high;
		hi = hi < lo ? lo : hi;
		x0 = at(&x, lg(lo));
		w = fmin(fmax(at(&x, lg(hi + 1)) - x0, BAR_MIN), BAR_MAX);
		if (log_y)
			h = fmax(cs.p0 - at(&cs, lg(b[i].count)), 1);
		else
			h = fmax((double)b[i].count / (double)top * HEIGHT, 1);
		tt_svg_rect(out, x0, bottom - h, w, h, BAR);
	}
	count_axis(out, bottom, &cs, log_y, step, top);
	tt_svg_line(out, HIST_X0, bottom, HIST_X1, bottom, AXIS);
	tt_svg_line(out, HIST_X0, bottom, HIST_X0, bottom - HEIGHT, AXIS);
	log_ticks(out, &x, false, bottom, 0);
	tt_svg_text(out, HIST_X0, y + TOP - 8, "start", 12,
		    log_y ? "calls per bucket (log scale)" : "calls per bucket");
	snprintf(label, sizeof(label), "%s (log scale)", unit);
	tt_svg_text(out, (HIST_X0 + HIST_X1) / 2.0, bottom + 34, "middle", 12, label);
}

/* The nines axis position of quantile q, capped at nines. */
static double nines_of(double q, double nines)
{
	return q >= 1 ? nines : fmin(-log10(1 - q), nines);
}

/* Dots at the report's own median, p90 and p99 (their values are in the panel's title). */
static void percentile_marks(struct tt_buf *out, const struct scale *x, const struct scale *v,
			     const struct tt_report_func *f)
{
	const double q[3] = { 0.5, 0.9, 0.99 };
	const uint64_t val[3] = { f->cycles.median, f->cycles.p90, f->cycles.p99 };
	size_t i;

	for (i = 0; i < 3; i++)
		if (-log10(1 - q[i]) <= x->d1)
			tt_svg_circle(out, at(x, -log10(1 - q[i])), at(v, lg(val[i])), 3.5, CURVE);
}

static void percentiles(struct tt_buf *out, double y, const struct tt_report_func *f,
			const char *unit)
{
	static const char *const nine_labels[] = { "0%",     "90%",	"99%",	   "99.9%",
						   "99.99%", "99.999%", "99.9999%" };
	const struct tt_bucket *b = f->buckets;
	struct scale x = { .d0 = 0, .p0 = PCT_X0, .p1 = PCT_X1 };
	struct scale v = { .p0 = y + TOP + HEIGHT, .p1 = y + TOP };
	double bottom = y + TOP + HEIGHT, n = 0, cum = 0, x0, x1, py;
	uint64_t val;
	char label[64];
	size_t i;
	int k;

	for (i = 0; i < f->nbuckets; i++)
		n += (double)b[i].count;
	x.d1 = fmin(fmax(ceil(log10(n)), 2), MAX_NINES);
	decades(&v, f->cycles.min, f->cycles.max);
	tt_svg_line(out, PCT_X0, bottom, PCT_X1, bottom, AXIS);
	tt_svg_line(out, PCT_X0, bottom, PCT_X0, bottom - HEIGHT, AXIS);
	for (k = 0; k <= (int)x.d1; k++) {
		tt_svg_line(out, at(&x, k), bottom, at(&x, k), bottom + 4, AXIS);
		tt_svg_text(out, at(&x, k), bottom + 16, "middle", 11, nine_labels[k]);
	}
	log_ticks(out, &v, true, PCT_X0, PCT_X1);
	tt_svg_poly_begin(out, CURVE);
	for (i = 0; i < f->nbuckets; i++) {
		val = b[i].high < f->cycles.min	  ? f->cycles.min
		      : b[i].high > f->cycles.max ? f->cycles.max
						  : b[i].high;
		x0 = nines_of(cum / n, x.d1);
		cum += (double)b[i].count;
		x1 = nines_of(cum / n, x.d1);
		py = at(&v, lg(val));
		tt_svg_poly_point(out, at(&x, x0), py);
		tt_svg_poly_point(out, at(&x, x1), py);
		if (x1 >= x.d1)
			break;
	}
	tt_svg_poly_end(out);
	percentile_marks(out, &x, &v, f);
	snprintf(label, sizeof(label), "%s (log scale); dots: median, p90, p99", unit);
	tt_svg_text(out, PCT_X0, y + TOP - 8, "start", 12, label);
	tt_svg_text(out, (PCT_X0 + PCT_X1) / 2.0, bottom + 34, "middle", 12, "percentile");
}

static void title(struct tt_buf *out, double y, const struct tt_report_func *f, const char *unit)
{
	char stats[256], name[TT_CLI_NAME_BYTES];

	tt_buf_printf(out, "<text x=\"20\" y=\"%.2f\" font-size=\"15\" font-weight=\"bold\">",
		      y + 22);
	tt_svg_escape(out, tt_cli_display_name(f->name, name, sizeof(name)));
	tt_buf_puts(out, "</text>\n");
	if (f->timed && f->cycles.has_tail)
		snprintf(stats, sizeof(stats),
			 "%" PRIu64 " calls, %" PRIu64 " timed: min %" PRIu64 ", median %" PRIu64
			 ", p90 %" PRIu64 ", p99 %" PRIu64 ", p99.9 %" PRIu64 ", max %" PRIu64
			 " %s",
			 f->calls, f->timed, f->cycles.min, f->cycles.median, f->cycles.p90,
			 f->cycles.p99, f->cycles.p999, f->cycles.max, unit);
	else if (f->timed)
		snprintf(stats, sizeof(stats),
			 "%" PRIu64 " calls, %" PRIu64 " timed: min %" PRIu64 ", median %" PRIu64
			 ", p90 %" PRIu64 ", p99 %" PRIu64 ", max %" PRIu64 " %s",
			 f->calls, f->timed, f->cycles.min, f->cycles.median, f->cycles.p90,
			 f->cycles.p99, f->cycles.max, unit);
	else
		snprintf(stats, sizeof(stats), "%" PRIu64 " calls, none timed", f->calls);
	tt_svg_text(out, TT_PLOT_WIDTH - 20, y + 22, "end", 12, stats);
}

void tt_plot_function(struct tt_buf *out, double y, const struct tt_report_func *f, bool in_ns,
		      bool log_y)
{
	const char *unit = in_ns ? "ns" : "cycles";

	title(out, y, f, unit);
	if (!f->timed || !f->nbuckets)
		return;
	histogram(out, y, f, unit, log_y);
	percentiles(out, y, f, unit);
}
