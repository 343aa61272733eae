/*
 * msort.c - bottom-up merge sort (msort.h): runs of width 1, 2, 4... merged back and forth
 * between the array and the scratch, ending in the array.
 */
#include <stdint.h>
#include <string.h>

#include "base/msort.h"

/* Merge src[lo, mid) and src[mid, hi) into dst[lo, hi); the left run wins ties (stable). */
static void merge(char *dst, const char *src, size_t lo, size_t mid, size_t hi, size_t size,
		  int (*cmp)(const void *, const void *, void *), void *ctx)
{
	size_t i = lo, j = mid, k = lo;

	while (i < mid && j < hi) {
		if (cmp(src + j * size, src + i * size, ctx) < 0)
			memcpy(dst + k++ * size, src + j++ * size, size);
		else
			memcpy(dst + k++ * size, src + i++ * size, size);
	}
	if (i < mid)
		memcpy(dst + k * size, src + i * size, (mid - i) * size);
	else if (j < hi)
		memcpy(dst + k * size, src + j * size, (hi - j) * size);
}

void tt_msort(void *base, void *tmp, size_t n, size_t size,
	      int (*cmp)(const void *a, const void *b, void *ctx), void *ctx)
{
	char *src = base, *dst = tmp, *swap;
	size_t width, lo;

	if (n < 2)
		return;
	for (width = 1; width < n; width *= 2) {
		for (lo = 0; lo < n; lo += 2 * width) {
			size_t mid = lo + width < n ? lo + width : n;
			size_t hi = mid + width < n ? mid + width : n;

			merge(dst, src, lo, mid, hi, size, cmp, ctx);
		}
		swap = src;
		src = dst;
		dst = swap;
	}
	if (src != base)
		memcpy(base, src, n * size);
}
