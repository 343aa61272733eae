/*
 * attach_interval.h - `tsctrace attach --interval`: one table per interval, from two
 * successive reports of the same attach (the shim's dumps): each function's calls in the
 * interval, and the median and p99 of that interval's calls, from the difference of the two
 * histograms (bcc's funclatency -i prints the same).
 */
#ifndef TT_ATTACH_INTERVAL_H
#define TT_ATTACH_INTERVAL_H

#include <stdio.h>

struct tt_interval_func;

/* The previous report's functions (empty at first). */
struct tt_interval {
	struct tt_interval_func *funcs;
	size_t n;
	unsigned int seq; /* intervals printed */
};

/* Read the JSON report at path, print the interval since the previous one to out, and keep
 * it as the previous one. 0, or -1 when the report cannot be read (nothing printed). */
int tt_interval_step(struct tt_interval *iv, const char *path, double seconds, FILE *out);

void tt_interval_free(struct tt_interval *iv);

#endif /* TT_ATTACH_INTERVAL_H */
