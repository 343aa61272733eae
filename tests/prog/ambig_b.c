/* ambig_b.c - the other static step of t_ambig (see ambig_a.c), with another body. */
#include <stdint.h>

unsigned ambig_b(unsigned n, unsigned long *offset);

extern const char __ehdr_start[] __attribute__((visibility("hidden")));

__attribute__((noinline, noclone)) static unsigned step(unsigned x)
{
	unsigned y = (x + 0x632be5abu) * 0x85ebca6bu;

	__asm__ volatile("" : "+r"(y));
	return y ^ (y >> 16) ^ (y << 3);
}

unsigned ambig_b(unsigned n, unsigned long *offset)
{
	unsigned i, s = 7;

	for (i = 0; i < n; i++)
		s = s * 33 + step(i);
	*offset = (unsigned long)((uintptr_t)&step - (uintptr_t)__ehdr_start);
	return s;
}
