/*
 * untraced.c - a CPU-bound program that calls library functions through the PLT but none that
 * bench/run.sh traces: it measures what tsctrace costs a program whose hot code it does not
 * touch (run preloaded with TSC_FUNCS=bench_never_called, and bare).
 *
 *	untraced [scale]	(default 1: about 0.2 s on the machines in docs/clock.md; run.sh uses 2)
 *
 * Work per scale unit: 40 M calls of bench_fn (libbenchfn.so, through the PLT); a qsort of
 * 600,000 pseudo-random keys (libc calling back into this program through a pointer); 4 M
 * rounds of strlen + memcmp on a 512-byte buffer. Prints the time of all of it (CLOCK_MONOTONIC)
 * as `loop_ns=...`, each phase as `fn_ns`, `sort_ns`, `str_ns`, and a checksum.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "benchfn.h"
#include "now_ns.h"

#define FN_CALLS 40000000L
#define SORT_KEYS 600000
#define STR_ROUNDS 4000000

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	long scale = argc > 1 ? strtol(argv[1], NULL, 10) : 1;
	uint64_t *keys, seed = 88172645463325252ull, sum = 0, t0, t1, ta, tb;
	uint64_t fn_ns = 0, sort_ns = 0, str_ns = 0;
	char text[512];
	long i, r;
	int x = 0;

	if (scale <= 0) {
		fprintf(stderr, "usage: untraced [scale]\n");
		return 2;
	}
	keys = malloc(SORT_KEYS * sizeof(*keys));
	if (!keys) {
		perror("untraced: malloc");
		return 1;
	}
	memset(text, 'a', sizeof(text) - 1);
	text[sizeof(text) - 1] = '\0';

	t0 = now_ns();
	for (r = 0; r < scale; r++) {
		ta = now_ns();
		for (i = 0; i < FN_CALLS; i++)
			x = bench_fn(x);
		tb = now_ns();
		fn_ns += tb - ta;
		for (i = 0; i < SORT_KEYS; i++) {
			seed ^= seed << 13;
			seed ^= seed >> 7;
			seed ^= seed << 17;
			keys[i] = seed;
		}
		qsort(keys, SORT_KEYS, sizeof(*keys), cmp_u64);
		sum += keys[SORT_KEYS / 2];
		ta = now_ns();
		sort_ns += ta - tb;
		for (i = 0; i < STR_ROUNDS; i++) {
			char *p = text + (i & 63);

			__asm__ volatile("" : "+r"(p) : : "memory");
			sum += strlen(p);
			sum += (uint64_t)(memcmp(p, text, 200) != 0);
		}
		str_ns += now_ns() - ta;
	}
	t1 = now_ns();

	printf("loop_ns=%llu fn_ns=%llu sort_ns=%llu str_ns=%llu checksum=%llu\n",
	       (unsigned long long)(t1 - t0), (unsigned long long)fn_ns,
	       (unsigned long long)sort_ns, (unsigned long long)str_ns,
	       (unsigned long long)(sum + (uint64_t)x));
	free(keys);
	return 0;
}
