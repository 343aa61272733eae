/*
 * t_empty.c - 100,000 calls of work_empty (an empty, non-inlined function in libwork.so).
 * After overhead subtraction the shim must report it at (almost) zero cycles.
 */
#include "tp.h"

#define N 100000

void work_empty(void);

int main(void)
{
	int i;

	for (i = 0; i < N; i++)
		work_empty();
	printf("%d calls of work_empty\n", N);
	tp_expect(stdout, "work_empty", N);
	return 0;
}
