/*
 * threads.h - the traced threads outside the hot path: their exit merge, their state after
 * fork, and the per-function sums the report reads.
 */
#ifndef TT_THREADS_H
#define TT_THREADS_H

#include "hot/thread.h"

/*
 * Create the pthread key whose destructor merges an exiting thread. floor: the overhead an
 * exiting thread's rows are floored at (thread_rows.h), measured first if it has not been;
 * asked only of a thread that timed a call. 0 or -errno.
 */
int tt_thread_init(uint64_t (*floor)(void));

/* In a forked child: forget the parent's other threads and start every count from zero. */
void tt_thread_after_fork_child(void);

/* Sum of one function's counters over merged and live threads, and its calls from handlers
 * that interrupted the shim (struct tt_func_words, handler_calls), into out: zero memory, or what the last
 * collect left there (cleared first). */
void tt_thread_collect(uint32_t func, struct tt_func_stats *out);

/* TSC_SLOWEST: one function's kept slowest calls over merged and live threads, added into
 * out (a list of tt_slow_capacity, zeroed). */
struct tt_slow_list;
void tt_thread_collect_slow(uint32_t func, struct tt_slow_list *out);

/* TSC_ARGS: one function's calls by argument over merged and live threads, added into out
 * (zeroed). */
struct tt_by_arg;
void tt_thread_collect_args(uint32_t func, struct tt_by_arg *out);

/* Threads that made a traced call (calibration aside), over the life of the process. */
uint64_t tt_thread_traced(void);

/* A second attach (lifecycle.c): every thread's counters and the merged totals back to zero,
 * so that its report counts its own window. Calls in flight since the detach may add a count
 * meanwhile (none start: the entries are not hooked then). */
void tt_thread_reset_counts(void);

#endif /* TT_THREADS_H */
