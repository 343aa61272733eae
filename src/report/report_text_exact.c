/*
 * report_text_exact.c - the "exact:" lines of the text report: what the bars and the rounded
 * cells leave out and `tsctrace` needs to read a text report back as exactly as the JSON
 * (src/cli/load_text.c): the start time, wall time and TSC rate in full, and per histogram
 * its cycles and raw totals, raw extremes and every bucket as low[-high]:count. The bars group
 * buckets and clamp their edges for the eye; these lines keep them apart. Pure, like
 * report_text.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report/report_fmt.h"

#define WIDTH 100 /* columns a line may take before the buckets go on the next */

void tt_report_text_exact_header(struct tt_buf *out, const struct tt_report *r)
{
	tt_buf_printf(out,
		      "exact:    start %" PRIu64 " unix ns, wall %" PRIu64 " ns, tsc %" PRIu64
		      " Hz",
		      r->start_unix_ns, r->wall_ns, r->clock.tsc_hz);
	if (r->overhead.has_nested) /* what self time subtracts per traced call made */
		tt_buf_printf(out, ", nested overhead %" PRIu64, r->overhead.nested);
	tt_buf_puts(out, "\n");
}

void tt_report_text_exact_hist(struct tt_buf *out, const struct tt_report_func *f)
{
	char cell[160]; /* the first part: four 20-digit numbers and words */
	size_t i, col;
	int n;

	n = snprintf(cell, sizeof(cell),
		     "  exact: total %" PRIu64 ", raw total %" PRIu64 " min %" PRIu64
		     " max %" PRIu64 "; buckets",
		     f->cycles.total, f->raw.total, f->raw.min, f->raw.max);
	tt_buf_puts(out, cell);
	col = (size_t)n;
	for (i = 0; i < f->nbuckets; i++) {
		const struct tt_bucket *b = &f->buckets[i];

		if (b->low == b->high)
			n = snprintf(cell, sizeof(cell), " %" PRIu64 ":%" PRIu64, b->low, b->count);
		else
			n = snprintf(cell, sizeof(cell), " %" PRIu64 "-%" PRIu64 ":%" PRIu64,
				     b->low, b->high, b->count);
		if (col + (size_t)n > WIDTH) { /* continued on a line indented by 4 */
			tt_buf_puts(out, "\n   ");
			col = 3;
		}
		tt_buf_puts(out, cell);
		col += (size_t)n;
	}
	tt_buf_puts(out, "\n");
}
