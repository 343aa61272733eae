/*
 * traced_call.h - the C of a traced call: what the trampolines call (declared for them here,
 * with the rest of the assembly's interface in tramp/tramp.h), and what the rest of the shim
 * calls.
 */
#ifndef TT_TRACED_CALL_H
#define TT_TRACED_CALL_H

#include <stdint.h>

#include "hot/thread.h"

/* The shim's own, reached without the GOT (from assembly too). */
#define TT_HIDDEN __attribute__((visibility("hidden")))

/* First call of function func in this thread, or no thread setup yet (traced_call.c). */
int tt_call_first(uint32_t func, uintptr_t sp) TT_HIDDEN;

/* The return of a call that cannot be timed (tt_untimed_return): count it, drop the frame. */
void tt_call_untimed(struct tt_frame *f) TT_HIDDEN;

/* Record a finished call: frame, raw ticks, CPU id at the end (traced_call.c). */
void tt_call_exit(struct tt_frame *f, uint64_t raw, uint32_t aux) TT_HIDDEN;

/* What the return body calls: tt_call_exit, or an exit path set at start-up around it. */
extern void (*tt_exit_fn)(struct tt_frame *f, uint64_t raw, uint32_t aux) TT_HIDDEN;

/*
 * Nonzero when every timed call's end must go to C: tt_exit_fn is not tt_call_exit
 * (TSC_CALLERS=N, TSC_CPU), call sites are kept, or sampling is on. The exit's fast path
 * tests this one byte instead of the three settings. Whatever changes one of them calls
 * tt_exit_path_update after (all at start-up).
 */
extern uint8_t tt_exit_in_c TT_HIDDEN;
void tt_exit_path_update(void) TT_HIDDEN;

/* TSC_DEBUG=c-exit: every timed call's end to C, tt_call_exit recording what the assembly's
 * fast path would have (the differential test, tests/prog/cases/exit_paths_agree.sh). */
void tt_exit_force_c(void) TT_HIDDEN;

/* Record a finished call into site's counters too (TSC_CALLERS), then release its frame:
 * tt_call_exit's work, for exit paths that found the site themselves. */
void tt_call_finish(struct tt_frame *f, uint64_t raw, uint32_t aux, struct tt_func_stats *site);

#endif /* TT_TRACED_CALL_H */
