/*
 * func_table.h - what the trampolines and the hot path read of each traced function, by its
 * index (stub number): a chunked table (base/chunked.h) that grows as functions are added and
 * never moves, so a thread's counters keep a pointer to their function's words and the
 * trampoline reaches the target through it. Written by the function table (funcs.c) and at
 * fork.
 */
#ifndef TT_FUNC_TABLE_H
#define TT_FUNC_TABLE_H

#include <stdint.h>

#include "base/chunked.h"
#include "hot/tramp_layout.h"

struct tt_func_words {
	void *target;		/* the real function behind stub i (read by tramp_body.S) */
	uint64_t first;		/* raw ticks + 1 of the process's very first completed call; 0 if
			  * none (zero, so a chunk costs no page until it is written) */
	uint64_t handler_calls; /* calls counted, not timed, in no thread's counters, added
				 * atomically: a program's signal handler's that interrupted the
				 * shim's own code (tramp_body.S), a thread's that could map no
				 * counters (tt_call_first) */
	uint64_t count_only;	/* nonzero: its calls cannot be bracketed (hook/unbracketable.h):
				 * every one is counted, none timed (tt_func_stats_new) */
};

/* The directory, read by tramp_body.S on its rare paths (no counters of the function yet). */
extern struct tt_chunked tt_func_words_table;

/* Function i's words, or NULL when i was never reserved. */
static inline struct tt_func_words *tt_func_words(uint32_t i)
{
	return (struct tt_func_words *)tt_chunked_at(&tt_func_words_table, i,
						     sizeof(struct tt_func_words));
}

/* Point stub i at addr (i reserved). */
static inline void tt_func_set_target(uint32_t i, void *addr)
{
	__atomic_store_n(&tt_func_words(i)->target, addr, __ATOMIC_RELEASE);
}

/* Indices [0, tt_func_words_used) have words (and may have stubs): a thread sizes its table
 * of counters by it. */
extern uint32_t tt_func_words_used;

#endif /* TT_FUNC_TABLE_H */
