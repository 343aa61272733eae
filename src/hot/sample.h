/*
 * sample.h - TSC_SAMPLE and TSC_BUDGET: every call counted, about one in N timed.
 *
 * The trampoline decides at entry, before any fence: each function in each thread keeps a
 * countdown (struct tt_fstat's skip). While it is above zero a call is passed over: counted
 * with two instructions and sent on to the function, no frame, no TSC read. At zero the call
 * is timed, and its entry reloads the countdown from next_skip, which the end of the previous
 * timed call drew from a geometric distribution of mean N - 1 (a per-thread xorshift
 * generator): which calls are timed never follows the program's own period, as "every N-th
 * call" would.
 *
 * With TSC_BUDGET, N is chosen per function per thread at each timed call's end: the budget's
 * part of the time since the thread's first timed call, split equally between the functions
 * it calls past their floor, divided by what a timed call costs (tt_sample_cost, measured at
 * start-up), is what each may have had timed; a function called less than that stays fully
 * timed, the others get N = calls / allowance. The first tt_sample_floor calls of each
 * function in each thread are all timed, on top of the budget.
 *
 * Hot path: general registers only, no libc (built like traced_call.c).
 */
#ifndef TT_SAMPLE_H
#define TT_SAMPLE_H

#include <stdint.h>

#include "hot/thread.h"

enum tt_sample_mode { TT_SAMPLE_OFF, TT_SAMPLE_FIXED, TT_SAMPLE_BUDGET };

/* Set once at start-up (tt_sample_configure), read on the hot path. */
extern uint32_t tt_sample_mode;
extern uint64_t tt_sample_period;     /* TSC_SAMPLE=N */
extern uint64_t tt_sample_budget_ppm; /* TSC_BUDGET, parts per million */
extern uint64_t tt_sample_floor;      /* TSC_BUDGET: calls of each function all timed first */
extern uint64_t tt_sample_cost;	      /* clock units a timed call costs over a passed-over one */

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
 * interval: choose s's next countdown. now = the clock reading at the call's end. */
void tt_sample_after(struct tt_thread *t, struct tt_fstat *s, uint64_t now);

/* The draw, for tests: 1 / -ln(1 - 1/period) in Q16 (0 for period <= 1), and one geometric
 * countdown of mean period - 1 from generator state *rng. */
uint64_t tt_sample_scale(uint64_t period);
uint64_t tt_sample_draw(uint64_t *rng, uint64_t scale);

#endif /* TT_SAMPLE_H */
