/*
 * t_refuse.c - calls librefuse.so's ret_only 4000 times and loop_back 3000 times through the
 * PLT; neither can be patched inline (see refuse.S).
 */
#include "tp.h"

void ret_only(void);
unsigned loop_back(unsigned n);

int main(void)
{
	unsigned long sum = 0, wrong = 0;
	unsigned i;

	for (i = 0; i < 4000; i++)
		ret_only();
	for (i = 0; i < 3000; i++) {
		unsigned want = i % 7 + 1, got = loop_back(want);

		if (got != want)
			wrong++;
		sum += got;
	}
	printf("loop_back sum %lu, %lu wrong results\n", sum, wrong);
	tp_expect(stdout, "ret_only", 4000);
	tp_expect(stdout, "loop_back", 3000);
	return 0;
}
