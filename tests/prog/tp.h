/*
 * tp.h - helpers shared by the program tests (header-only, static inline).
 *
 * Programs print what they computed to stdout, which must be byte-identical with and without
 * the shim, and announce how often they called each traced function with lines
 *     expect <function> <calls>           exact count of calls
 *     expect_min <function> <calls>       at least this many (libc functions also called by libc)
 *     expect_unwound <function> <n>       calls left by longjmp / an exception
 * which run.sh checks against the JSON report. Counts that vary from run to run are written to
 * a side file instead (tp_side_open), so that stdout stays comparable.
 */
#ifndef TP_H
#define TP_H

#include <inttypes.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define TP_FNV_INIT 1469598103934665603ULL

/* FNV-1a over n bytes: any changed bit in any folded result changes the checksum. */
static inline void tp_fold(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *c = p;
	size_t i;

	for (i = 0; i < n; i++)
		*h = (*h ^ c[i]) * 1099511628211ULL;
}

static inline void tp_expect(FILE *f, const char *func, unsigned long calls)
{
	fprintf(f, "expect %s %lu\n", func, calls);
}

static inline void tp_expect_min(FILE *f, const char *func, unsigned long calls)
{
	fprintf(f, "expect_min %s %lu\n", func, calls);
}

static inline void tp_expect_unwound(FILE *f, const char *func, unsigned long n)
{
	fprintf(f, "expect_unwound %s %lu\n", func, n);
}

/* The side file named by argv[i] (run.sh passes the same path to both runs), or exit 2. */
static inline FILE *tp_side_open(int argc, char **argv, int i)
{
	FILE *f;

	if (argc <= i) {
		fprintf(stderr, "usage: %s ... SIDE-FILE\n", argv[0]);
		exit(2);
	}
	f = fopen(argv[i], "w");
	if (!f) {
		perror(argv[i]);
		exit(2);
	}
	return f;
}

#endif /* TP_H */
