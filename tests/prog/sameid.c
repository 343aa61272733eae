/*
 * sameid.c - one function, built twice with different bodies and the same GNU build ID
 * (tests/prog/Makefile: sameid_a/ and sameid_b/libsameid.so): a library rebuilt without its
 * build ID changing, whose kept relocation plan (hook/plan_cache.c) must not be used.
 */
#ifndef SAMEID_MUL
#define SAMEID_MUL 3
#endif

int sameid_fn(int x)
{
	return x * SAMEID_MUL + 12345;
}
