/*
 * t_sameid.c - calls sameid_fn (libsameid.so, whichever of its two builds the loader finds)
 * 1000 times and prints the sum, which tells the builds apart.
 */
#include "tp.h"

int sameid_fn(int x);

int main(void)
{
	long sum = 0;
	int i;

	for (i = 0; i < 1000; i++)
		sum += sameid_fn(i);
	printf("sum %ld\n", sum);
	tp_expect(stdout, "sameid_fn", 1000);
	return 0;
}
