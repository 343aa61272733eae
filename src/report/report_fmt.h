/*
 * report_fmt.h - the two report formats (libtsctrace(7), REPORT), pure functions of a
 * struct tt_report: no globals, no I/O, output only into a struct tt_buf.
 */
#ifndef TT_REPORT_FMT_H
#define TT_REPORT_FMT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "report/report_model.h"

/* Append the schema-1 JSON report (one object, 2-space indented, ending in a newline). */
void tt_report_json(struct tt_buf *out, const struct tt_report *r);

/* Append the human-readable text report: header, aligned table, per-function bar histograms.
 * Functions never called get no row; one line after the tables counts them. */
void tt_report_text(struct tt_buf *out, const struct tt_report *r);

/* The same, with a row for every function when all is true (tsctrace report --all). */
void tt_report_text_rows(struct tt_buf *out, const struct tt_report *r, bool all);

/* Append the call-site table of f (TSC_CALLERS), if it has one. */
void tt_report_text_callers(struct tt_buf *out, const struct tt_report_func *f);

/* Append the "exact:" header line (start time, wall time, TSC rate in full) and a histogram's
 * "exact:" lines (totals, raw extremes, every bucket) that a text report is read back from
 * (report_text_exact.c). */
void tt_report_text_exact_header(struct tt_buf *out, const struct tt_report *r);
void tt_report_text_exact_hist(struct tt_buf *out, const struct tt_report_func *f);

/* Append the self-time table (functions with self time), report_text_self.c. */
void tt_report_text_self(struct tt_buf *out, const struct tt_report *r);

/* Append f's per-thread rows, if it has them (tsctrace report --threads). */
void tt_report_text_threads(struct tt_buf *out, const struct tt_report_func *f);

/* Append the sampling lines (TSC_SAMPLE, TSC_BUDGET): "timed 1 in ~N" per function. */
void tt_report_text_sampling(struct tt_buf *out, const struct tt_report *r);

/* Append f's "slowest", "slowest_info", "by_arg" and "filtered" members, where it has them,
 * each at indentation ind and ending in ",\n" (report_json_tail.c). */
void tt_report_json_tail(struct tt_buf *out, const char *ind, const struct tt_report_func *f);

/* Append f's slowest calls as a table, if it has any (report_text_tail.c); r gives the clock
 * and the start time their times are shown against. */
void tt_report_text_slowest(struct tt_buf *out, const struct tt_report *r,
			    const struct tt_report_func *f);

/* Append f's latency by argument as a table, if it has one (report_text_tail.c). */
void tt_report_text_by_arg(struct tt_buf *out, const struct tt_report *r,
			   const struct tt_report_func *f);

/* Append s as a JSON string literal, quotes included; bytes that are not valid UTF-8 become
 * U+FFFD so the output is always valid JSON. */
void tt_json_string(struct tt_buf *out, const char *s);

#endif /* TT_REPORT_FMT_H */
