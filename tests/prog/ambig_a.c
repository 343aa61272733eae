/* ambig_a.c - one of t_ambig's two static functions named step (ambig_b.c has the other). */
#include <stdint.h>

unsigned ambig_a(unsigned n, unsigned long *offset);

extern const char __ehdr_start[] __attribute__((visibility("hidden")));

__attribute__((noinline, noclone)) static unsigned step(unsigned x)
{
	unsigned y = x * 0x2545f491u + 1;

	__asm__ volatile("" : "+r"(y));
	return y ^ (y >> 9);
}

/* n calls of step; *offset = step's address minus the program's load base. */
unsigned ambig_a(unsigned n, unsigned long *offset)
{
	unsigned i, s = 0;

	for (i = 0; i < n; i++)
		s += step(s + i);
	*offset = (unsigned long)((uintptr_t)&step - (uintptr_t)__ehdr_start);
	return s;
}
