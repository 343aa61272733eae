/*
 * early.c - libearly.so for t_early: early_fn, and a constructor that captures its address.
 * A DT_NEEDED library is initialised before a preloaded one, so the pointer is taken before
 * the shim's constructor runs: only an inline hook (the function's own first bytes) can count
 * the calls made through it.
 */
#include <stdint.h>

int early_fn(int x);
int (*early_lib_captured(void))(int);

static int (*captured)(int);

/* A real body, well over the 5 bytes of a patch. */
__attribute__((noinline, noclone)) int early_fn(int x)
{
	uint32_t u = (uint32_t)x * 2654435761u + 0x9e37u;

	__asm__ volatile("" : "+r"(u));
	return (int)((u ^ (u >> 13)) & 0x7fffffff);
}

__attribute__((constructor)) static void early_capture(void)
{
	captured = &early_fn;
}

int (*early_lib_captured(void))(int)
{
	return captured;
}
