/*
 * func_table.h - what the trampolines and the hot path read of each traced function, by its
 * index (stub number). Written by the function table (funcs.c) and at fork.
 */
#ifndef TT_FUNC_TABLE_H
#define TT_FUNC_TABLE_H

#include <stdint.h>

#include "hot/tramp_layout.h"

/* Read by tramp_body.S: the real function behind stub i. */
extern void *tt_func_target[TT_MAX_FUNCS];

/* Raw ticks + 1 of the process's very first completed call of function i; 0 if none (zero,
 * so the table costs no page until it is written). */
extern uint64_t tt_func_first[TT_MAX_FUNCS];

/* Calls of function i made by a program's signal handler that interrupted the shim's own code
 * (tramp_body.S adds them atomically): counted, not timed, in no thread's counters. */
extern uint64_t tt_func_handler_calls[TT_MAX_FUNCS];

#endif /* TT_FUNC_TABLE_H */
