/*
 * sample.c - choosing which calls are timed (sample.h).
 *
 * No floating point on the hot path (-mgeneral-regs-only): the geometric draw is an Exp(1)
 * variate, -ln(U), from a 257-entry constant table of log2 in Q32 (hot/log2_table.h), scaled
 * by 1 / -ln(1 - 1/N) in Q16. Only 64-bit divisions (no __int128 one,
 * which would call libgcc).
 */
#include <sys/syscall.h>
#include <time.h>

#include "base/sys.h"
#include "hot/log2_table.h"
#include "hot/sample.h"
#include "hist/hist.h"

uint32_t tt_sample_mode;
uint64_t tt_sample_period;
uint64_t tt_sample_budget_ppm;
uint64_t tt_sample_floor;
uint64_t tt_sample_cost = 1; /* never 0: divided by */
uint64_t tt_sample_count_cost;
uint64_t tt_sample_count_cost_got;
uint64_t tt_sample_count_cost_inline;
bool tt_sample_count_inline_known;
uint8_t tt_sample_framed;

#define LOG_BITS TT_LOG2_BITS
static uint64_t fixed_scale; /* TSC_SAMPLE=N's scale */
static uint64_t seed_counter;

#define LN2_Q32 2977044472ull /* ln 2 in Q32 */
#define PERIOD_MAX (1ull << 32)

/* The cost's fit: gaps between timed ends, WINDOW of them per fit. A gap over GAP_CALLS
 * calls or GAP_TICKS clock units (the thread slept, was preempted, or the function is rare
 * enough to be timed on every call anyway) is left out, which also keeps the sums in 64
 * bits: n t < 2^46, summed 1024 times. */
#define WINDOW 1024
#define GAP_CALLS (1ull << 16)
#define GAP_TICKS (1ull << 30)
#define TIMING_MIN_DIV 8 /* counting over the budget: timing keeps 1/8 of the share */

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
	uint64_t l = tt_log2_q32[i] + (((tt_log2_q32[i + 1] - tt_log2_q32[i]) * frac) >> 32);
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

/* a / b for a 128-bit a, with 64-bit divisions only (no libgcc): both halved until a fits. */
static uint64_t div128(unsigned __int128 a, uint64_t b)
{
	while (a >> 63) {
		a >>= 1;
		b >>= 1;
	}
	return b ? (uint64_t)a / b : 0;
}

uint64_t tt_sample_fit(const struct tt_sample_fn *e)
{
	/* intercept = (st snn - sn snt) / (n snn - sn^2); the denominator is n^2 var(calls). */
	unsigned __int128 pos = (unsigned __int128)e->st * e->snn;
	unsigned __int128 neg = (unsigned __int128)e->sn * e->snt;
	uint64_t den = e->n * e->snn - e->sn * e->sn;

	if (!e->n || den < e->n * e->n || pos <= neg)
		return 0; /* the calls between hardly varied (var < 1), or at 0 calls nothing */
	return div128(pos - neg, den);
}

/* The window's slope, clock units per call in Q8: (n snt - sn st) / (n snn - sn^2). */
static uint64_t fit_slope_q8(const struct tt_sample_fn *e)
{
	unsigned __int128 pos = (unsigned __int128)e->n * e->snt;
	unsigned __int128 neg = (unsigned __int128)e->sn * e->st;
	uint64_t den = e->n * e->snn - e->sn * e->sn;

	if (!e->n || den < e->n * e->n || pos <= neg)
		return 0;
	return div128((pos - neg) << 8, den);
}

static uint64_t median3(const uint64_t *v, uint64_t n)
{
	uint64_t a = v[0], b = v[1], c = v[2];

	if (n < 3) /* one: it; two: the smaller, the budget's other figure is a lower bound */
		return n == 1 ? a : (a < b ? a : b);
	if (a > b) {
		uint64_t x = a;
		a = b;
		b = x;
	}
	return c < a ? a : c > b ? b : c;
}

uint64_t tt_sample_timed_cost(const struct tt_func_stats *s)
{
	uint64_t seen = __atomic_load_n(&s->est.cost, __ATOMIC_RELAXED);

	return seen > tt_sample_cost ? seen : tt_sample_cost;
}

/*
 * One gap since the last timed end of s: its calls and clock units, into the window. Once a
 * window has given a slope, a gap longer than twice what it predicts plus 8 timed calls is
 * left out: the thread was preempted or interrupted there, and one such gap of a
 * millisecond moves a window's intercept by thousands. s's cost is the median of the last
 * three windows' intercepts.
 */
static void fit_gap(struct tt_func_stats *s, uint64_t now)
{
	struct tt_sample_fn *e = &s->est;
	uint64_t calls = __atomic_load_n(&s->calls, __ATOMIC_RELAXED);
	uint64_t n = calls - e->last_calls, t = now - e->last_end, c, slope;
	bool ok = e->last_end && n && n < GAP_CALLS && t < GAP_TICKS;

	if (ok && e->per_call_q8)
		ok = t <= ((2 * n * e->per_call_q8) >> 8) + 8 * tt_sample_timed_cost(s);
	if (ok) {
		e->n++;
		e->sn += n;
		e->snn += n * n;
		e->st += t;
		e->snt += n * t;
		if (e->n == WINDOW) {
			c = tt_sample_fit(e);
			slope = fit_slope_q8(e);
			if (slope)
				e->per_call_q8 = slope;
			if (c) {
				e->fits[e->nfits % 3] = c;
				e->nfits++;
				__atomic_store_n(&e->cost,
						 median3(e->fits, e->nfits < 3 ? e->nfits : 3),
						 __ATOMIC_RELAXED);
			}
			e->n = e->sn = e->snn = e->st = e->snt = 0;
		}
	}
	e->last_end = now;
	e->last_calls = calls;
}

/* The call just recorded in hist, raw ticks long: into whist with weight `period`. */
static void record_weighted(struct tt_func_stats *s, uint64_t raw, uint64_t period)
{
	struct tt_hist *h = &s->whist;
	uint64_t w = period ? period : 1;

	if (!h->count)
		__atomic_store_n(&h->min, UINT64_MAX, __ATOMIC_RELAXED); /* fresh zero pages */
	tt_hist_record_weighted(h, raw, w);
	TT_OWNER_ADD(s->est.wsq, w * w);
}

/* Its self time with the same weight (a leaf call's is its total: already in whist). */
static void record_self_weighted(struct tt_func_stats *s, uint64_t raw, uint64_t child,
				 uint64_t nested, uint64_t period)
{
	uint64_t w = period ? period : 1;

	if (!nested)
		return;
	if (nested & TT_CHILD_UNKNOWN)
		tt_self_lose_weighted(&s->wself, raw, w);
	else
		tt_self_record_weighted(&s->wself, raw, child, nested,
					__atomic_load_n(&tt_self_nested_cost, __ATOMIC_RELAXED), w);
}

/* a * mul / div without overflow, for mul < 2^24 (a budget in ppm, a count cost). */
static uint64_t mul_div(uint64_t a, uint64_t mul, uint64_t div)
{
	return a < (1ull << 40) ? a * mul / div : a / div * mul;
}

/*
 * The budget's time is the thread's time on a CPU, not the clock's: the goal is CPU time
 * (what a program pays for tracing, docs/performance.md), and on a busy machine a thread that
 * waits for a CPU half the time would otherwise be given twice its share (sort under a load
 * of 15 on 2 CPUs ran 1.8 s of wall time for 0.19 s of CPU, and its budget of 2% timed 122,000
 * calls). The clock stays the unit: every RUN_CHECK clock units at most, a timed end reads
 * the thread's CPU time and the monotonic clock (two system calls: a few hundred ns every
 * couple of ms), and the clock units since the last check count in the proportion the thread
 * ran meanwhile; between checks, in the last check's proportion. Sandboxed (no system calls
 * of the shim's any more) the proportion stays as it was.
 */
#define RUN_CHECK (1ull << 22)

static uint64_t clock_ns(long id)
{
	struct timespec ts;

	if (tt_syscall6(SYS_clock_gettime, id, (long)&ts, 0, 0, 0, 0) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The clock units thread st has run up to now (the clock). */
static uint64_t thread_ran(struct tt_sample_thread *st, uint64_t now)
{
	uint64_t cpu, wall, q16 = st->ran_q16, since;

	if (!st->check_clock) { /* the first: full speed until the first check says */
		st->check_clock = now;
		st->ran_q16 = 1u << 16;
		if (!__atomic_load_n(&tt_sandboxed, __ATOMIC_ACQUIRE)) {
			st->check_cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
			st->check_wall = clock_ns(CLOCK_MONOTONIC);
		}
		return st->ran_base;
	}
	since = now > st->check_clock ? now - st->check_clock : 0;
	if (since >= RUN_CHECK && !__atomic_load_n(&tt_sandboxed, __ATOMIC_ACQUIRE)) {
		cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
		wall = clock_ns(CLOCK_MONOTONIC);
		if (st->check_wall && cpu && wall > st->check_wall && cpu >= st->check_cpu) {
			q16 = mul_div(cpu - st->check_cpu, 1u << 16, wall - st->check_wall);
			q16 = q16 < 1u << 16 ? q16 : 1u << 16;
		}
		st->ran_base += (since >> 16) * q16 + (((since & 0xffff) * q16) >> 16);
		st->check_clock = now;
		st->check_cpu = cpu;
		st->check_wall = wall;
		st->ran_q16 = q16;
		return st->ran_base;
	}
	return st->ran_base + (since >> 16) * q16 + (((since & 0xffff) * q16) >> 16);
}

/*
 * TSC_BUDGET: the period of function s in thread st. Each function past its floor has an equal
 * share of the budget's time since its own first call in the thread; counting all of its calls
 * is paid from it first, and what is left, over the cost of a timed call, is how many timed
 * calls it affords (its allowance), against the calls it made meanwhile. A function called
 * less than its allowance is timed on every call; the others in proportion. Cumulative
 * quantities: a period too small earlier is made up for by a larger one now.
 */
static uint64_t budget_period(struct tt_sample_thread *st, struct tt_func_stats *s, uint64_t ran)
{
	uint64_t share, counting, timing, allow, n, calls = s->calls;

	if (calls - s->passed <= tt_sample_floor)
		return 1; /* the floor is granted on top of the budget */
	if (!s->budgeted) {
		s->budgeted = 1;
		st->hot++;
	}
	/* Since the function's own first call here: a budget accrued before it was called
	 * would be spent at once when it starts, and its first calls timed far too often. */
	share = mul_div((ran - s->est.ran_start) / st->hot, tt_sample_budget_ppm, 1000000);
	counting = mul_div(calls, tt_sample_count_cost, TT_COUNT_COST_SCALE);
	timing = share > counting ? share - counting : 0;
	if (timing < share / TIMING_MIN_DIV)
		timing = share / TIMING_MIN_DIV; /* the report says the budget is exceeded */
	allow = timing / tt_sample_timed_cost(s);
	n = calls / (allow ? allow : 1);
	if (n < 1)
		n = 1;
	if (s->period && n > 4 * s->period)
		n = 4 * s->period; /* grow gradually: the rate seen so far is still settling */
	return n < PERIOD_MAX ? n : PERIOD_MAX;
}

void tt_sample_after(struct tt_thread *t, struct tt_func_stats *s, struct tt_func_stats *site,
		     uint64_t now, bool recorded, uint64_t raw, uint64_t child, uint64_t nested)
{
	struct tt_sample_thread *st = &t->sample;
	uint64_t period, scale;

	if (s->func == 0 || s == &tt_thread_sink)
		return; /* the calibration function is always timed */
	if (!st->start)
		st->start = now;
	if (tt_sample_mode == TT_SAMPLE_FIXED) {
		/* Every weight is N: the report derives the weighted blocks (runtime/func_stats_merge.c). */
		period = tt_sample_period;
	} else {
		if (recorded) {
			record_weighted(s, raw, s->period);
			record_self_weighted(s, raw, child, nested, s->period);
			if (site) { /* its site's weighted alike (callers_report.c) */
				record_weighted(site, raw, s->period);
				record_self_weighted(site, raw, child, nested, s->period);
			}
		}
		uint64_t ran = thread_ran(st, now);

		if (!s->est.start) {
			s->est.start = now;
			s->est.ran_start = ran;
		}
		fit_gap(s, now);
		period = budget_period(st, s, ran);
	}
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
