/*
 * t_callers_tailcall.c - traced with TSC_FUNCS=tc_enter and TSC_CALLERS (callers_tailcall.sh):
 * tc_enter(DEEP) from one call site, tc_enter(0) from another. Each tc_enter(DEEP) call is
 * re-entered DEEP times by tail jumps (callers_tailcall.S), the k-th of them nested in the
 * (k-1)-th; tc_enter(0) never is. The side file says how many calls of each kind were made.
 */
#include <stdio.h>

#include "tp.h"

#define DEEP 3
#define OUTER_DEEP 10
#define OUTER_FLAT 7

long tc_enter(long n);

/* Two distinct call sites: each loop's call instruction is one. */
static long __attribute__((noinline)) deep_calls(void)
{
	long sum = 0;
	int i;

	for (i = 0; i < OUTER_DEEP; i++)
		sum += tc_enter(DEEP);
	return sum;
}

static long __attribute__((noinline)) flat_calls(void)
{
	long sum = 0;
	int i;

	for (i = 0; i < OUTER_FLAT; i++)
		sum += tc_enter(0);
	return sum;
}

int main(void)
{
	long sum = deep_calls() + flat_calls();
	FILE *side = fopen("side", "w");

	printf("sum %ld\n", sum);
	if (side) {
		fprintf(side, "deep %d\nflat %d\nreentries %d\n", OUTER_DEEP, OUTER_FLAT, DEEP);
		fclose(side);
	}
	tp_expect(stdout, "tc_enter", OUTER_DEEP * (DEEP + 1) + OUTER_FLAT);
	return 0;
}
