/*
 * deepstack.c - deepstack N DEPTH: N calls of bench_fn (libbenchfn.so, through the PLT) made
 * DEPTH frames down, through functions with and without frame pointers in turn: the deep
 * stack call paths are taken on (callpaths.sh). Prints the sum, so that nothing is elided.
 */
#include <stdio.h>
#include <stdlib.h>

#include "benchfn.h"

static long calls_at_bottom(long n)
{
	long i, s = 0;

	for (i = 0; i < n; i++)
		s += bench_fn((int)i);
	return s;
}

static long down_fp(int depth, long n);

/* Without a frame pointer (-O2's default): its CFA is %rsp + k. */
__attribute__((noinline)) static long down(int depth, long n)
{
	long r = depth ? down_fp(depth - 1, n) : calls_at_bottom(n);

	return r + depth; /* used after the call: no tail call */
}

/* With one: its CFA is %rbp + 16. */
__attribute__((noinline, optimize("no-omit-frame-pointer"))) static long down_fp(int depth, long n)
{
	long r = depth ? down(depth - 1, n) : calls_at_bottom(n);

	return r + depth;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000000;
	int depth = argc > 2 ? atoi(argv[2]) : 20;

	printf("%ld\n", down(depth, n));
	return 0;
}
