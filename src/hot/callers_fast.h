/*
 * callers_fast.h - TSC_CALLERS=N>1: the end of a call whose path the cached frame rules give
 * (hot/frame_rules.h), recorded without saving the vector state or calling libunwind.
 */
#ifndef TT_CALLERS_FAST_H
#define TT_CALLERS_FAST_H

#include <stdbool.h>
#include <stdint.h>

#include "hot/thread.h"

/* Set at start-up: the timed reads are the TSC (not CLOCK_MONOTONIC_RAW, which this path
 * cannot read), and the fast walk is wanted (TSC_CALLERS_UNWIND is not libunwind). */
extern bool tt_callers_fast_on;

/*
 * From tt_callers_exit_xsave, on the unwind stack, before the vector state is saved: take
 * f's path by the cached rules (rbp: its caller's %rbp) and record the call (tt_call_finish),
 * returning 1; or return 0, having done nothing, when the walk gives up (the slow route then
 * takes the path with libunwind).
 */
int tt_callers_exit_fast(struct tt_frame *f, uint64_t raw, uint32_t aux, uint64_t rbp);

#endif /* TT_CALLERS_FAST_H */
