/*
 * report_text_callers.c - the TSC_CALLERS part of the text report: per function, its call
 * sites with their counts and times, most calls first. Pure, like report_text.c.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report/report_fmt.h"
#include "report/report_names.h"
#include "report/text_clean.h"

#define MAX_ROWS 20	 /* per function in the text; the JSON has them all */
#define SHOWN_BYTES 1024 /* a name or site as shown: C++ names demangled, cut */

void tt_report_text_callers(struct tt_buf *out, const struct tt_report_func *f)
{
	size_t i, shown = f->ncallers < MAX_ROWS ? f->ncallers : MAX_ROWS;
	char buf[SHOWN_BYTES];

	if (!f->has_callers || !f->ncallers)
		return;
	tt_buf_puts(out, "\ncallers of ");
	tt_text_put_clean(out, tt_report_demangled(f->name, buf, sizeof(buf)), false);
	tt_buf_printf(out, " (%zu site%s%s)\n", f->ncallers, f->ncallers == 1 ? "" : "s",
		      f->sampling.weighted
			      ? "; median and p99 weighted by period, min of the calls "
				"timed"
			      : "");
	tt_buf_printf(out, "  %10s %10s %8s %8s %8s  %s\n", "calls", "timed", "min", "median",
		      "p99", "site");
	for (i = 0; i < shown; i++) {
		const struct tt_report_caller *c = &f->callers[i];

		tt_buf_printf(out, "  %10" PRIu64 " %10" PRIu64, c->calls, c->timed);
		if (c->timed)
			tt_buf_printf(out, " %8" PRIu64 " %8" PRIu64 " %8" PRIu64, c->cycles.min,
				      c->cycles.median, c->cycles.p99);
		else
			tt_buf_printf(out, " %8s %8s %8s", "-", "-", "-");
		tt_buf_puts(out, "  ");
		tt_text_put_clean(out, tt_report_demangled(c->site, buf, sizeof(buf)), false);
		tt_buf_puts(out, "\n");
	}
	if (shown < f->ncallers)
		tt_buf_printf(out, "  (%zu more sites in the JSON report)\n", f->ncallers - shown);
}
