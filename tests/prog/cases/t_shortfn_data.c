/*
 * t_shortfn_data.c - calls short_zero (3 bytes, shortfn_data.S) and prints the constant that
 * follows it in .text: a hook that covered the constant with its jump would change it.
 */
#include <stdint.h>
#include <stdio.h>

#include "tp.h"

int short_zero(void);
extern const uint8_t short_zero_const[4];

#define CALLS 1000

int main(void)
{
	int (*volatile f)(void) = short_zero;
	long sum = 0;
	int i;

	for (i = 0; i < CALLS; i++)
		sum += f() + 1;
	printf("sum %ld\n", sum);
	printf("constant %02x %02x %02x %02x\n", short_zero_const[0], short_zero_const[1],
	       short_zero_const[2], short_zero_const[3]);
	tp_expect(stdout, "short_zero", CALLS);
	return 0;
}
