/*
 * t_noplt.c - built with -fno-plt -Wl,-z,now: calls into libwork.so go through GLOB_DAT GOT
 * slots (call *work_add@GOTPCREL(%rip)) that RELRO makes read-only after start-up. run.sh
 * checks the relocations and flags of the binary.
 */
#include "tp.h"

#define N 5000

long work_add(long a, long b);
long work_leaf(long x);

int main(void)
{
	long sum = 0, i;
	unsigned long wrong = 0;

	for (i = 0; i < N; i++) {
		long r = work_add(i, -3);

		if (r != i - 3)
			wrong++;
		sum += r + work_leaf(i);
	}
	printf("sum %ld, %lu wrong results\n", sum, wrong);
	tp_expect(stdout, "work_add", N);
	tp_expect(stdout, "work_leaf", N);
	return 0;
}
