/*
 * report_slow.h - TSC_SLOWEST in the two report formats (report_slow.c).
 */
#ifndef TT_REPORT_SLOW_H
#define TT_REPORT_SLOW_H

#include <stdint.h>

#include "base/buf.h"
#include "report/report_model.h"

/* Append `,\n "slowest": [...], "slowest_info": {...}` for f, if it has them. */
void tt_report_json_slowest(struct tt_buf *out, const struct tt_report_func *f);

/* Append f's table of slowest calls, if it has any; start_ns: the run's start (unix ns). */
void tt_report_text_slowest(struct tt_buf *out, const struct tt_report_func *f, uint64_t start_ns);

/* TSC_ARGS: `,\n "filtered": F, "by_arg": {...}` for f, if it has them. */
void tt_report_json_by_arg(struct tt_buf *out, const struct tt_report_func *f);

/* f's table of latency by argument, if it has one. */
void tt_report_text_by_arg(struct tt_buf *out, const struct tt_report_func *f);

#endif /* TT_REPORT_SLOW_H */
