/*
 * stats.c - a histogram as the report shows it: min, median, p90, p99, max, mean, total,
 * nanoseconds, and the bucket list, all with the calibrated overhead taken off.
 *
 * Pure: no globals, no I/O, no allocation. Runs once per function at report time and simply
 * walks the 7,936 buckets again for each figure: a summary plus the bucket list of 100,000
 * samples took 3 us here, nothing worth caching.
 *
 * Subtracting at report time keeps the hot path to one add, and loses nothing: v -> max(v - s,
 * 0) is monotone, so each percentile of cycles is the raw percentile shifted and floored, and
 * the floor only clamps samples below s. The overhead s is tens of ticks, far below 1024, so
 * those samples sit in exact buckets and the total stays exact. Only a user-set TSC_OVERHEAD
 * above 1024 clamps samples of wide buckets; their share of the total is then an estimate,
 * off by at most half a bucket (under 0.4% of the raw value) per such sample.
 */
#include "report/stats.h"

#include <stdbool.h>

static inline uint64_t load(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

uint64_t tt_stats_bucket_back(uint32_t i, uint64_t subtract)
{
	uint64_t lo = tt_hist_bucket_low(i), hi = tt_hist_bucket_high(i);
	uint64_t most = subtract - lo, least = hi < subtract ? subtract - hi : 0;

	return least + (most - least) / 2;
}

uint64_t tt_stats_floor_back(const struct tt_hist *h, uint64_t subtract)
{
	uint64_t back = 0;
	uint32_t i;

	/* From the least sample's bucket: an empty or high histogram reads no bucket. */
	if (!load(&h->count) || load(&h->min) >= subtract)
		return 0;
	for (i = tt_hist_index(load(&h->min));
	     i < TT_HIST_BUCKETS && tt_hist_bucket_low(i) < subtract; i++)
		back += load(&h->counts[i]) * tt_stats_bucket_back(i, subtract);
	return back;
}

/*
 * Sum of max(v - s, 0) over all samples = raw total - count * s + sum over v < s of (s - v).
 * Modular arithmetic keeps it exact whenever the result itself fits in 64 bits.
 */
static uint64_t floored_total(const struct tt_hist *h, uint64_t count, uint64_t s)
{
	uint64_t raw = load(&h->total), t;

	t = raw - count * s + tt_stats_floor_back(h, s);
	/* Never above raw; only a view racing its recording thread can get here. */
	return t > raw ? raw : t;
}

void tt_stats_summarise(const struct tt_hist *h, uint64_t subtract, struct tt_summary *out)
{
	uint64_t count = load(&h->count);

	*out = (struct tt_summary){ 0 };
	if (count == 0)
		return;
	out->min = tt_stats_sub_floor(load(&h->min), subtract);
	out->median = tt_stats_sub_floor(tt_hist_percentile(h, 50), subtract);
	out->p90 = tt_stats_sub_floor(tt_hist_percentile(h, 90), subtract);
	out->p99 = tt_stats_sub_floor(tt_hist_percentile(h, 99), subtract);
	out->p999 = tt_stats_sub_floor(tt_hist_permyriad(h, 9990), subtract);
	out->p9999 = tt_stats_sub_floor(tt_hist_permyriad(h, 9999), subtract);
	out->has_tail = true;
	out->max = tt_stats_sub_floor(load(&h->max), subtract);
	out->total = floored_total(h, count, subtract);
	out->mean = (double)out->total / (double)count;
}

uint64_t tt_stats_weigh(const struct tt_hist *wh, uint64_t subtract, struct tt_summary *out)
{
	struct tt_summary w;

	tt_stats_summarise(wh, subtract, &w);
	if (!load(&wh->count))
		return 0;
	out->median = w.median;
	out->p90 = w.p90;
	out->p99 = w.p99;
	out->p999 = w.p999;
	out->p9999 = w.p9999;
	out->mean = w.mean;
	return w.total;
}

static double ticks_to_ns(double ticks, uint64_t tsc_hz)
{
	return ticks * 1e9 / (double)tsc_hz;
}

void tt_stats_to_ns(const struct tt_summary *ticks, uint64_t tsc_hz, struct tt_summary_ns *out)
{
	*out = (struct tt_summary_ns){ 0 };
	if (tsc_hz == 0) /* out of contract; zeros beat infinities in a report */
		return;
	out->min = ticks_to_ns((double)ticks->min, tsc_hz);
	out->median = ticks_to_ns((double)ticks->median, tsc_hz);
	out->p90 = ticks_to_ns((double)ticks->p90, tsc_hz);
	out->p99 = ticks_to_ns((double)ticks->p99, tsc_hz);
	out->has_tail = ticks->has_tail;
	out->p999 = ticks_to_ns((double)ticks->p999, tsc_hz);
	out->p9999 = ticks_to_ns((double)ticks->p9999, tsc_hz);
	out->max = ticks_to_ns((double)ticks->max, tsc_hz);
	out->mean = ticks_to_ns(ticks->mean, tsc_hz);
	out->total = ticks_to_ns((double)ticks->total, tsc_hz);
}

/* Write b to out[n] if there is room; count it either way. */
static void emit(struct tt_bucket *out, size_t max, size_t *n, const struct tt_bucket *b)
{
	if (*n < max)
		out[*n] = *b;
	(*n)++;
}

size_t tt_stats_buckets(const struct tt_hist *h, uint64_t subtract, struct tt_bucket *out,
			size_t max)
{
	struct tt_bucket cur = { 0 }, next;
	bool have = false;
	size_t n = 0;
	uint32_t i, first, last;

	/* Only the buckets between min's and max's can hold a sample: an empty histogram or a
	 * narrow one is not read through (a report's empty rows touch none of its pages). */
	if (!load(&h->count))
		return 0;
	first = tt_hist_index(load(&h->min));
	last = tt_hist_index(load(&h->max));
	for (i = first; i <= last && i < TT_HIST_BUCKETS; i++) {
		next.count = load(&h->counts[i]);
		if (!next.count)
			continue;
		next.low = tt_stats_sub_floor(tt_hist_bucket_low(i), subtract);
		next.high = tt_stats_sub_floor(tt_hist_bucket_high(i), subtract);
		/* Raw buckets are disjoint and ascending, so after the shift only those the
		 * floor pushed onto 0 can overlap the one before: fold them together. */
		if (have && next.low <= cur.high) {
			cur.high = next.high;
			cur.count += next.count;
			continue;
		}
		if (have)
			emit(out, max, &n, &cur);
		cur = next;
		have = true;
	}
	if (have)
		emit(out, max, &n, &cur);
	return n;
}
