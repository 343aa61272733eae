/*
 * benchfn.c - libbenchfn.so, the callee of bench/percall and bench/untraced.
 *
 * noinline and in a shared object: the caller cannot see the body, so each call is a real
 * call through the PLT (call -> jmp *GOT -> body -> ret), the path tsctrace hooks.
 */
#include "benchfn.h"

#define EXPORT __attribute__((visibility("default"), noinline))

/* One instruction and a ret (lea 1(%rdi,%rdi,2); ret: 5 bytes), so that an inline hook's
 * 5-byte jump fits: x + 1 would be 4 bytes, too short to patch. */
EXPORT int bench_fn(int x)
{
	return (int)((unsigned int)x * 3u + 1u);
}

EXPORT int bench_never_called(int x)
{
	return x - 1;
}
