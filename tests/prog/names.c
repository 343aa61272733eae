/*
 * names.c - libnames.so: one function exported under two names, names_a and names_b (an alias:
 * one address, so one report entry), and names_c, a function of its own, for cases_names.sh.
 */
#include <stdint.h>

uint64_t names_a(uint64_t x);
uint64_t names_b(uint64_t x);
uint64_t names_c(uint64_t x);

/* A few dependent multiply-adds: a real body, long enough to be patched inline. */
__attribute__((noipa)) uint64_t names_a(uint64_t x)
{
	unsigned i;

	for (i = 0; i < 8; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	return x;
}

uint64_t names_b(uint64_t x) __attribute__((alias("names_a")));

__attribute__((noipa)) uint64_t names_c(uint64_t x)
{
	return x ^ (x >> 7);
}
