/*
 * callers.h - TSC_CALLERS: each function's calls grouped by where they came from.
 *
 * TSC_CALLERS=1 keys a call by its return address, which the trampoline holds anyway: a
 * hash probe after the second TSC read (~8 ns a call here). TSC_CALLERS=N>1 keys it by the N
 * return addresses of its call path, taken after the second read by the cached frame walk
 * (frame_rules.h; 4 frames: ~130-170 ns of CPU a call here) or, where it cannot, libunwind
 * (~0.8-1.1 us), so that mode is for finding who calls, not for timing the program as a
 * whole; the timed interval itself is unchanged. Each distinct site gets counters and a histogram of its own; a
 * thread keeps at most TT_SITES per function, the rest are counted under "(other)".
 */
#ifndef TT_CALLERS_H
#define TT_CALLERS_H

#include <stdint.h>

#include "hot/thread.h"

#define TT_SITES 64    /* distinct call sites per function per thread */
#define TT_PATH_MAX 32 /* TSC_CALLERS=32 at most */
_Static_assert(sizeof(((struct tt_thread *)0)->site_path) == TT_PATH_MAX * sizeof(uint64_t),
	       "thread.h: site_path holds a whole path");

#define TT_SITE_OTHER 1	  /* key: sites beyond TT_SITES */
#define TT_SITE_UNKNOWN 2 /* key: a call left by longjmp when paths are N > 1 frames */

struct tt_site {
	uint64_t key;		    /* 0: free; the return address, or a hash of the path */
	uint32_t depth;		    /* frames in ips */
	uint64_t ips[TT_PATH_MAX];  /* return addresses, innermost first */
	struct tt_func_stats *stat; /* counters and histogram of this site */
};

struct tt_site_table {
	struct tt_site sites[TT_SITES]; /* open addressing by key */
	struct tt_site other;		/* everything that did not fit */
	struct tt_site unknown;		/* unwound calls whose path is unknown */
};

/* 0: off; 1: by return address; N: by call path of N frames. Set once at start-up. */
extern uint32_t tt_callers_depth;

/*
 * A frame of a path that is no return address: the traced function of index i, whose call
 * made this one by a tail jump (TT_TAIL_FRAME | i). Bit 63: never a user-space address.
 */
#define TT_TAIL_FRAME (1ull << 63)

/* Where the trampoline bodies lie (set at start-up by the layer that knows them): a return
 * address in there is a body's landing after the call it made into its function. */
extern uintptr_t tt_callers_landing_lo, tt_callers_landing_hi;

/*
 * A call entered by a tail jump from inside another traced call finds that call's landing in
 * the body as its return address, not a caller's: its function jumped on instead of calling.
 * The frame of that enclosing call (same stack pointer, below f), or NULL when f was called.
 */
const struct tt_frame *tt_callers_tail_origin(const struct tt_frame *f);

/* The immediate caller of f's call for TSC_CALLERS=1: its return address, or for a tail
 * re-entry TT_TAIL_FRAME with the index of the traced function it came from. */
uint64_t tt_callers_caller(const struct tt_frame *f);

/*
 * The counters of the site `ips` (depth return addresses) of function func in this thread,
 * created on first use; NULL when memory runs out. First-call-path rules: general registers,
 * raw syscalls only.
 */
struct tt_func_stats *tt_callers_site(struct tt_thread *t, uint32_t func, const uint64_t *ips,
				      uint32_t depth);

/* The site for a call whose path is unknown (left by longjmp when depth > 1). */
struct tt_func_stats *tt_callers_unknown(struct tt_thread *t, uint32_t func);

#endif /* TT_CALLERS_H */
