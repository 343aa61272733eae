/* hot.c - libhot.so: t_dlthreads' hot_fn, only ever dlopen'd. */
unsigned hot_fn(unsigned x);

__attribute__((noinline, noclone)) unsigned hot_fn(unsigned x)
{
	unsigned y = (x ^ (x >> 7)) * 0x9e3779b1u;

	__asm__ volatile("" : "+r"(y));
	return y ^ (y >> 16);
}
