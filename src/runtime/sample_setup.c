/*
 * sample_setup.c - sampling settings at start-up, and what a timed call and a counted one
 * cost on this machine (sample_setup.h).
 *
 * The cost a budget is spent in is what a timed call adds to calls passed over, through the
 * same entry: the fences, the frame, the clock reads, the exit's work, and the mispredicted
 * branch into that path from the counting one, which a loop of timed calls alone would not
 * pay. So one round times 1 call in STRIDE among calls passed over, the other passes over
 * every call; the smallest of a few rounds of each, alternated, in the clock's own unit
 * (ticks, or nanoseconds without a TSC), as the hot path compares it with clock readings.
 *
 * What counting costs is paid first from the budget, and it is measured per route, since
 * a GOT hook's counting stub and an inline hook's counting head are different code
 * (hook/slot_code.c). A loop of nothing but calls is the wrong yardstick for it: made of
 * taken branches alone, it is bound by the front end, and the counting path's extra jump
 * and dozen instructions cost there 3.7 to 12 ticks by where the loop's code happens to
 * lie (AMD EPYC VM), while in a program they overlap with its own work (from outside: 1-2
 * ticks a call in sort, under 1 in a loop with a division). So each call is made among a
 * caller's worth of independent work (CALLER_WORK), the rounds come from two loops placed
 * apart, and the smaller of the two is kept: what the counting path adds to a call made by
 * a program that does something besides calling.
 */
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "base/sys.h"
#include "config/variant.h"
#include "hook/funcs.h"
#include "hook/pool.h"
#include "hot/func_table.h"
#include "hot/sample.h"
#include "hot/thread.h"
#include "hot/traced_call.h"
#include "runtime/overhead.h"
#include "runtime/sample_setup.h"

#define FLOOR 1000 /* calls of each function per thread all timed under a budget */
#define ROUNDS 5   /* alternated rounds of each kind */
#define COUNT_ROUNDS 8
#define ROUND_CALLS 2048
#define STRIDE 32 /* one timed call in STRIDE: no predictor learns a pattern that long here */

static uint64_t now(int variant)
{
	struct timespec ts;
	uint32_t lo, hi;

	if (variant == TT_VAR_MONO) {
		clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
		return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
	}
	__asm__ volatile("lfence; rdtsc" : "=a"(lo), "=d"(hi)::"memory");
	return (uint64_t)hi << 32 | lo;
}

static uint64_t round_of(void (*volatile fn)(void), int variant)
{
	uint64_t t0 = now(variant);
	unsigned int i;

	for (i = 0; i < ROUND_CALLS; i++)
		fn();
	return now(variant) - t0;
}

/* Sixteen independent adds: the few instructions a caller runs between two calls (its
 * arguments, the result's use), which the CPU overlaps with the call's own. */
#define CALLER_WORK(a, b, c, d)                                                                  \
	__asm__ volatile(".rept 4\n\taddq $1, %0\n\taddq $1, %1\n\taddq $1, %2\n\taddq $1, %3\n" \
			 ".endr"                                                                 \
			 : "+r"(a), "+r"(b), "+r"(c), "+r"(d))

/* A round of calls among the caller's work; two copies, the second's loop moved by an odd
 * number of bytes, so that a clash of the loop's branches with the path's in the
 * predictors, which depends on addresses alone, does not decide the figure. */
#define WORK_ROUND(name, shift)                                                                \
	static __attribute__((noinline, aligned(64))) uint64_t name(void (*volatile fn)(void), \
								    int variant)               \
	{                                                                                      \
		uint64_t t0 = now(variant), a = 1, b = 2, c = 3, d = 4;                        \
		unsigned int i;                                                                \
                                                                                               \
		__asm__ volatile(".skip " #shift ", 0x90");                                    \
		for (i = 0; i < ROUND_CALLS; i++) {                                            \
			fn();                                                                  \
			CALLER_WORK(a, b, c, d);                                               \
		}                                                                              \
		__asm__ volatile("" ::"r"(a), "r"(b), "r"(c), "r"(d));                         \
		return now(variant) - t0;                                                      \
	}
WORK_ROUND(work_round_a, 1)
WORK_ROUND(work_round_b, 37)

/* Clock units a call passed over through entry costs over a call of target itself (both
 * index 0's, the countdown far from zero), among a caller's work, in 1/TT_COUNT_COST_SCALE
 * units; 0 when not seen. */
static uint64_t measure_counting(struct tt_func_stats *s, void *entry, void *target, int variant)
{
	uint64_t (*const rounds[2])(void (*volatile)(void), int) = { work_round_a, work_round_b };
	void (*volatile fn)(void) = tt_overhead_traced_empty(entry, target);
	void (*volatile bare)(void) = (void (*)(void))tt_func_words(0)->target;
	uint64_t best = UINT64_MAX, passed, plain, t;
	int k, r;

	s->skip = 1ull << 40;
	for (k = 0; k < 2; k++) {
		passed = plain = UINT64_MAX;
		for (r = 0; r < COUNT_ROUNDS; r++) {
			t = rounds[k](fn, variant);
			passed = t < passed ? t : passed;
			t = rounds[k](bare, variant);
			plain = t < plain ? t : plain;
		}
		t = passed > plain ? ((passed - plain) * TT_COUNT_COST_SCALE + ROUND_CALLS / 2) /
					     ROUND_CALLS
				   : 0;
		best = t < best ? t : best;
	}
	s->skip = 0;
	return best;
}

/*
 * The inline route as a program takes it: the function's patched entry, a jump to its slot,
 * then the counting head (the calibration slot itself is called directly, its entry never
 * written), against the relocated copy alone. The jump sits on a page of its own near the
 * slot, unmapped after. False when no page could be had.
 */
static bool measure_counting_inline(struct tt_func_stats *s, void *slot, void *target, int variant,
				    uint64_t *cost)
{
	uint8_t *page = tt_pool_map_near((uintptr_t)slot, 4096);
	int32_t rel;
	bool measured = false;

	if (!page)
		return false;
	rel = (int32_t)((intptr_t)slot - (intptr_t)(page + 5));
	page[0] = 0xe9; /* jmp rel32 slot: what the patched entry holds */
	memcpy(page + 1, &rel, 4);
	if (tt_sys_mprotect(page, 4096, PROT_READ | PROT_EXEC) == 0) {
		*cost = measure_counting(s, page, target, variant);
		measured = true;
	}
	tt_sys_munmap(page, 4096);
	return measured;
}

/*
 * Clock units a timed call costs over a passed-over one, from a tight loop through entry to
 * target (where the branches are predicted and the lines warm: a lower bound of what it
 * costs inside a program; the budget also fits a timed call's cost in place, hot/sample.h);
 * 0 when it cannot be told.
 */
static uint64_t measure_timed(struct tt_func_stats *s, void *entry, void *target, int variant)
{
	void (*volatile fn)(void) = tt_overhead_traced_empty(entry, target);
	uint64_t best_timed = UINT64_MAX, best_passed = UINT64_MAX, t, timed = 0;
	int r;

	for (r = 0; r < ROUNDS; r++) {
		s->skip = 0;
		s->next_skip = STRIDE - 1; /* each timed call sets the countdown to this */
		t = round_of(fn, variant);
		best_timed = t < best_timed ? t : best_timed;
		s->skip = 1ull << 40;
		t = round_of(fn, variant);
		best_passed = t < best_passed ? t : best_passed;
	}
	s->skip = 0;
	s->next_skip = 0; /* index 0 is always timed again */
	if (best_timed > best_passed)
		timed = (best_timed - best_passed) / (ROUND_CALLS / STRIDE);
	/* Noise (another job took the CPU in the rounds passed over): every clock unit of the
	 * timed rounds charged to their timed calls instead, an upper bound, never 0 (which
	 * would let the budget time every call). The fit in place corrects it (sample.h). */
	if (!timed && best_timed != UINT64_MAX)
		timed = best_timed / (ROUND_CALLS / STRIDE);
	return timed;
}

void tt_sample_setup(const struct tt_config *cfg)
{
	if (cfg->budget_ppm)
		tt_sample_configure(TT_SAMPLE_BUDGET, 0, cfg->budget_ppm, FLOOR, cfg->callers > 0);
	else if (cfg->sample > 1)
		tt_sample_configure(TT_SAMPLE_FIXED, cfg->sample, 0, 0, cfg->callers > 0);
	tt_exit_path_update();
}

void tt_sample_costs_get(struct tt_sample_costs *out)
{
	*out = (struct tt_sample_costs){ .count_got = tt_sample_count_cost_got,
					 .count_inline = tt_sample_count_cost_inline,
					 .inline_known = tt_sample_count_inline_known,
					 .timed = tt_sample_cost };
}

void tt_sample_costs_use(const struct tt_sample_costs *c)
{
	tt_sample_count_cost_got = c->count_got;
	tt_sample_count_cost_inline = c->count_inline;
	tt_sample_count_inline_known = c->inline_known != 0;
	tt_sample_count_cost = c->count_got > c->count_inline ? c->count_got : c->count_inline;
	tt_sample_cost = c->timed ? c->timed : 1;
}

void tt_sample_start(const struct tt_config *cfg, int variant, void *entry, void *target)
{
	struct tt_func_stats *s;
	uint64_t timed;

	if (!cfg->budget_ppm)
		return;
	/* Index 0 passes over calls only while its countdown says so: mode on (setup) first. */
	tt_overhead_traced_empty(NULL, NULL)(); /* the thread and index 0 set up, if need be */
	s = tt_tls.thread ? tt_thread_stat(tt_tls.thread, 0) : NULL;
	if (!s)
		return;
	/* The GOT route (stub 0 to the empty function) always; the inline one (the calibration
	 * slot to its copy) when some function is hooked inline: last, as the timed cost is
	 * measured through the inline path then. */
	tt_sample_count_cost_got = measure_counting(s, NULL, NULL, variant);
	tt_sample_count_inline_known = entry &&
				       measure_counting_inline(s, entry, target, variant,
							       &tt_sample_count_cost_inline);
	tt_sample_count_cost = tt_sample_count_cost_got > tt_sample_count_cost_inline
				       ? tt_sample_count_cost_got
				       : tt_sample_count_cost_inline;
	timed = measure_timed(s, entry, target, variant);
	tt_sample_cost = timed ? timed : 1;
}
