/*
 * sample.c - choosing which calls are timed (sample.h).
 *
 * No floating point on the hot path (-mgeneral-regs-only): the geometric draw is an Exp(1)
 * variate, -ln(U), from a 257-entry table of log2 in Q32 filled at start-up with integer
 * arithmetic, scaled by 1 / -ln(1 - 1/N) in Q16. Only 64-bit divisions (no __int128 one,
 * which would call libgcc).
 */
#include "hot/sample.h"

uint32_t tt_sample_mode;
uint64_t tt_sample_period;
uint64_t tt_sample_budget_ppm;
uint64_t tt_sample_floor;
uint64_t tt_sample_cost = 1; /* never 0: divided by */
uint8_t tt_sample_framed;

#define LOG_BITS 8			       /* table index: the mantissa's top 8 bits */
static uint64_t log2_q32[(1 << LOG_BITS) + 1]; /* log2(1 + i/256), Q32 */
static uint64_t fixed_scale;		       /* TSC_SAMPLE=N's scale */
static uint64_t seed_counter;

#define LN2_Q32 2977044472ull /* ln 2 in Q32 */
#define PERIOD_MAX (1ull << 32)

/* log2(x) for x in [1, 2) given in Q62, as Q32: bit by bit, squaring (start-up only). */
static uint64_t log2_mantissa(uint64_t x)
{
	uint64_t r = 0;
	int b;

	for (b = 31; b >= 0; b--) {
		x = (uint64_t)(((unsigned __int128)x * x) >> 62);
		if (x >= 2ull << 62) {
			x >>= 1;
			r |= 1ull << b;
		}
	}
	return r;
}

static uint64_t xorshift(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dull;
}

/* -ln(u / 2^64) in Q32, u != 0. */
static uint64_t exp_variate_q32(uint64_t u)
{
	unsigned int z = (unsigned int)__builtin_clzll(u);
	uint64_t m = u << z, i = (m >> (63 - LOG_BITS)) & ((1u << LOG_BITS) - 1);
	uint64_t frac = (m >> (31 - LOG_BITS)) & 0xffffffffull;
	uint64_t l = log2_q32[i] + (((log2_q32[i + 1] - log2_q32[i]) * frac) >> 32);
	uint64_t neg_log2 = ((uint64_t)(z + 1) << 32) - l;

	return (uint64_t)(((unsigned __int128)neg_log2 * LN2_Q32) >> 32);
}

uint64_t tt_sample_scale(uint64_t period)
{
	uint64_t p, term, sum = 0, k;

	if (period <= 1)
		return 0;
	if (period > PERIOD_MAX)
		period = PERIOD_MAX;
	/* -ln(1 - p) = sum of p^k / k, p = 1/period, in Q62. */
	p = (1ull << 62) / period;
	for (term = p, k = 1; term; k++) {
		sum += term / k;
		term = (uint64_t)(((unsigned __int128)term * p) >> 62);
	}
	return (1ull << 63) / (sum >> 15); /* 2^78 / sum: Q16 */
}

uint64_t tt_sample_draw(uint64_t *rng, uint64_t scale)
{
	uint64_t u = xorshift(rng), skip;

	if (!scale)
		return 0;
	if (!u)
		u = 1;
	skip = (uint64_t)(((unsigned __int128)exp_variate_q32(u) * scale) >> 48);
	return skip < (1ull << 62) ? skip : 1ull << 62;
}

void tt_sample_configure(enum tt_sample_mode mode, uint64_t period, uint64_t budget_ppm,
			 uint64_t floor, uint8_t framed)
{
	uint32_t i;

	for (i = 0; i <= 1u << LOG_BITS; i++)
		log2_q32[i] = i == 1u << LOG_BITS ? 1ull << 32
						  : log2_mantissa((1ull << 62) +
								  ((uint64_t)i << (62 - LOG_BITS)));
	tt_sample_period = period;
	tt_sample_budget_ppm = budget_ppm;
	tt_sample_floor = floor;
	fixed_scale = tt_sample_scale(period);
	tt_sample_framed = mode != TT_SAMPLE_OFF && framed;
	__atomic_store_n(&tt_sample_mode, mode, __ATOMIC_RELEASE);
}

void tt_sample_thread_init(struct tt_thread *t)
{
	/* splitmix64 of the thread's id, block address and a process-wide count. */
	uint64_t z = (uint64_t)t->tid * 0x9e3779b97f4a7c15ull ^ (uint64_t)(uintptr_t)t ^
		     __atomic_add_fetch(&seed_counter, 0x9e3779b97f4a7c15ull, __ATOMIC_RELAXED);

	t->sample = (struct tt_sample_thread){ 0 };
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	t->sample.rng = z ? z : 1;
}

/*
 * TSC_BUDGET: the period of function s in thread st. Each function past its floor has an equal
 * share of the budget: the timed calls that share affords since the thread's first timed call
 * (its allowance) against the calls it made meanwhile. A function called less than its
 * allowance is timed on every call; the others in proportion, so each is timed at the same
 * rate. Open loop, from the measured cost: no debt to pay back, nothing to oscillate.
 */
static uint64_t budget_period(struct tt_sample_thread *st, struct tt_fstat *s, uint64_t now)
{
	uint64_t share, allow, n;

	if (s->calls - s->passed <= tt_sample_floor)
		return 1; /* the floor is granted on top of the budget */
	if (!s->budgeted) {
		s->budgeted = 1;
		st->hot++;
	}
	share = (now - st->start) / (tt_sample_cost * st->hot);
	allow = share < (1ull << 40) ? share * tt_sample_budget_ppm / 1000000
				     : share / 1000000 * tt_sample_budget_ppm;
	n = s->calls / (allow ? allow : 1);
	if (n < 1)
		n = 1;
	if (s->period && n > 4 * s->period)
		n = 4 * s->period; /* grow gradually: the rate seen so far is still settling */
	return n < PERIOD_MAX ? n : PERIOD_MAX;
}

void tt_sample_after(struct tt_thread *t, struct tt_fstat *s, uint64_t now)
{
	struct tt_sample_thread *st = &t->sample;
	uint64_t period, scale;

	if (s->func == 0 || s == &tt_thread_sink)
		return; /* the calibration function is always timed */
	if (!st->start)
		st->start = now;
	period = tt_sample_mode == TT_SAMPLE_FIXED ? tt_sample_period : budget_period(st, s, now);
	if (period != s->period) {
		scale = tt_sample_mode == TT_SAMPLE_FIXED ? fixed_scale : tt_sample_scale(period);
		__atomic_store_n(&s->scale, scale, __ATOMIC_RELAXED);
		__atomic_store_n(&s->period, period, __ATOMIC_RELAXED);
		if (!s->period_min || period < s->period_min)
			__atomic_store_n(&s->period_min, period, __ATOMIC_RELAXED);
		if (period > s->period_max)
			__atomic_store_n(&s->period_max, period, __ATOMIC_RELAXED);
	}
	__atomic_store_n(&s->next_skip, tt_sample_draw(&st->rng, s->scale), __ATOMIC_RELAXED);
}
