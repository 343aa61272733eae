/*
 * report_text.c - the report for people (libtsctrace(7), REPORT), a pure function of a
 * struct tt_report. Tools read the JSON; this is laid out to be read in a 100-column terminal.
 *
 * Same constraints as report_json.c: it runs at exit, from an _exit wrapper or after a fatal
 * signal, so nothing here allocates, locks or keeps state, and doubles have their radix put
 * back to '.' whatever LC_NUMERIC the program chose.
 *
 * Layout: header lines (program, argv, pid and wall time, clock, cpu, overhead, threads, one
 * line per warning); the statistics table; the call-accounting table; then a bar histogram
 * per function with timed calls. Each column is as wide as its widest cell, measured in a
 * first pass (cells are formatted again when printed: there is nowhere to keep them), so a
 * 60-character name or a 20-digit count widens its column instead of shifting the rows.
 *
 * Strings go through tt_text_put_clean (text_clean.h): one code point per column, nothing
 * that could break a row or the terminal.
 */
#include "report/report_fmt.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/name_short.h"
#include "report/report_names.h"
#include "report/text_clean.h"

#define GAP 2	     /* spaces between columns */
#define NAME 512     /* a function's name as shown: C++ names demangled, cut */
#define CELL 48	     /* a formatted cell: a 20-digit uint64 or a "%.3e" double, with room */
#define HIST_ROWS 12 /* histogram rows per function, at most */
#define BAR 40	     /* columns of the longest bar */

enum col {
	C_CALLS,
	C_MIN,
	C_MEDIAN,
	C_P90,
	C_P99,
	C_P999,
	C_P9999,
	C_MAX,
	C_MEAN,
	C_SHARE,
	C_TIMED, /* the second table */
	C_UNWOUND,
	C_MIGRATED,
	C_DROPPED,
	C_FIRST,
	C_HOOK,
	C_SYMBOL,
	C_NS_MIN, /* the third, with ns: each stays within 100 columns */
	C_NS_MEDIAN,
	C_NS_P99,
	C_NS_P999,
	C_END
};

static const char *const heads[C_END] = {
	"calls", "min",	 "median", "p90",    "p99",	"p99.9",    "p99.99",
	"max",	 "mean", "total%", "timed",  "unwound", "migrated", "dropped",
	"first", "hook", "symbol", "min ns", "med ns",	"p99 ns",   "p99.9 ns",
};

static void pad(struct tt_buf *out, size_t n)
{
	tt_buf_printf(out, "%*s", (int)n, "");
}

/* s in a column of width w; a left-aligned last column gets no trailing blanks. */
static void put_cell(struct tt_buf *out, const char *s, size_t w, bool left, bool last)
{
	size_t cols = tt_text_put_clean(NULL, s, false);

	if (!left && cols < w)
		pad(out, w - cols);
	tt_text_put_clean(out, s, false);
	if (left && !last && cols < w)
		pad(out, w - cols);
}

/* x with prec decimals ("%.3e" past 1e15, where it would be a wall of digits), radix '.'. */
static const char *dbl(char *buf, double x, int prec)
{
	char tmp[CELL];
	size_t i, j = 0;

	if (!isfinite(x))
		return "-";
	if (x > -1e15 && x < 1e15)
		snprintf(tmp, sizeof(tmp), "%.*f", prec, x);
	else
		snprintf(tmp, sizeof(tmp), "%.3e", x);
	for (i = 0; tmp[i] && j < CELL - 2; i++) { /* room for the NUL and a share's '%' */
		if ((unsigned char)tmp[i] >= 0x80 && (unsigned char)tmp[i] < 0xc0)
			continue; /* the tail of a multibyte radix character */
		buf[j++] = strchr("0123456789+-e", tmp[i]) ? tmp[i] : '.';
	}
	buf[j] = '\0';
	return buf;
}

static size_t max(size_t a, size_t b)
{
	return a > b ? a : b;
}

static const char *u64(char *buf, uint64_t v)
{
	snprintf(buf, CELL, "%" PRIu64, v);
	return buf;
}

static bool in_ns(const struct tt_report *r)
{
	return r->clock.source && strcmp(r->clock.source, "monotonic") == 0;
}

static const char *cell(char *buf, const struct tt_report_func *f, enum col c, double sum)
{
	const struct tt_summary *s = &f->cycles;

	/* Statistics over no timed call are zeros by convention; "-" says there are none. */
	if (!f->timed && ((c >= C_MIN && c <= C_SHARE) || c >= C_NS_MIN))
		return "-";
	switch (c) {
	case C_CALLS: return u64(buf, f->calls);
	case C_MIN: return u64(buf, s->min);
	case C_MEDIAN: return u64(buf, s->median);
	case C_P90: return u64(buf, s->p90);
	case C_P99: return u64(buf, s->p99);
	case C_P999: return s->has_tail ? u64(buf, s->p999) : "-";
	case C_P9999: return s->has_tail ? u64(buf, s->p9999) : "-";
	case C_MAX: return u64(buf, s->max);
	case C_MEAN: return dbl(buf, s->mean, 1);
	case C_SHARE: /* of the sum over all functions (weighted under a budget) */
		if (!(sum > 0) || !isfinite(sum))
			return "-";
		dbl(buf, 100.0 * (double)tt_report_func_cycles_est(f) / sum, 1);
		return strcat(buf, "%");
	case C_NS_MIN: return f->has_ns ? dbl(buf, f->ns.min, 1) : "-";
	case C_NS_MEDIAN: return f->has_ns ? dbl(buf, f->ns.median, 1) : "-";
	case C_NS_P99: return f->has_ns ? dbl(buf, f->ns.p99, 1) : "-";
	case C_NS_P999: return f->has_ns && f->ns.has_tail ? dbl(buf, f->ns.p999, 1) : "-";
	case C_TIMED: return u64(buf, f->timed);
	case C_UNWOUND: return u64(buf, f->unwound);
	case C_MIGRATED: return u64(buf, f->migrated);
	case C_DROPPED: return u64(buf, f->dropped);
	case C_FIRST: return f->has_first ? u64(buf, f->first) : "-";
	case C_HOOK: return f->hook;
	case C_SYMBOL: return f->symbol;
	default: return "?";
	}
}

/* Whether f has a row: with all false, functions never called have none. */
#define FULL_NAME 4096 /* a demangled name before it is shortened */

/* cell(), with a long symbol (a C++ template's mangled name) cut to TT_NAME_SHORT_MAX bytes
 * ending "..." unless the report asks for wide names; sym holds TT_NAME_SHORT_MAX + 1. */
static const char *table_cell(const struct tt_report *r, char *buf, char *sym,
			      const struct tt_report_func *f, enum col c, double sum)
{
	const char *v = cell(buf, f, c, sum);

	if (c != C_SYMBOL || r->wide_names || !v || strlen(v) <= TT_NAME_SHORT_MAX)
		return v;
	snprintf(sym, TT_NAME_SHORT_MAX + 1, "%.*s...", TT_NAME_SHORT_MAX - 3, v);
	return sym;
}

/* A function's name as the text shows it: demangled, and shortened (name_short.h) unless the
 * report asks for wide names. name is NAME bytes, full FULL_NAME: shortened whole, not after
 * a cut that would fall inside its template arguments. */
static const char *shown_name(const struct tt_report *r, const char *raw, char *name, char *full)
{
	return tt_name_shown(raw, r->wide_names, name, NAME, full, FULL_NAME);
}

static bool listed(const struct tt_report_func *f, bool all)
{
	return all || f->calls > 0;
}

/* The table of columns [c0, c1), one row per listed function, under a header line. */
static void table(struct tt_buf *out, const struct tt_report *r, enum col c0, enum col c1,
		  double sum, bool all)
{
	size_t w[C_END], namew = strlen("function"), i;
	char buf[CELL], name[NAME], spare[FULL_NAME], sym[TT_NAME_SHORT_MAX + 1];
	enum col c;

	for (c = c0; c < c1; c++)
		w[c] = strlen(heads[c]);
	for (i = 0; i < r->nfuncs; i++) {
		if (!listed(&r->funcs[i], all))
			continue;
		namew = max(namew,
			    tt_text_put_clean(NULL, shown_name(r, r->funcs[i].name, name, spare),
					      false));
		for (c = c0; c < c1; c++)
			w[c] = max(w[c],
				   tt_text_put_clean(NULL,
						     table_cell(r, buf, sym, &r->funcs[i], c, sum),
						     false));
	}
	for (i = 0; i <= r->nfuncs; i++) { /* row 0 is the header */
		if (i && !listed(&r->funcs[i - 1], all))
			continue;
		put_cell(out, i ? shown_name(r, r->funcs[i - 1].name, name, spare) : "function",
			 namew, true, false);
		for (c = c0; c < c1; c++) {
			pad(out, GAP);
			put_cell(out,
				 i ? table_cell(r, buf, sym, &r->funcs[i - 1], c, sum) : heads[c],
				 w[c], c == C_HOOK || c == C_SYMBOL, c + 1 == c1);
		}
		tt_buf_puts(out, "\n");
	}
}

static unsigned int bitlen(uint64_t v)
{
	return v ? 64 - (unsigned int)__builtin_clzll(v) : 0;
}

/*
 * Histogram row of value v, monotone in v. With sb > 0: each value below 2^sb has its own
 * row and each octave above is cut into 2^sb rows. With sb = 0: one row per k octaves.
 */
static uint64_t row_key(uint64_t v, unsigned int sb, unsigned int k)
{
	unsigned int e;

	if (sb == 0)
		return bitlen(v) / k;
	if (v < (1ull << sb))
		return v;
	e = bitlen(v) - 1;
	return ((uint64_t)(e - sb + 1) << sb) + ((v >> (e - sb)) & ((1ull << sb) - 1));
}

/* The lowest value in row `key` (the inverse of row_key). */
static uint64_t row_low(uint64_t key, unsigned int sb, unsigned int k)
{
	unsigned int b, e;

	if (sb == 0) {
		b = (unsigned int)key * k;
		return b ? 1ull << (b - 1) : 0;
	}
	if (key < (1ull << sb))
		return key;
	e = (unsigned int)(key >> sb) + sb - 1;
	return ((1ull << sb) + (key & ((1ull << sb) - 1))) << (e - sb);
}

/*
 * The outer edges at the function's own min and max: a bucket above 1024 ticks spans 1/128 of
 * its octave, and its far edge would show a value no call took. Returns n.
 */
static size_t clamp_edges(const struct tt_report_func *f, struct tt_bucket *rows, size_t n)
{
	if (!n || !f->timed)
		return n;
	if (f->cycles.min > rows[0].low && f->cycles.min <= rows[0].high)
		rows[0].low = f->cycles.min;
	if (f->cycles.max < rows[n - 1].high && f->cycles.max >= rows[n - 1].low)
		rows[n - 1].high = f->cycles.max;
	return n;
}

/*
 * Up to HIST_ROWS rows, each counting the buckets whose low edge it covers: the buckets
 * themselves when there are few, else the finest log-scale grouping that fits (64, 32 ... 2
 * rows per octave, then one row per 1 ... 6 octaves: 65 bit lengths / 6 < 12 rows), empty
 * rows included so that the shape stays true. 12..41 in 20 buckets becomes 8 rows: 12-13,
 * 14-15, 16-19, ... 40-41.
 */
static size_t hist_rows(const struct tt_report_func *f, struct tt_bucket *rows)
{
	const struct tt_bucket *b = f->buckets;
	size_t n = f->nbuckets, i, nrows;
	unsigned int sb = 7, k = 1;
	uint64_t k0, k1, key;

	if (n <= HIST_ROWS) {
		memcpy(rows, b, n * sizeof(*b));
		return clamp_edges(f, rows, n);
	}
	do {
		if (sb > 0)
			sb--;
		else
			k++;
		k0 = row_key(b[0].low, sb, k);
		k1 = row_key(b[n - 1].low, sb, k);
	} while (k1 < k0 || k1 - k0 >= HIST_ROWS);
	nrows = (size_t)(k1 - k0) + 1;
	for (i = 0; i < nrows; i++) {
		rows[i].low = i ? row_low(k0 + i, sb, k) : b[0].low;
		rows[i].high = i + 1 < nrows ? row_low(k0 + i + 1, sb, k) - 1 : b[n - 1].high;
		rows[i].count = 0;
	}
	for (i = 0; i < n; i++) {
		key = row_key(b[i].low, sb, k);
		key = key < k0 ? 0 : key - k0 >= nrows ? nrows - 1 : key - k0; /* unsorted input */
		rows[key].count = b[i].count > UINT64_MAX - rows[key].count
					  ? UINT64_MAX
					  : rows[key].count + b[i].count; /* saturate */
	}
	return clamp_edges(f, rows, nrows);
}

/* log2(v) in 1/256ths for v >= 1, linear within each octave (error < 0.09): enough for a bar. */
static unsigned int log2_fx(uint64_t v)
{
	unsigned int e = bitlen(v) - 1;

	return e * 256 + (unsigned int)((e >= 8 ? v >> (e - 8) : v << (8 - e)) & 0xff);
}

static void histogram(struct tt_buf *out, const struct tt_report *r, const struct tt_report_func *f)
{
	static const char bar[BAR + 1] = "########################################";
	struct tt_bucket rows[HIST_ROWS];
	size_t n = hist_rows(f, rows), i, len;
	char low[CELL], high[CELL], pct[CELL], name[NAME], spare[FULL_NAME];
	size_t wl = 1, wh = 1, wc = 1;
	const char *slash;
	uint64_t most = 0;
	double sum = 0;

	for (i = 0; i < n; i++) {
		wl = max(wl, strlen(u64(low, rows[i].low)));
		wh = max(wh, strlen(u64(low, rows[i].high)));
		wc = max(wc, strlen(u64(low, rows[i].count)));
		most = max(most, rows[i].count);
		sum += (double)rows[i].count;
	}
	/* The object is named here, not in the table, where it would pass 100 columns. */
	slash = f->object ? strrchr(f->object, '/') : NULL;
	tt_buf_puts(out, "\nhistogram of ");
	tt_text_put_clean(out, shown_name(r, f->name, name, spare), false);
	tt_buf_puts(out, " in ");
	tt_text_put_clean(out, slash && slash[1] ? slash + 1 : f->object, false);
	if (f->has_offset)
		tt_buf_printf(out, "+0x%" PRIx64, f->offset);
	/* Under a budget the table's percentiles are weighted; the bars count the calls timed. */
	tt_buf_printf(out, " (%s, log-scale bars%s)\n", in_ns(r) ? "ns" : "cycles",
		      f->sampling.weighted ? "; the calls timed, unweighted" : "");
	for (i = 0; i < n; i++) {
		u64(low, rows[i].low);
		u64(high, rows[i].high);
		dbl(pct, sum > 0 ? 100.0 * (double)rows[i].count / sum : 0, 1);
		len = !rows[i].count ? 0
		      : log2_fx(most) == 0
			      ? BAR
			      : 1 + (size_t)(BAR - 1) * log2_fx(rows[i].count) / log2_fx(most);
		tt_buf_printf(out, "  %*s %s %*s  %*" PRIu64 "  %5s%%%s%.*s\n", (int)wl, low,
			      rows[i].high != rows[i].low ? "-" : " ", (int)wh,
			      rows[i].high != rows[i].low ? high : "", (int)wc, rows[i].count, pct,
			      len ? "  " : "", (int)len, bar);
	}
	tt_report_text_exact_hist(out, f);
}

/* An argument as a shell would need it, so `argv: a 'b c'` reads unambiguously. */
static void put_arg(struct tt_buf *out, const char *a)
{
	bool quote = !a || !*a || strpbrk(a, " \t'\"\\$`*?[]{};&|<>()#~!") != NULL;

	tt_buf_puts(out, quote && a ? "'" : "");
	tt_text_put_clean(out, a, quote);
	tt_buf_puts(out, quote && a ? "'" : "");
}

/* One header line: a label in a 10-column field, then s for a terminal. */
static void line(struct tt_buf *out, const char *label, const char *s)
{
	tt_buf_printf(out, "%-10s", label);
	tt_text_put_clean(out, s, false);
	tt_buf_puts(out, "\n");
}

#define MERGED_PIDS 8 /* pids listed on the "merged:" line, at most */

/* A merged report (tsctrace merge) says so: the header above is its first run's. */
static void merged_line(struct tt_buf *out, const struct tt_report *r)
{
	size_t i;

	tt_buf_printf(out, "merged:   %zu run%s, pid%s", r->nmerged, r->nmerged == 1 ? "" : "s",
		      r->nmerged == 1 ? "" : "s");
	for (i = 0; i < r->nmerged && i < MERGED_PIDS; i++)
		tt_buf_printf(out, "%s %" PRId64, i ? "," : "", r->merged[i].pid);
	if (r->nmerged > MERGED_PIDS)
		tt_buf_printf(out, " and %zu more", r->nmerged - MERGED_PIDS);
	tt_buf_puts(out, " (program, argv, pid and wall time above are the first's)\n");
}

static void header(struct tt_buf *out, const struct tt_report *r)
{
	const char *unit = in_ns(r) ? "ns" : "ticks";
	char buf[CELL];
	size_t i;

	tt_text_put_clean(out, r->tool, false);
	tt_buf_puts(out, " report\n");
	line(out, "program:", r->program);
	if (r->exe && strcmp(r->exe, r->program))
		line(out, "exe:", r->exe);
	tt_buf_puts(out, "argv:");
	for (i = 0; i < r->argc; i++) {
		pad(out, i ? 1 : 5);
		put_arg(out, r->argv[i]);
	}
	tt_buf_printf(out, "\npid:      %" PRId64 ", wall time ", r->pid);
	if (r->wall_ns < 1000) /* doubles: exact to 2^53 ns (104 days), then 15 digits */
		tt_buf_printf(out, "%" PRIu64 " ns\n", r->wall_ns);
	else if (r->wall_ns < 1000000)
		tt_buf_printf(out, "%s us\n", dbl(buf, (double)r->wall_ns / 1e3, 1));
	else if (r->wall_ns < 1000000000)
		tt_buf_printf(out, "%s ms\n", dbl(buf, (double)r->wall_ns / 1e6, 1));
	else
		tt_buf_printf(out, "%s s\n", dbl(buf, (double)r->wall_ns / 1e9, 3));

	tt_buf_puts(out, "clock:    ");
	tt_text_put_clean(out, r->clock.source, false);
	if (r->clock.tsc_hz) {
		tt_buf_printf(out, " %s MHz (", dbl(buf, (double)r->clock.tsc_hz / 1e6, 1));
		tt_text_put_clean(out, r->clock.tsc_hz_source, false);
		if (r->clock.tsc_hz_error_ppm)
			tt_buf_printf(out, ", within %" PRIu32 " ppm", r->clock.tsc_hz_error_ppm);
		tt_buf_puts(out, ")");
	}
	tt_buf_printf(out, ", %s, %s, serialize ",
		      r->clock.invariant ? "invariant" : "not invariant",
		      r->clock.hypervisor ? "hypervisor" : "no hypervisor");
	tt_text_put_clean(out, r->clock.serialize, false);
	tt_buf_printf(out, ", granularity %" PRIu64 " %s\n", r->clock.granularity, unit);
	if (r->clock.cpu && *r->clock.cpu) /* on the clock line it would pass 100 columns */
		line(out, "cpu:", r->clock.cpu);
	tt_buf_printf(out,
		      "overhead: min %" PRIu64 " median %" PRIu64 " %s, subtracted %" PRIu64 " (",
		      r->overhead.min, r->overhead.median, unit, r->overhead.subtracted);
	tt_text_put_clean(out, r->overhead.source, false);
	tt_buf_printf(out,
		      ")\nthreads:  %" PRIu64 " traced, %" PRIu64 " pinned, %" PRIu64
		      " migrations\n",
		      r->threads.traced, r->threads.pinned, r->threads.migrations);
	tt_report_text_exact_header(out, r);
	if (r->nmerged)
		merged_line(out, r);
	for (i = 0; i < r->nwarnings; i++)
		line(out, "warning:", r->warnings[i]);
}

void tt_report_text_rows(struct tt_buf *out, const struct tt_report *r, bool all)
{
	size_t i, uncalled = 0;
	char buf[CELL];
	double sum = 0;

	header(out, r);
	if (!r->nfuncs) {
		tt_buf_puts(out, "\nno functions traced\n");
		return;
	}
	for (i = 0; i < r->nfuncs; i++) {
		sum += (double)tt_report_func_cycles_est(&r->funcs[i]);
		uncalled += r->funcs[i].calls == 0;
	}
	if (!all && uncalled == r->nfuncs) {
		tt_buf_printf(out, "\nnone of the %zu traced function%s was called\n", uncalled,
			      uncalled == 1 ? "" : "s");
		return;
	}
	if (in_ns(r))
		tt_buf_printf(out,
			      "\ntimes in ns (monotonic clock), less %" PRIu64 " ns of overhead\n",
			      r->overhead.subtracted);
	else
		tt_buf_printf(out,
			      "\ntimes in cycles: TSC ticks less %" PRIu64 " of overhead%s%s%s\n",
			      r->overhead.subtracted, r->clock.tsc_hz ? "; ns at " : "",
			      r->clock.tsc_hz ? dbl(buf, (double)r->clock.tsc_hz / 1e6, 1) : "",
			      r->clock.tsc_hz ? " MHz" : "");
	table(out, r, C_CALLS, C_TIMED, sum, all);
	tt_buf_puts(out, "\n");
	table(out, r, C_TIMED, C_NS_MIN, sum, all);
	if (!in_ns(r) && r->clock.tsc_hz) {
		tt_buf_puts(out, "\n");
		table(out, r, C_NS_MIN, C_END, sum, all);
	}
	if (!all && uncalled)
		tt_buf_printf(out, "(%zu traced function%s never called %s not listed)\n", uncalled,
			      uncalled == 1 ? "" : "s", uncalled == 1 ? "is" : "are");
	for (i = 0; i < r->nfuncs; i++) {
		if (!r->funcs[i].count_only || (!all && !r->funcs[i].calls))
			continue;
		tt_text_put_clean(out, r->funcs[i].name, false);
		tt_buf_puts(out, ": counted only, never timed: it ");
		tt_text_put_clean(out, r->funcs[i].count_only, false);
		tt_buf_puts(out, "\n");
	}
	for (i = 0; i < r->nfuncs; i++) {
		if (!r->funcs[i].hook || strcmp(r->funcs[i].hook, "none") != 0)
			continue;
		tt_text_put_clean(out, r->funcs[i].name, false);
		tt_buf_puts(out,
			    ": not traced: its entry could not be hooked (see the warnings)\n");
	}
	tt_report_text_self(out, r);
	tt_report_text_sampling(out, r);
	for (i = 0; i < r->nfuncs; i++)
		if (r->funcs[i].timed && r->funcs[i].nbuckets)
			histogram(out, r, &r->funcs[i]);
	for (i = 0; i < r->nfuncs; i++)
		tt_report_text_callers(out, &r->funcs[i]);
	if (r->text_threads)
		for (i = 0; i < r->nfuncs; i++)
			tt_report_text_threads(out, &r->funcs[i]);
	if (r->text_slowest)
		for (i = 0; i < r->nfuncs; i++)
			tt_report_text_slowest(out, r, &r->funcs[i]);
	if (r->text_by_arg)
		for (i = 0; i < r->nfuncs; i++)
			tt_report_text_by_arg(out, r, &r->funcs[i]);
}

void tt_report_text(struct tt_buf *out, const struct tt_report *r)
{
	tt_report_text_rows(out, r, false);
}
