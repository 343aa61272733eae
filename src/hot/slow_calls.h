/*
 * slow_calls.h - TSC_SLOWEST / TSC_SLOWER_THAN: each function's slowest timed calls, kept
 * with what explains them (when, which thread and CPU, the arguments, the result, the path).
 *
 * Cost: the body's exit compares a call's raw ticks with its counters' slow_floor, one
 * compare after the second read; only a call above it reaches the C exit, which keeps it
 * here. The floor is the smallest kept call's ticks once the list is full (0 before: the
 * first N calls of each function in each thread go to C), UINT64_MAX when nothing is kept,
 * and the threshold of TSC_SLOWER_THAN when that is set (every call above it comes here,
 * kept while there is room, else counted as not kept). The arguments are stored into the
 * shadow frame at every entry (six stores), the result on the way to the C exit.
 *
 * A list lies in its counters' mapping, after struct tt_func_stats (thread_state.c): a thread's,
 * merged into the function's totals at the thread's exit and all merged by the report.
 */
#ifndef TT_SLOW_CALLS_H
#define TT_SLOW_CALLS_H

#include <stdint.h>

#include "hot/callers.h"
#include "hot/offcpu.h"
#include "hot/thread.h"

#define TT_SLOWEST_DEFAULT 8
#define TT_SLOWEST_MAX 64	 /* TSC_SLOWEST at most */
#define TT_SLOWER_THAN_KEPT 1024 /* TSC_SLOWER_THAN: calls kept per function */

struct tt_slow_call {
	uint64_t raw;		    /* raw ticks */
	uint64_t start;		    /* clock reading at entry */
	uint64_t args[6];	    /* rdi rsi rdx rcx r8 r9 at entry */
	uint64_t ret;		    /* rax at the end */
	int64_t tid;		    /* the thread's */
	uint32_t cpu;		    /* UINT32_MAX: unknown */
	uint32_t depth;		    /* frames in path (TSC_CALLERS), 0: none */
	uint64_t path[TT_PATH_MAX]; /* return addresses, innermost first (hot/callers.h) */
	int32_t nswitches;	    /* the thread's latest switches at its end; -1: unknown */
	uint32_t all_switches;	    /* they are all the thread made (offcpu.h) */
	struct tt_switch switches[TT_OFFCPU_SWITCHES];
};

struct tt_slow_list {
	uint32_t n;	   /* calls kept */
	uint32_t min;	   /* index of the fastest kept, when n > 0 */
	uint64_t not_kept; /* TSC_SLOWER_THAN: calls above it that found no room */
	struct tt_slow_call calls[];
};

/* Set once at start-up (runtime/lifecycle.c), before any thread maps counters: list length
 * per function (0: nothing kept) and the TSC_SLOWER_THAN threshold in raw ticks (0: none). */
extern uint32_t tt_slow_capacity;
extern uint64_t tt_slow_threshold;

/* Bytes a list of tt_slow_capacity takes; 0 when nothing is kept. */
static inline uint64_t tt_slow_list_bytes(void)
{
	return tt_slow_capacity ? sizeof(struct tt_slow_list) +
					  (uint64_t)tt_slow_capacity * sizeof(struct tt_slow_call)
				: 0;
}

/* The floor a fresh list starts with (UINT64_MAX: none). */
uint64_t tt_slow_initial_floor(const struct tt_func_stats *s);

/* Keep frame f's call, timed at raw ticks, ended on CPU cpu (UINT32_MAX unknown) by the
 * thread t (with its latest context switches), if it is slow enough; path (depth frames) from TSC_CALLERS, or NULL. Raises
 * s->slow_floor as the list fills. Hot path: no libc. */
void tt_slow_keep(struct tt_func_stats *s, const struct tt_frame *f, uint64_t raw, uint32_t cpu,
		  struct tt_thread *t, const uint64_t *path, uint32_t depth);

/* Add src's kept calls into dst (a thread's into the totals, or into the report's). */
void tt_slow_merge(struct tt_slow_list *dst, const struct tt_slow_list *src);

#endif /* TT_SLOW_CALLS_H */
