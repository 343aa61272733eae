/*
 * main.c - call four strlen implementations on the same strings, many times, so that a
 * tsctrace report compares them side by side.
 *
 *	strlen_variants [short|medium|long|all] [rounds]
 *
 * A class is 16 strings of one length (short 12, medium 100, long 1000 bytes), each starting at
 * a different offset from a 64-byte boundary (0..15), because the word and SSE2 versions take
 * different paths for different alignments. One round calls every variant once on every string
 * of the chosen class(es), variants interleaved, so all four see the same caches and the same
 * branch history. Default: all three classes, 2000 rounds.
 *
 * The program prints what it did and checks that the four agree; timing is tsctrace's job:
 *
 *	LD_PRELOAD=libtsctrace.so TSC_FUNCS=bytes_strlen,words_strlen,sse2_strlen,strlen \
 *		./strlen_variants short
 *
 * Every call goes through the PLT (the three variants live in libstrlens.so, strlen in libc).
 * libc's strlen is declared pure, so GCC would call it once per string and reuse the result;
 * an empty asm that "changes" the pointer before each call keeps every call in place.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strlens.h"

#define NSTRINGS 16 /* one per starting offset 0..15 */
#define DEFAULT_ROUNDS 2000

struct size_class {
	const char *name;
	size_t len; /* bytes before the NUL */
	char *buf;  /* 64-aligned block holding the 16 strings */
	const char *str[NSTRINGS];
};

static struct size_class classes[] = {
	{ .name = "short", .len = 12 },
	{ .name = "medium", .len = 100 },
	{ .name = "long", .len = 1000 },
};
#define NCLASSES (sizeof(classes) / sizeof(classes[0]))

enum { V_BYTES, V_WORDS, V_SSE2, V_LIBC, NVARIANTS };
static const char *const variant_names[NVARIANTS] = {
	"bytes_strlen",
	"words_strlen",
	"sse2_strlen",
	"strlen",
};

/* Hide p's value from the optimizer: each call below must really happen. */
#define OPAQUE(p) __asm__ volatile("" : "+r"(p) : : "memory")

static int setup_class(struct size_class *c)
{
	/* Each string gets its own 64-byte-aligned slot, so offset i really is i mod 64. */
	size_t slot = (c->len + 1 + NSTRINGS + 63) & ~(size_t)63;
	size_t i, j;

	c->buf = aligned_alloc(64, slot * NSTRINGS);
	if (!c->buf)
		return -1;
	memset(c->buf, 'x', slot * NSTRINGS);
	for (i = 0; i < NSTRINGS; i++) {
		char *s = c->buf + i * slot + i;

		for (j = 0; j < c->len; j++)
			s[j] = (char)('a' + (i + j) % 26);
		s[c->len] = '\0';
		c->str[i] = s;
	}
	return 0;
}

/* One round over one class: every variant on every string; sums[v] accumulates lengths. */
static void run_round(const struct size_class *c, uint64_t sums[NVARIANTS])
{
	size_t i;

	for (i = 0; i < NSTRINGS; i++) {
		const char *s = c->str[i];

		OPAQUE(s);
		sums[V_BYTES] += bytes_strlen(s);
		OPAQUE(s);
		sums[V_WORDS] += words_strlen(s);
		OPAQUE(s);
		sums[V_SSE2] += sse2_strlen(s);
		OPAQUE(s);
		sums[V_LIBC] += strlen(s);
	}
}

static int usage(void)
{
	fprintf(stderr, "usage: strlen_variants [short|medium|long|all] [rounds]\n");
	return 2;
}

int main(int argc, char **argv)
{
	const char *which = argc > 1 ? argv[1] : "all";
	long rounds = DEFAULT_ROUNDS;
	uint64_t sums[NVARIANTS] = { 0 };
	int use[NCLASSES] = { 0 };
	size_t c, v, nused = 0;
	long r;

	if (argc > 3)
		return usage();
	if (argc > 2) {
		char *end;

		rounds = strtol(argv[2], &end, 10);
		if (*end || rounds <= 0)
			return usage();
	}
	for (c = 0; c < NCLASSES; c++) {
		use[c] = !strcmp(which, "all") || !strcmp(which, classes[c].name);
		nused += (size_t)use[c];
	}
	if (!nused)
		return usage();
	for (c = 0; c < NCLASSES; c++) {
		if (use[c] && setup_class(&classes[c]) < 0) {
			perror("strlen_variants: aligned_alloc");
			return 1;
		}
	}

	/* The timed part, as far as tsctrace is concerned: only the four traced functions. */
	for (r = 0; r < rounds; r++)
		for (c = 0; c < NCLASSES; c++)
			if (use[c])
				run_round(&classes[c], sums);

	printf("strlen_variants: strings of");
	for (c = 0, v = 0; c < NCLASSES; c++)
		if (use[c])
			printf("%s %zu (%s)", v++ ? "," : "", classes[c].len, classes[c].name);
	printf(" bytes at %d alignments, %ld rounds: %zu calls of each function\n", NSTRINGS,
	       rounds, (size_t)rounds * NSTRINGS * nused);
	for (v = 1; v < NVARIANTS; v++) {
		if (sums[v] != sums[V_BYTES]) {
			printf("strlen_variants: MISMATCH: %s summed %llu bytes, %s %llu\n",
			       variant_names[v], (unsigned long long)sums[v],
			       variant_names[V_BYTES], (unsigned long long)sums[V_BYTES]);
			return 1;
		}
	}
	printf("strlen_variants: all four agree (%llu bytes measured by each)\n",
	       (unsigned long long)sums[V_BYTES]);
	for (c = 0; c < NCLASSES; c++)
		free(classes[c].buf);
	return 0;
}
