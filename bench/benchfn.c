/*
 * benchfn.c - libbenchfn.so, the callee of bench/percall and bench/untraced.
 *
 * noinline and in a shared object: the caller cannot see the body, so each call is a real
 * call through the PLT (call -> jmp *GOT -> body -> ret), the path tsctrace hooks.
 */
#include "benchfn.h"

#define EXPORT __attribute__((visibility("default"), noinline))

EXPORT int bench_fn(int x)
{
	return x + 1;
}

EXPORT int bench_never_called(int x)
{
	return x - 1;
}
