/*
 * main.c - the serialization example's program.
 *
 *	serialization [ROUNDS]		(default 2000)
 *
 * Run under the shim with TSC_FUNCS=empty_fn,chain_64,chain_256,chain_1024. In 10 blocks, it
 *  1. times the untraced twins (plain_empty_fn, plain_chain_64, ...) itself: ROUNDS/10 calls of
 *     each back to back, each call taking the previous one's result, the TSC read (fenced) only
 *     before and after the whole loop: the loop time / calls is the true cost of one call,
 *     with no per-call measurement to disturb it;
 *  2. makes ROUNDS/10 rounds of one call of each traced function, in the same dependent chain:
 *     tsctrace times every one of those calls.
 * and prints, per function, `truth NAME T` (T: the smallest per-call cost of the 10 blocks, in
 * TSC ticks), then `run traced=T untraced=U calls=N`: the smallest per-call time of the 10
 * traced loops and of the 10 blocks of untraced twins (all four functions), so T - U is what
 * each call pays for being measured with the mode in force.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "chains.h"

#define BLOCKS 10

static inline uint64_t tsc_fenced(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* Per-call ticks of n back-to-back calls of fn (a direct call: through the PLT). */
#define TIME_LOOP(fn, n, x, out)                           \
	do {                                               \
		uint64_t t0_ = tsc_fenced(), t1_;          \
		long r_;                                   \
		for (r_ = 0; r_ < (n); r_++)               \
			(x) = fn(x);                       \
		t1_ = tsc_fenced();                        \
		(out) = (double)(t1_ - t0_) / (double)(n); \
	} while (0)

int main(int argc, char **argv)
{
	static const char *const names[] = { "empty_fn", "chain_64", "chain_256", "chain_1024" };
	long rounds = argc > 1 ? strtol(argv[1], NULL, 10) : 2000, per, r;
	double truth[4], t, traced = 1e300, untraced = 1e300;
	long x = 3;
	int b, i;

	if (argc > 2 || rounds < BLOCKS) {
		fprintf(stderr, "usage: serialization [rounds >= %d]\n", BLOCKS);
		return 2;
	}
	per = rounds / BLOCKS;
	for (i = 0; i < 4; i++)
		truth[i] = 1e300;
	for (r = 0; r < 50; r++) /* warm the twins up: caches, lazy binding */
		x = plain_chain_1024(plain_chain_256(plain_chain_64(plain_empty_fn(x))));
	for (b = 0; b < BLOCKS; b++) {
		double sum = 0;
		uint64_t t0, t1;

		TIME_LOOP(plain_empty_fn, per, x, t);
		truth[0] = t < truth[0] ? t : truth[0];
		sum += t;
		TIME_LOOP(plain_chain_64, per, x, t);
		truth[1] = t < truth[1] ? t : truth[1];
		sum += t;
		TIME_LOOP(plain_chain_256, per, x, t);
		truth[2] = t < truth[2] ? t : truth[2];
		sum += t;
		TIME_LOOP(plain_chain_1024, per, x, t);
		truth[3] = t < truth[3] ? t : truth[3];
		sum += t;
		untraced = sum / 4 < untraced ? sum / 4 : untraced;

		t0 = tsc_fenced();
		for (r = 0; r < per; r++) {
			x = empty_fn(x);
			x = chain_64(x);
			x = chain_256(x);
			x = chain_1024(x);
		}
		t1 = tsc_fenced();
		t = (double)(t1 - t0) / (double)(per * 4);
		traced = t < traced ? t : traced;
	}
	for (i = 0; i < 4; i++)
		printf("truth %s %.1f\n", names[i], truth[i]);
	printf("run traced=%.1f untraced=%.1f calls=%ld\n", traced, untraced, per * BLOCKS * 4);
	return x == 42; /* x is data-dependent noise: keeps the chain from being dropped */
}
