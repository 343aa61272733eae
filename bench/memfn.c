/*
 * memfn.c - libmemfn.so, the callees of bench/memrss: 16 exported functions mem_fn0 ..
 * mem_fn15, each a short loop whose length depends on its number (mem_fnK spins 16 * (K + 1)
 * iterations: tens to a few hundred ticks), so the 16 fill different histogram buckets as
 * short functions in a real program do; and mem_never_called, which nothing calls.
 */
#define EXPORT __attribute__((visibility("default"), noinline))

static int spin(int x, int n)
{
	int i;

	for (i = 0; i < n; i++)
		__asm__ volatile("" : "+r"(x));
	return x + 1;
}

/* Generated functions and their calls, packed by hand. */
/* clang-format off */
#define MEM_FN(k) \
	EXPORT int mem_fn##k(int x); \
	EXPORT int mem_fn##k(int x) { return spin(x, 16 * ((k) + 1)); }

MEM_FN(0) MEM_FN(1) MEM_FN(2) MEM_FN(3) MEM_FN(4) MEM_FN(5) MEM_FN(6) MEM_FN(7)
MEM_FN(8) MEM_FN(9) MEM_FN(10) MEM_FN(11) MEM_FN(12) MEM_FN(13) MEM_FN(14) MEM_FN(15)
	/* clang-format on */

	EXPORT int mem_never_called(int x);
EXPORT int mem_never_called(int x)
{
	return x - 1;
}
