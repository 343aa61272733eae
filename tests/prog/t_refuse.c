/*
 * t_refuse.c - calls librefuse.so's ret_only 4000 times, ret_tight 2000 (1000 of them through
 * tight_caller, which jumps to it directly), tight_next 1000, line_end 1500 and loop_back
 * 3000 times through the PLT (see refuse.S for which can be patched inline).
 */
#include "tp.h"

void ret_only(void);
void ret_tight(void);
void tight_caller(void);
int tight_next(void);
unsigned loop_back(unsigned n);
unsigned line_end(unsigned n);

int main(void)
{
	unsigned long sum = 0, wrong = 0;
	unsigned i;

	for (i = 0; i < 4000; i++)
		ret_only();
	for (i = 0; i < 1000; i++)
		ret_tight();
	for (i = 0; i < 1000; i++)
		tight_caller();
	for (i = 0; i < 1000; i++)
		wrong += tight_next() != 7;
	for (i = 0; i < 1500; i++)
		wrong += line_end(i) != i + 3;
	for (i = 0; i < 3000; i++) {
		unsigned want = i % 7 + 1, got = loop_back(want);

		if (got != want)
			wrong++;
		sum += got;
	}
	printf("loop_back sum %lu, %lu wrong results\n", sum, wrong);
	tp_expect(stdout, "ret_only", 4000);
	tp_expect(stdout, "ret_tight", 2000);
	tp_expect(stdout, "tight_next", 1000);
	tp_expect(stdout, "line_end", 1500);
	tp_expect(stdout, "loop_back", 3000);
	return 0;
}
