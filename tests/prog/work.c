/*
 * work.c - libwork.so: small general-purpose callees for the threads, noplt, report, empty,
 * signals and fork tests. noinline/noipa keep each a real function with a real body.
 */
#include <stdint.h>

long work_add(long a, long b);
uint64_t work_spin(unsigned n);
void work_empty(void);
int work_never(int x);
long work_leaf(long x);

__attribute__((noipa)) long work_add(long a, long b)
{
	return a + b;
}

/* About n dependent multiply-adds: a function that takes measurably longer than work_add. */
__attribute__((noipa)) uint64_t work_spin(unsigned n)
{
	uint64_t x = 88172645463325252ULL;
	unsigned i;

	for (i = 0; i < n; i++)
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
	return x;
}

/* Does nothing: what the shim reports for it is its own residual error. */
__attribute__((noipa)) void work_empty(void)
{
}

/* Traced but never called: must be listed with calls 0. */
__attribute__((noipa)) int work_never(int x)
{
	return x * 2;
}

__attribute__((noipa)) long work_leaf(long x)
{
	return x * 3 + 1;
}
