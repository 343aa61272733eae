/*
 * slow_report.h - TSC_SLOWEST and TSC_SLOWER_THAN outside the hot path: the settings at
 * start-up, the kept calls into the report (hot/slow_calls.h keeps them).
 */
#ifndef TT_SLOW_REPORT_H
#define TT_SLOW_REPORT_H

#include <stdint.h>

#include "config/config.h"
#include "report/report_model.h"
#include "runtime/callers_report.h"
#include "runtime/clock.h"

/* Set what hot/slow_calls.h keeps, once, before any thread maps counters. */
void tt_slow_setup(const struct tt_config *cfg, const struct tt_clock *clock);

/* Every thread's kept calls of function func, merged, read before its histograms are: a
 * call is kept after it entered them (traced_call.c), so none kept is missing from them while
 * the program runs on during a report. */
void tt_slow_gather(uint32_t func);

/* Function func's kept calls (tt_slow_gather) into out (slowest first), cycles less subtract, entry times in
 * unix ns from the clock's start-up pair and hz (ticks per second; 0: ticks are ns). */
void tt_slow_collect(uint32_t func, uint64_t subtract, const struct tt_clock *clock, uint64_t hz,
		     tt_alloc_fn alloc, void *ctx, struct tt_report_func *out);

/* The process confines itself with seccomp from now on: no thread opens its switch records
 * any more (hot/offcpu.h), and kept calls' offcpu_ns are null with one warning. */
void tt_offcpu_refuse_sandboxed(void);

#endif /* TT_SLOW_REPORT_H */
