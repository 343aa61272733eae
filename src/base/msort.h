/*
 * msort.h - a stable merge sort that calls no libc but memcpy: the report is sorted where
 * malloc may not be called (qsort may allocate), and equal elements keep their order, so the
 * result is the one an insertion sort gives, in O(n log n).
 */
#ifndef TT_MSORT_H
#define TT_MSORT_H

#include <stddef.h>

/* Sort n elements of `size` bytes at base, in place, by cmp (negative: a before b); tmp is
 * scratch of n * size bytes. Elements that compare equal stay in their order. */
void tt_msort(void *base, void *tmp, size_t n, size_t size,
	      int (*cmp)(const void *a, const void *b, void *ctx), void *ctx);

#endif /* TT_MSORT_H */
