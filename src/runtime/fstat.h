/*
 * fstat.h - adding a function's counters together (outside the hot path).
 */
#ifndef TT_FSTAT_H
#define TT_FSTAT_H

#include "hot/thread.h"

/* Add every count of src into dst. */
void tt_fstat_merge(struct tt_fstat *dst, const struct tt_fstat *src);

#endif /* TT_FSTAT_H */
