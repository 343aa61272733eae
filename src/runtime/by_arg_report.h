/*
 * by_arg_report.h - TSC_ARGS outside the hot path: the functions it names found among the
 * traced ones, and their calls by argument into the report (hot/by_arg.h files them).
 */
#ifndef TT_BY_ARG_REPORT_H
#define TT_BY_ARG_REPORT_H

#include <stdint.h>

#include "config/config.h"
#include "report/report_model.h"
#include "runtime/callers_report.h"

/* Watch the functions TSC_ARGS names (after they are resolved, before calls are traced);
 * a name no traced function has gets one line. */
void tt_by_arg_setup(const struct tt_config *cfg);

/* Function func's buckets into out, times less subtract. */
void tt_by_arg_collect(uint32_t func, uint64_t subtract, tt_alloc_fn alloc, void *ctx,
		       struct tt_report_func *out);

#endif /* TT_BY_ARG_REPORT_H */
