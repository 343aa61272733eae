/*
 * t_lookalike.c - calls liblookalike.so's twice_plus_one 3000 times through the PLT and 2000
 * times through call_via's `jmp *%rax`, imm_target 1000 times; see lookalike.S.
 */
#include "tp.h"

unsigned twice_plus_one(unsigned x);
unsigned imm_target(unsigned x);
unsigned call_via(unsigned (*fn)(unsigned), unsigned x);
unsigned long magic(void);

int main(void)
{
	unsigned long sum = 0, wrong = 0;
	unsigned i;

	for (i = 0; i < 3000; i++)
		wrong += twice_plus_one(i) != 2 * i + 1;
	for (i = 0; i < 2000; i++)
		sum += call_via(twice_plus_one, i);
	for (i = 0; i < 1000; i++)
		wrong += imm_target(i) != i + 7;
	printf("sum %lu, magic %s, %lu wrong results\n", sum, magic() ? "set" : "0", wrong);
	tp_expect(stdout, "twice_plus_one", 5000);
	tp_expect(stdout, "imm_target", 1000);
	return 0;
}
