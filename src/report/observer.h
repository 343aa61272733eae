/*
 * observer.h - the observer effect: when a function's calls are timed so densely that timing
 * them changes them (docs/method.md, "The observer effect").
 *
 * Each timed call runs the tracer's brackets around it: two serialized TSC reads, whose fences
 * drain the pipeline, and the entry and exit work (the report's overhead.subtracted inside the
 * reading, overhead.nested outside it). A short function in a tight loop normally overlaps
 * with its caller's neighbouring work; timed, it starts on an empty pipeline and its caller's
 * work is cut at each call, so its percentiles move (memcmp in sort: p90 312 cycles with every
 * call timed, 52 at one in 16, on a 26-tick TSC). What is measured is how much of its
 * thread's time the brackets take: timed calls x the brackets' cost (overhead.subtracted +
 * overhead.nested) / the thread's CPU time (its lifetime less what it waited for a CPU, which
 * the brackets do not perturb), the largest over the threads that called it. Above
 * TT_OBSERVER_PERCENT the report warns.
 */
#ifndef TT_OBSERVER_H
#define TT_OBSERVER_H

#include <stddef.h>
#include <stdint.h>

/*
 * 25%: a timed call's brackets cost ~150 ticks (the AMD EPYC VM; overhead.subtracted +
 * overhead.nested), so at that share less than ~450 ticks of the program's own work lie
 * between two timed calls, one or two reorder windows of a modern core: each timed call then
 * starts right after the previous one's fences drained the pipeline, and what it reads is
 * that, not the function among its caller's work. Measured on sort's memcmp (docs/method.md):
 * every call timed takes 57-59% and moves its p90 by ten TSC steps; 1 in 16 takes 10-12% and
 * agrees with 1 in 256 within a step. 25% lies between, about twice from either.
 */
#define TT_OBSERVER_PERCENT 25

/* Parts per million of its thread's CPU time a function's brackets took: dense_q20 timed
 * calls per 2^20 ns (struct tt_func_stats's), each costing `cost` clock units of hz a second
 * (0: unknown, 0 ppm). At most 10^6. */
uint64_t tt_observer_ppm(uint64_t dense_q20, uint64_t cost, uint64_t hz);

/* Whether that share is over the threshold. */
int tt_observer_dense(uint64_t ppm);

/* The warning's one line for function `name` (no prefix): its share, its timed calls and the
 * cost of one bracket, and what to do (TSC_SAMPLE, TSC_BUDGET). snprintf's answer. */
int tt_observer_warning(char *buf, size_t size, const char *name, uint64_t ppm, uint64_t timed,
			uint64_t cost);

#endif /* TT_OBSERVER_H */
