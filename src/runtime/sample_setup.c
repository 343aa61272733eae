/*
 * sample_setup.c - sampling settings at start-up, and the cost of a timed call measured on
 * this machine (sample_setup.h).
 *
 * The cost a budget is spent in is what a timed call adds to calls passed over, through the
 * same entry: the fences, the frame, the clock reads, the exit's work, and the mispredicted
 * branch into that path from the counting one, which a loop of timed calls alone would not
 * pay. So one round times 1 call in STRIDE among calls passed over, the other passes over
 * every call; the smallest of a few rounds of each, alternated, in the clock's own unit
 * (ticks, or nanoseconds without a TSC), as the hot path compares it with clock readings.
 */
#include <time.h>

#include "config/variant.h"
#include "hook/funcs.h"
#include "hot/func_table.h"
#include "hot/sample.h"
#include "hot/thread.h"
#include "hot/traced_call.h"
#include "runtime/overhead.h"
#include "runtime/sample_setup.h"

#define FLOOR 1000 /* calls of each function per thread all timed under a budget */
#define ROUNDS 5   /* alternated rounds of each kind */
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

/*
 * Clock units a timed call costs over a passed-over one (*timed), and a passed-over one over
 * an untraced call of the same function (*counted); 0 when it cannot be told. Both from a
 * tight loop, where the branches are predicted and the lines warm: lower bounds of what they
 * cost inside a program (the budget also fits a timed call's cost in place, hot/sample.h).
 */
static void measure_cost(int variant, void *entry, void *target, uint64_t *timed, uint64_t *counted)
{
	void (*volatile fn)(void) = tt_overhead_traced_empty(entry, target);
	void (*volatile bare)(void) = (void (*)(void))tt_func_words(0)->target;
	uint64_t best_timed = UINT64_MAX, best_passed = UINT64_MAX, best_bare = UINT64_MAX, t;
	struct tt_fstat *s;
	int r;

	*timed = *counted = 0;
	fn(); /* the thread and index 0 set up, if calibration did not */
	s = tt_tls.thread ? tt_thread_stat(tt_tls.thread, 0) : NULL;
	if (!s)
		return;
	for (r = 0; r < ROUNDS; r++) {
		s->skip = 0;
		s->next_skip = STRIDE - 1; /* each timed call sets the countdown to this */
		t = round_of(fn, variant);
		best_timed = t < best_timed ? t : best_timed;
		s->skip = 1ull << 40;
		t = round_of(fn, variant);
		best_passed = t < best_passed ? t : best_passed;
		t = round_of(bare, variant);
		best_bare = t < best_bare ? t : best_bare;
	}
	s->skip = 0;
	s->next_skip = 0; /* index 0 is always timed again */
	if (best_timed > best_passed)
		*timed = (best_timed - best_passed) / (ROUND_CALLS / STRIDE);
	/* Noise (another job took the CPU in the rounds passed over): every clock unit of the
	 * timed rounds charged to their timed calls instead, an upper bound, never 0 (which
	 * would let the budget time every call). The fit in place corrects it (sample.h). */
	if (!*timed && best_timed != UINT64_MAX)
		*timed = best_timed / (ROUND_CALLS / STRIDE);
	if (best_passed > best_bare)
		*counted = (best_passed - best_bare + ROUND_CALLS / 2) / ROUND_CALLS;
}

void tt_sample_setup(const struct tt_config *cfg)
{
	if (cfg->budget_ppm)
		tt_sample_configure(TT_SAMPLE_BUDGET, 0, cfg->budget_ppm, FLOOR, cfg->callers > 0);
	else if (cfg->sample > 1)
		tt_sample_configure(TT_SAMPLE_FIXED, cfg->sample, 0, 0, cfg->callers > 0);
	tt_exit_path_update();
}

void tt_sample_start(const struct tt_config *cfg, int variant, void *entry, void *target)
{
	uint64_t timed, counted;

	if (!cfg->budget_ppm)
		return;
	/* Index 0 passes over calls only while its countdown says so: mode on (setup) first. */
	measure_cost(variant, entry, target, &timed, &counted);
	tt_sample_cost = timed ? timed : 1;
	tt_sample_count_cost = counted;
}
