/*
 * callers_deep.h - TSC_CALLERS at start-up, and call paths of N > 1 frames (callers_deep.c).
 */
#ifndef TT_CALLERS_DEEP_H
#define TT_CALLERS_DEEP_H

#include <stdbool.h>

/* Start-up, after the clock is chosen (mono: the timed reads are CLOCK_MONOTONIC_RAW):
 * TSC_CALLERS=depth. N>1 routes returns through tt_callers_exit_xsave, or falls back to 1
 * with a line where libunwind is missing or the CPU has no xsave. Paths are walked by cached
 * frame rules (hot/frame_rules.h) unless only_libunwind (TSC_CALLERS_UNWIND=libunwind) or
 * mono. */
void tt_callers_start(unsigned int depth, bool mono, bool only_libunwind);

#endif /* TT_CALLERS_DEEP_H */
