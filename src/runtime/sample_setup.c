/*
 * sample_setup.c - sampling settings at start-up, and the cost of a timed call measured on
 * this machine (sample_setup.h).
 *
 * The cost a budget is spent in is the difference between a timed call and one passed over,
 * through the same entry: the fences, the frame, the clock reads and the exit's work. It is
 * taken as the smallest of a few rounds of each, alternated, in the clock's own unit (ticks,
 * or nanoseconds without a TSC), as the hot path compares it with elapsed clock readings.
 */
#include <time.h>

#include "config/variant.h"
#include "hook/funcs.h"
#include "hot/sample.h"
#include "hot/thread.h"
#include "runtime/sample_setup.h"

#define FLOOR 1000 /* calls of each function per thread all timed under a budget */
#define ROUNDS 5   /* alternated rounds of each kind */
#define ROUND_CALLS 200

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

/* Clock units a timed call costs over a passed-over one; 0 when it cannot be told. */
static uint64_t measure_cost(int variant, void *entry)
{
	void (*volatile fn)(void) = (void (*)(void))(entry ? entry : tt_funcs_stub(0));
	uint64_t best_timed = UINT64_MAX, best_passed = UINT64_MAX, t;
	struct tt_fstat *s;
	int r;

	fn(); /* the thread and index 0 set up, if calibration did not */
	s = tt_tls.thread ? tt_tls.thread->stats[0] : NULL;
	if (!s)
		return 0;
	for (r = 0; r < ROUNDS; r++) {
		s->skip = 0;
		t = round_of(fn, variant);
		best_timed = t < best_timed ? t : best_timed;
		s->skip = 1ull << 40;
		t = round_of(fn, variant);
		best_passed = t < best_passed ? t : best_passed;
	}
	s->skip = 0;
	return best_timed > best_passed ? (best_timed - best_passed) / ROUND_CALLS : 0;
}

void tt_sample_start(const struct tt_config *cfg, int variant, void *entry)
{
	uint64_t cost;

	if (cfg->budget_ppm) {
		/* Index 0 passes over calls only while its countdown says so: mode on first. */
		tt_sample_configure(TT_SAMPLE_BUDGET, 0, cfg->budget_ppm, FLOOR, cfg->callers > 0);
		cost = measure_cost(variant, entry);
		tt_sample_cost = cost ? cost : 1;
	} else if (cfg->sample > 1) {
		tt_sample_configure(TT_SAMPLE_FIXED, cfg->sample, 0, 0, cfg->callers > 0);
	}
}
