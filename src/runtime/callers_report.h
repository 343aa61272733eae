/*
 * callers_report.h - TSC_CALLERS at report time (normal C, may allocate).
 */
#ifndef TT_CALLERS_REPORT_H
#define TT_CALLERS_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "report/report_model.h"

/* Memory for the report, freed all at once with it. */
typedef void *(*tt_alloc_fn)(void *ctx, size_t bytes);

/*
 * The call-site rows of function func for the report, most calls first, named, with times
 * less `subtract`; fn is the function's own row, whose counts the rows add up to (a last row
 * holds what no site saw). Returns the number of rows (*out from alloc).
 */
size_t tt_callers_collect(uint32_t func, const struct tt_report_func *fn, uint64_t subtract,
			  uint64_t nested, tt_alloc_fn alloc, void *ctx,
			  struct tt_report_caller **out);

#endif /* TT_CALLERS_REPORT_H */
