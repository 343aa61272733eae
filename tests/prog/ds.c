/*
 * ds.c - libdsa.so and libdsb.so for t_dlstress (built with -DDS=dsa and -DDS=dsb), only
 * ever dlopen'd. DS_outer calls DS_fn through the library's own PLT (both exported and
 * interposable), so a hook through GOT slots must patch each fresh copy of the library.
 */
#ifndef DS
#error "build with -DDS=dsa or -DDS=dsb"
#endif
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)

unsigned CAT(DS, _fn)(unsigned x);
unsigned CAT(DS, _outer)(unsigned x);

__attribute__((noinline, noclone)) unsigned CAT(DS, _fn)(unsigned x)
{
	unsigned y = (x ^ (x >> 7)) * 0x9e3779b1u;

	__asm__ volatile("" : "+r"(y));
	return y ^ (y >> 16);
}

unsigned CAT(DS, _outer)(unsigned x)
{
	return CAT(DS, _fn)(x + 1) + 1;
}
