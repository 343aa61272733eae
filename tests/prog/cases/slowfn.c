/*
 * slowfn.c - libslowfn.so, the callees of t_slowest (slowest.sh): a call whose duration is
 * chosen by its caller, and a copy whose time grows with its size argument. Exported and
 * noipa: every call from the program goes through its PLT/GOT (or an inline hook).
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "tp_tsc.h"

#define EXPORT __attribute__((visibility("default"), noipa))

long slow_call(long idx, long a2, long a3, long a4, long a5, long a6, long mode);
size_t slow_copy(void *dst, const void *src, size_t n);

/* mode 0: return at once; 1: spin 5,000,000 TSC ticks; 2: sleep 10 ms. Returns 7 idx + 1
 * plus what the other arguments add up to, so that the kept `ret` is known. */
EXPORT long slow_call(long idx, long a2, long a3, long a4, long a5, long a6, long mode)
{
	if (mode == 1) {
		uint64_t t0 = rd_fenced();

		while (rd_fenced() - t0 < 5000000)
			;
	} else if (mode == 2) {
		struct timespec ts = { 0, 10000000 };

		nanosleep(&ts, NULL);
	}
	return 7 * idx + 1 + a2 + a3 + a4 + a5 + a6;
}

EXPORT size_t slow_copy(void *dst, const void *src, size_t n)
{
	memcpy(dst, src, n);
	return n;
}
