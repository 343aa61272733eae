/*
 * merge.h - one function's entries in several reports made into one entry (merge_func.c),
 * for `tsctrace merge` (cmd_merge.c).
 */
#ifndef TT_MERGE_H
#define TT_MERGE_H

#include <stddef.h>
#include <stdint.h>

#include "load.h"
#include "report_model.h"

/*
 * Merge the entries named `name` of reps[0..n) (absent in some is fine) into *out. tsc_hz is
 * the merged header's rate, for the nanosecond percentiles; 0 leaves out "ns". out->buckets is
 * malloc'd (free it with tt_merge_func_free). Returns 0, or -1 after a "tsctrace:" line (out
 * of memory, or a sum past 64 bits).
 */
int tt_merge_func(struct cli_report *const *reps, size_t n, const char *name, uint64_t tsc_hz,
		  struct tt_report_func *out);

void tt_merge_func_free(struct tt_report_func *f);

#endif /* TT_MERGE_H */
