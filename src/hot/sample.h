/*
 * sample.h - TSC_SAMPLE and TSC_BUDGET: every call counted, about one in N timed.
 *
 * The trampoline decides at entry, before any fence: each function in each thread keeps a
 * countdown (struct tt_func_stats's skip). While it is above zero a call is passed over: counted
 * with two instructions and sent on to the function, no frame, no TSC read. At zero the call
 * is timed, and its entry reloads the countdown from next_skip, which the end of the previous
 * timed call drew from a geometric distribution of mean N - 1 (a per-thread xorshift
 * generator): which calls are timed never follows the program's own period, as "every N-th
 * call" would.
 *
 * With TSC_BUDGET, N is chosen per function per thread at each timed call's end: the budget's
 * part of the thread's CPU time since the function's first call in it (sample.c's
 * thread_ran: the clock, in the proportion the thread ran), split equally between the functions
 * it calls past their floor, less what counting every call of the function costs
 * (tt_sample_count_cost each), divided by what a timed call costs more than a counted one,
 * is what each may have had timed; a function called less than that stays fully timed, the
 * others get N = calls / allowance. When counting alone takes the function's whole share,
 * timing keeps an eighth of it (a sample to report) and the report says the budget is
 * exceeded. The cost of a timed call is the larger of tt_sample_cost (start-up, a tight loop:
 * a lower bound) and the one seen in place (struct tt_sample_fn): the clock units between
 * successive timed ends of the function against the calls made between them, fitted by
 * least squares over windows of gaps (outliers left out, the median of three windows); the
 * geometric draw makes the gaps vary, the slope is
 * the program's own time per call (with counting) and the intercept what one timed call
 * adds on top: its fences, frame, reads and exit, and what it disturbs in the caches and
 * predictors. The first tt_sample_floor calls of each function in each thread are all
 * timed, on top of the budget.
 *
 * Under a budget each timed call is also recorded with weight N, the mean period of the draw
 * that chose it (it stands for N calls), in whist, and its self time in wself (its call
 * site's alike): percentiles from them are unbiased while N changes over the run (the
 * floor's calls at weight 1, early calls at small N, late ones at large N), which the plain
 * histograms of timed calls are not. At TSC_SAMPLE=N every weight is N: the weighted
 * histograms are the plain ones times N, which the report derives (tt_func_stats_weigh_fixed)
 * instead of the exit recording them.
 *
 * Hot path: general registers only, no libc (built like traced_call.c).
 */
#ifndef TT_SAMPLE_H
#define TT_SAMPLE_H

#include <stdbool.h>
#include <stdint.h>

#include "hot/thread.h"

enum tt_sample_mode { TT_SAMPLE_OFF, TT_SAMPLE_FIXED, TT_SAMPLE_BUDGET };

/* Set once at start-up (tt_sample_configure), read on the hot path. */
extern uint32_t tt_sample_mode;
extern uint64_t tt_sample_period;     /* TSC_SAMPLE=N */
extern uint64_t tt_sample_budget_ppm; /* TSC_BUDGET, parts per million */
extern uint64_t tt_sample_floor;      /* TSC_BUDGET: calls of each function all timed first */
extern uint64_t tt_sample_cost;	      /* clock units a timed call costs over a passed-over one */
/* A counted call costs a fraction of a clock unit where a program overlaps it with its own
 * work (0.3-2 ticks on the AMD EPYC VMs): whole units would read most of them as 0 and a
 * budget would then not see counting at all. So these three are in 1/TT_COUNT_COST_SCALE
 * clock units. */
#define TT_COUNT_COST_SCALE 256
/* A passed-over call over an untraced one: the larger route's, as the hot path cannot tell
 * them apart. */
extern uint64_t tt_sample_count_cost;
extern uint64_t tt_sample_count_cost_got;    /* through a GOT hook's counting stub */
extern uint64_t tt_sample_count_cost_inline; /* an inline hook's counting head */
/* The inline route was measured: its cost may read 0 (a head the CPU overlapped with the
 * caller's work), which is a figure, not its absence. */
extern bool tt_sample_count_inline_known;

/* Nonzero: calls passed over still take a frame (no TSC read) so that their end is seen:
 * TSC_CALLERS counts every call's site. Read by tramp_body.S. */
extern uint8_t tt_sample_framed;

/* Start-up: mode, N (FIXED), budget in ppm and floor (BUDGET), framed as above. */
void tt_sample_configure(enum tt_sample_mode mode, uint64_t period, uint64_t budget_ppm,
			 uint64_t floor, uint8_t framed);

/* A new thread's sampling state, its generator seeded anew (first-call path; and a fork
 * child's thread, whose functions start from zero). */
void tt_sample_thread_init(struct tt_thread *t);

/* At the end of a timed (framed, not passed over) call of s in thread t, outside the timed
 * interval: choose s's next countdown. now = the clock reading at the call's end. A call
 * recorded in s->hist (`recorded`: not migrated, not the thread's first), raw ticks long,
 * is recorded under a budget in s->whist too, with weight the period that chose it, and in
 * its call site's (TSC_CALLERS: site, else NULL) alike; its self time (child, nested: its
 * frame's, as traced_call.c's apply takes them) in s->wself and the site's with the same
 * weight. The gap since the last timed end goes into the cost's fit. */
void tt_sample_after(struct tt_thread *t, struct tt_func_stats *s, struct tt_func_stats *site,
		     uint64_t now, bool recorded, uint64_t raw, uint64_t child, uint64_t nested);

/* The draw, for tests: 1 / -ln(1 - 1/period) in Q16 (0 for period <= 1), and one geometric
 * countdown of mean period - 1 from generator state *rng. */
uint64_t tt_sample_scale(uint64_t period);
uint64_t tt_sample_draw(uint64_t *rng, uint64_t scale);

/* The fit, for tests: the intercept (at 0 calls) of the least-squares line through a
 * window's gaps, clamped at 0; 0 when the calls between timed ends hardly varied. */
uint64_t tt_sample_fit(const struct tt_sample_fn *e);

/* The cost a budget charges per timed call of s: the larger of the start-up one and s's. */
uint64_t tt_sample_timed_cost(const struct tt_func_stats *s);

#endif /* TT_SAMPLE_H */
