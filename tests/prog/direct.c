/*
 * direct.c - libdirect.so, built with -fno-semantic-interposition: direct_run calls the
 * exported direct_leaf and the hidden hidden_leaf with plain `call` instructions (no PLT, no
 * GOT), so only an inline hook sees those calls. direct_steps calls this library's own
 * static `step` (t_ambig has two more functions of that name).
 *
 * noinline, noclone (not noipa): the callers are compiled as real code is, -fipa-ra included,
 * so they may keep values in call-clobbered registers the callee is known not to touch.
 */
#include <stdint.h>

#define HIDDEN __attribute__((visibility("hidden")))

unsigned direct_leaf(unsigned x);
HIDDEN unsigned hidden_leaf(unsigned x);
unsigned direct_run(unsigned n);
unsigned direct_steps(unsigned n, unsigned long *offset);

extern const char __ehdr_start[] HIDDEN;

__attribute__((noinline, noclone)) unsigned direct_leaf(unsigned x)
{
	unsigned y = x * 0x9e3779b1u;

	__asm__ volatile("" : "+r"(y));
	return y ^ (y >> 11);
}

__attribute__((noinline, noclone)) HIDDEN unsigned hidden_leaf(unsigned x)
{
	unsigned y = x + 0x7f4a7c15u;

	__asm__ volatile("" : "+r"(y));
	return (y << 5) ^ (y >> 3);
}

unsigned direct_run(unsigned n)
{
	unsigned i, a = 1, b = 2, c = 3;

	for (i = 0; i < n; i++) {
		a += direct_leaf(i ^ b);
		b ^= hidden_leaf(a + i);
		c = c * 31 + (a ^ b);
	}
	return a ^ b ^ c;
}

__attribute__((noinline, noclone)) static unsigned step(unsigned x)
{
	unsigned y = x * 5 + 0x1234u;

	__asm__ volatile("" : "+r"(y));
	return y ^ (y >> 2);
}

/* n calls of step; *offset = step's address minus this library's load base. */
unsigned direct_steps(unsigned n, unsigned long *offset)
{
	unsigned i, s = 0;

	for (i = 0; i < n; i++)
		s += step(s + i);
	*offset = (unsigned long)((uintptr_t)&step - (uintptr_t)__ehdr_start);
	return s;
}
