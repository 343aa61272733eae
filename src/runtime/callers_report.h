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

/* The objects the rows' frames are in, gathered over a whole report (its "objects"): start
 * zeroed, pass to every tt_callers_collect, then give v and n to the report. */
struct tt_callers_objects {
	struct tt_report_object *v;
	uint64_t *bias; /* of each, to tell two loads of one file apart */
	size_t n, cap;
};

/*
 * The call-site rows of function func for the report, most calls first, named, with times
 * less `subtract`; fn is the function's own row, whose counts the rows add up to (a last row
 * holds what no site saw). Each frame's object joins objs. Returns the number of rows (*out
 * from alloc).
 */
size_t tt_callers_collect(uint32_t func, const struct tt_report_func *fn, uint64_t subtract,
			  uint64_t nested, tt_alloc_fn alloc, void *ctx,
			  struct tt_callers_objects *objs, struct tt_report_caller **out);

/* One frame of a path (a return address, or a tail frame) named as the rows' frames are:
 * "func+0xOFF (object)". */
void tt_callers_frame_name(uint64_t ip, char *out, size_t size);

#endif /* TT_CALLERS_REPORT_H */
