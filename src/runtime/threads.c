/*
 * threads.c - the traced threads' exit merge, their state after fork, and per-function
 * totals for the report.
 *
 * A thread's counters are written only by that thread (no atomics with lock prefix, no shared
 * cache line on the hot path). They reach the per-function totals when the thread exits,
 * through a pthread key destructor, and the report reads live threads in place. The list and
 * the totals are guarded by the thread lock (thread_state.c). Everything here runs with
 * in_shim set.
 */
#include <pthread.h>
#include <stddef.h>
#include <string.h>
#include <time.h>

#include "base/sys.h"
#include "hook/funcs.h"
#include "hot/by_arg.h"
#include "hot/func_table.h"
#include "hot/offcpu.h"
#include "hot/pin.h"
#include "hot/sample.h"
#include "hot/slow_calls.h"
#include "hot/thread.h"
#include "runtime/callers_merge.h"
#include "runtime/clock.h"
#include "runtime/func_stats_merge.h"
#include "runtime/thread_rows.h"
#include "runtime/threads.h"

static uint64_t exited_traced; /* merged threads that traced a user function */
static struct tt_chunked
	totals; /* struct tt_func_stats * by function; NULL until a thread merged */
/* Whether a thread merged: until then the report does not read the directory (a page of
 * zeros mapped at exit, in a process whose only thread is still running). */
static bool totals_made;
static uint64_t (*rows_floor)(void); /* tt_thread_init's: the overhead rows are floored at */

/* Where function i's totals are kept; NULL out of memory. Under the lock. */
static struct tt_func_stats **total_at(uint32_t i)
{
	if (tt_chunked_reserve(&totals, (uint64_t)i + 1, sizeof(struct tt_func_stats *)) < 0)
		return NULL;
	totals_made = true;
	return tt_chunked_at(&totals, i, sizeof(struct tt_func_stats *));
}

/* Function i's totals, or NULL (none merged yet). Under the lock. */
static struct tt_func_stats *total_of(uint32_t i)
{
	struct tt_func_stats **p = totals_made ? tt_chunked_at(&totals, i,
							       sizeof(struct tt_func_stats *))
					       : NULL;

	return p ? *p : NULL;
}

/*
 * How densely a thread's calls of a function (counters s) were timed: timed calls per 2^20 ns
 * of the thread's CPU time (cpu_ns), 0 when unknown. CPU time, not wall time: on a shared
 * machine a thread waits for a CPU too, and the brackets perturb only the time it runs. The
 * report weighs it with the brackets' cost (report/observer.h).
 */
static uint64_t timed_density(const struct tt_func_stats *s, uint64_t cpu_ns)
{
	uint64_t timed = __atomic_load_n(&s->hist.count, __ATOMIC_RELAXED);

	if (!cpu_ns || !timed)
		return 0;
	if (timed < (1ull << 43))
		return (timed << 20) / cpu_ns;
	return cpu_ns >> 20 ? timed / (cpu_ns >> 20) : UINT64_MAX;
}

/* Thread tid's CPU time in ns (the kernel's per-thread clock id: ~tid << 3 | 6, as
 * pthread_getcpuclockid makes it); 0 when unknown. */
static uint64_t thread_cpu_ns(int64_t tid)
{
	return tid > 0 ? tt_clock_ns((int)(~(uint32_t)tid << 3 | 6)) : 0;
}

/* Called with the lock held; sub: the overhead the thread's rows are floored at. */
static void merge_and_unlink(struct tt_thread *t, uint64_t sub)
{
	uint32_t i;
	bool traced = false;
	uint64_t cpu_ns = tt_clock_ns(CLOCK_THREAD_CPUTIME_ID); /* t is this thread */

	for (i = 0; i < t->nstats; i++) {
		struct tt_func_stats *s = t->stats[i], **total;

		if (!s)
			continue;
		traced |= i > 0;
		total = total_at(i);
		if (total && !*total)
			*total = tt_func_stats_new(i);
		s->dense_q20 = timed_density(s, cpu_ns); /* its life ends here */
		if (total && *total)
			tt_func_stats_merge(*total, s);
	}
	exited_traced += traced;
	tt_thread_rows_keep(t, sub);
	tt_callers_merge_thread(t);
	if (t->prev)
		t->prev->next = t->next;
	else
		tt_thread_list = t->next;
	if (t->next)
		t->next->prev = t->prev;
	t->next = t->prev = NULL;
}

/* A thread's memory back to the kernel. tt_thread_free (hot/) is built without sanitizers,
 * so the release ThreadSanitizer orders unmaps by (base/sys.h) is said here, for every caller. */
static void thread_free(struct tt_thread *t)
{
	TT_SYS_UNMAP_RELEASE();
	tt_thread_free(t);
}

/* Whether t timed a call of a user function (a reading its rows would floor). */
static bool timed_any(const struct tt_thread *t)
{
	uint32_t i;

	for (i = 1; i < t->nstats; i++)
		if (t->stats[i] && (__atomic_load_n(&t->stats[i]->hist.count, __ATOMIC_RELAXED) ||
				    __atomic_load_n(&t->stats[i]->whist.count, __ATOMIC_RELAXED)))
			return true;
	return false;
}

/* pthread key destructor: the thread is exiting. Merge its counters, free its memory. */
static void thread_exit(void *arg)
{
	struct tt_thread *t = arg;
	uint64_t sub = 0;
	uint8_t was;

	/* Under seccomp the merge's mmap and the block's munmap may be what kills the program;
	 * the report was written before the sandbox (lifecycle.h): leave the block mapped. */
	if (__atomic_load_n(&tt_sandboxed, __ATOMIC_ACQUIRE))
		return;
	/* Before the guard and the lock: the overhead may be measured now, by calls through the
	 * trampoline on this thread, as the report would have measured it later. */
	if (t == tt_tls.thread && rows_floor && timed_any(t))
		sub = rows_floor();
	was = tt_shim_enter();
	/* Frames still on the shadow stack (pthread_exit from inside a traced call) will never
	 * be returned through: the thread is gone once its destructors have run. */
	if (t != tt_tls.thread)
		goto out;
	tt_thread_lock();
	merge_and_unlink(t, sub);
	tt_thread_unlock();
	tt_pin_thread_exit(t);
	/* Later traced calls in this thread (other destructors) start a new block. */
	tt_tls.nstats = 0; /* first: the trampoline reads it before the table */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	tt_tls.stats = NULL;
	tt_tls.limit = NULL;
	tt_tls.top = NULL;
	tt_tls.thread = NULL;
	tt_tls.unwind_top = 0; /* unmapped with the block */
	thread_free(t);
out:
	tt_shim_leave(was);
}

int tt_thread_init(uint64_t (*floor)(void))
{
	rows_floor = floor;
	pthread_key_t key;
	int err = pthread_key_create(&key, thread_exit);

	if (err)
		return -err;
	tt_thread_key = (int)key;
	return 0;
}

/*
 * In the child of fork: only the forking thread exists. Its calls in flight must still
 * return through their frames, but count into a sink; every counter restarts at zero.
 */
void tt_thread_after_fork_child(void)
{
	struct tt_thread *t, *next, *self = tt_tls.thread;
	struct tt_frame *f;
	uint32_t i, n = tt_funcs_count();

	/* Only the indexes in use: the tables are mapped lazily, and reading the rest would map
	 * pages of zeros. */
	tt_thread_lock_reset();
	for (t = tt_thread_list; t; t = next) {
		next = t->next;
		if (t == self)
			continue;
		thread_free(t);
	}
	tt_thread_list = NULL;
	exited_traced = 0;
	tt_thread_rows_reset();
	for (i = 0; i < n; i++) {
		struct tt_func_stats **total = (struct tt_func_stats **)
			tt_chunked_at(&totals, i, sizeof(*total));
		struct tt_func_words *w = tt_func_words(i);

		if (total && *total) {
			tt_func_stats_free(*total);
			*total = NULL;
		}
		if (w) {
			w->first = 0;
			w->handler_calls = 0;
		}
	}
	tt_tableless_calls = tt_tableless_threads = 0; /* the parent's threads' */
	tt_tls.tableless = 0;
	tt_callers_after_fork_child(self);
	if (!self)
		return;
	for (f = self->frames; f < tt_tls.top; f++)
		f->stat = &tt_thread_sink;
	for (i = 0; i < self->nstats; i++) {
		if (self->stats[i])
			tt_func_stats_free(self->stats[i]);
		self->stats[i] = NULL;
	}
	self->next = self->prev = NULL;
	self->tid = tt_sys_gettid();
	/* The parent's switch records are the parent thread's: records of its own. */
	tt_offcpu_close(self);
	if (self->offcpu_tried)
		tt_offcpu_open(self);
	tt_sample_thread_init(self); /* its own draws, and no share held by a function */
	tt_thread_list = self;
	tt_tls.cpu_aux = UINT32_MAX;
}

/* One function's counters in one thread back to zero, in place: the thread may still hold
 * the table (a call in flight since the detach). Its sampling draws stay. */
static void func_stats_zero(struct tt_func_stats *s)
{
	s->calls = s->unwound = s->migrated = s->dropped = 0;
	s->passed = s->sampled = s->budgeted = 0;
	s->period_min = s->period_max = 0;
	memset(&s->est, 0, sizeof(s->est));
	/* Only what was written: a clean histogram's pages are left unmapped. */
	if (s->hist.count || s->hist.max) {
		memset(&s->hist, 0, sizeof(s->hist));
		s->hist.min = UINT64_MAX;
	}
	if (s->whist.count || s->whist.max) {
		memset(&s->whist, 0, sizeof(s->whist));
		s->whist.min = UINT64_MAX;
	}
	if (s->self.count || s->self.lost || s->self.whole_total)
		memset(&s->self, 0, sizeof(s->self));
	if (s->wself.count || s->wself.lost || s->wself.whole_total)
		memset(&s->wself, 0, sizeof(s->wself));
	/* The calls kept and the argument's table: a later attach's report is of its window
	 * alone (a call kept before would stand above its cycles.max). */
	if (s->slow) {
		s->slow->n = s->slow->min = 0;
		s->slow->not_kept = 0;
		if (s->slow_floor != UINT64_MAX) /* the calibration's stays out */
			s->slow_floor = s->watch ? 0 : tt_slow_initial_floor(s);
	}
	if (s->by_arg)
		memset(s->by_arg, 0, sizeof(*s->by_arg));
}

void tt_thread_reset_counts(void)
{
	uint32_t i, n = tt_funcs_count();
	struct tt_thread *t;

	tt_thread_lock();
	exited_traced = 0;
	tt_thread_rows_reset();
	for (i = 0; i < n; i++) {
		struct tt_func_stats *total = total_of(i);

		if (total)
			func_stats_zero(total);
	}
	for (t = tt_thread_list; t; t = t->next)
		for (i = 0; i < t->nstats; i++)
			if (t->stats[i])
				func_stats_zero(t->stats[i]);
	tt_thread_unlock();
}

/* A field of `out` read as a write: on a fresh `out` (zero pages) a plain read maps the zero
 * page that the writes below then copy, two faults where one does. */
#define WRITTEN_READ(field) __atomic_fetch_add(&(field), 0, __ATOMIC_RELAXED)

void tt_thread_collect(uint32_t func, struct tt_func_stats *out)
{
	struct tt_thread *t;
	uint64_t in_handlers, dense;

	/* Buckets are cleared only when the last function collected here had samples: a
	 * fresh `out` is zero pages, which a whole clear would fault in one by one. */
	bool dirty = WRITTEN_READ(out->hist.count) != 0;
	bool self_dirty = WRITTEN_READ(out->self.count) != 0 || out->self.lost != 0;
	bool wself_dirty = WRITTEN_READ(out->wself.count) != 0 || out->wself.lost != 0;

	memset(out, 0, offsetof(struct tt_func_stats, hist));
	out->func = func;
	if (dirty)
		tt_hist_init(&out->hist);
	out->hist.count = out->hist.max = out->hist.total = 0;
	out->hist.min = UINT64_MAX;
	/* The self buckets likewise: only the last row's, when it recorded any. */
	if (self_dirty)
		memset(&out->self, 0, sizeof(out->self));
	else
		memset(&out->self, 0, offsetof(struct tt_self_hist, b));
	out->self.min = UINT64_MAX;
	/* TSC_BUDGET's weighted histogram likewise (hot/sample.h). */
	if (WRITTEN_READ(out->whist.count))
		tt_hist_init(&out->whist);
	memset(&out->est, 0, sizeof(out->est));
	out->whist.count = out->whist.max = out->whist.total = 0;
	out->whist.min = UINT64_MAX;
	if (wself_dirty)
		memset(&out->wself, 0, sizeof(out->wself));
	else
		memset(&out->wself, 0, offsetof(struct tt_self_hist, b));
	out->wself.min = UINT64_MAX;
	out->dense_q20 = 0;
	tt_thread_lock();
	if (total_of(func))
		tt_func_stats_merge(out, total_of(func));
	for (t = tt_thread_list; t; t = t->next) {
		struct tt_func_stats *s = tt_thread_stat(t, func);

		if (!s)
			continue;
		tt_func_stats_merge(out, s);
		dense = timed_density(s, s->hist.count ? thread_cpu_ns(t->tid) : 0);
		if (dense > out->dense_q20)
			out->dense_q20 = dense;
	}
	tt_thread_unlock();
	/* Calls made by handlers that interrupted the shim: in no thread's counters. */
	in_handlers = tt_func_words(func) ? __atomic_load_n(&tt_func_words(func)->handler_calls,
							    __ATOMIC_RELAXED)
					  : 0;
	out->calls += in_handlers;
	out->dropped += in_handlers;
}

void tt_thread_collect_slow(uint32_t func, struct tt_slow_list *out)
{
	struct tt_thread *t;

	tt_thread_lock();
	if (total_of(func))
		tt_slow_merge(out, total_of(func)->slow);
	for (t = tt_thread_list; t; t = t->next) {
		struct tt_func_stats *s = tt_thread_stat(t, func);

		if (s)
			tt_slow_merge(out, s->slow);
	}
	tt_thread_unlock();
}

void tt_thread_collect_args(uint32_t func, struct tt_by_arg *out)
{
	struct tt_thread *t;

	tt_thread_lock();
	if (total_of(func))
		tt_arg_merge(out, total_of(func)->by_arg);
	for (t = tt_thread_list; t; t = t->next) {
		struct tt_func_stats *s = tt_thread_stat(t, func);

		if (s)
			tt_arg_merge(out, s->by_arg);
	}
	tt_thread_unlock();
}

uint64_t tt_thread_traced(void)
{
	uint64_t n;
	struct tt_thread *t;
	uint32_t i, count = tt_funcs_count();

	tt_thread_lock();
	n = exited_traced;
	for (t = tt_thread_list; t; t = t->next) {
		for (i = 1; i < count; i++)
			if (tt_thread_stat(t, i))
				break;
		n += i < count;
	}
	tt_thread_unlock();
	return n;
}
