/*
 * overhead.c - overhead calibration (seeds 001 and 003: time an empty region the same way
 * and subtract it). The empty function is reached through its stub by an indirect call,
 * like a PLT call, so the readings include everything between the two TSC reads that a real
 * call has: the tail of the entry read, the restore of three registers, `call`, `ret`, and
 * the head of the exit read. Its minimum is the undisturbed cost; the run's first readings
 * (cold caches, cold predictors) are thrown away by the normal first-call rule and by a
 * warm-up round.
 */
#include <string.h>
#include <sys/mman.h>

#include "hook/funcs.h"
#include "hot/func_table.h"
#include "hot/thread.h"
#include "runtime/overhead.h"
#include "tramp/tramp.h"

tt_empty_fn tt_overhead_traced_empty(void *entry, void *target)
{
	tt_func_set_target(0, target ? target : (void *)tt_calib_empty);
	return (tt_empty_fn)(entry ? entry : tt_funcs_stub(0));
}

/*
 * What a traced call adds to its traced caller beyond its own reading: the trampoline's
 * work outside its timed interval (the prologue, the frame, the exit's C, the return). The
 * empty function's parent calls it NESTED times through the same entry; the parent's self
 * time (its ticks less the children's) is then its own reading's overhead plus NESTED of
 * these. Removed from self time per traced call made, at report time.
 */
#define NESTED 4

static void (*volatile nest_entry)(void);
static volatile int nest_depth;

static void nest_parent(void)
{
	int i;

	if (nest_depth)
		return; /* the children: empty */
	nest_depth = 1;
	for (i = 0; i < NESTED; i++)
		nest_entry();
	nest_depth = 0;
}

static uint64_t measure_nested(void (*entry)(void), unsigned int parents, struct tt_func_stats *s,
			       uint64_t own)
{
	unsigned int i;

	nest_entry = entry;
	memset(&s->self, 0, sizeof(s->self));
	s->self.min = UINT64_MAX;
	for (i = 0; i < parents; i++)
		entry();
	if (!s->self.count)
		return 0;
	return s->self.min > own ? (s->self.min - own + NESTED / 2) / NESTED : 0;
}

/* Warm up, then `calls` traced calls of the empty function from zeroed counters: the
 * thread's counters of index 0, or NULL when none were taken. */
static struct tt_func_stats *burst(unsigned int calls, void (*traced)(void))
{
	struct tt_func_stats *s;
	unsigned int i;
	size_t bytes;

	for (i = 0; i < calls / 4 + 1; i++) /* warm-up, then start from zero */
		traced();
	s = tt_tls.thread ? tt_thread_stat(tt_tls.thread, 0) : NULL;
	if (!s)
		return NULL;
	/* Start from zero: the function's stats are their own page-aligned mapping, zero pages
	 * again after this (tt_hist_init would fault every page of them in to read it). */
	bytes = s->map_bytes;
	madvise(s, (sizeof(*s) + 4095) & ~(size_t)4095, MADV_DONTNEED);
	s->map_bytes = bytes;	    /* what unmaps it */
	s->slow_floor = UINT64_MAX; /* no call of it kept: every exit in the body, as measured */
	s->func = 0;
	s->words = tt_func_words(0); /* the trampoline's way to the target */
	s->self.min = UINT64_MAX;
	s->warm = 1;
	s->hist.min = UINT64_MAX;
	for (i = 0; i < calls; i++)
		traced();
	return s->hist.count ? s : NULL;
}

int tt_overhead_check(unsigned int calls, void *entry, void *target, uint64_t *min,
		      uint64_t *median, uint64_t *gcd)
{
	struct tt_func_stats *s = burst(calls, tt_overhead_traced_empty(entry, target));

	if (!s)
		return -1;
	*min = s->hist.min;
	*median = tt_hist_percentile(&s->hist, 50.0);
	*gcd = tt_hist_gcd_exact(&s->hist);
	if (!*gcd)
		*gcd = 1;
	return 0;
}

int tt_overhead_calibrate(unsigned int calls, void *entry, void *target, struct tt_overhead *out)
{
	void (*volatile traced)(void);
	struct tt_func_stats *s;

	memset(out, 0, sizeof(*out));
	traced = tt_overhead_traced_empty(entry, target);
	s = burst(calls, traced);
	if (!s)
		return -1;
	out->min = s->hist.min;
	out->median = tt_hist_percentile(&s->hist, 50.0);
	out->granularity = tt_hist_gcd_exact(&s->hist);
	if (!out->granularity)
		out->granularity = 1;
	out->subtracted = out->min;
	out->source = "calibrated";
	tt_func_set_target(0, (void *)nest_parent);
	out->nested = measure_nested(traced, calls / 8 + 1, s, out->min);
	tt_func_set_target(0, target ? target : (void *)tt_calib_empty);
	return 0;
}
