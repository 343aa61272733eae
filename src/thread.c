/*
 * thread.c - the list of traced threads, their exit merge, and per-function totals.
 *
 * A thread's counters are written only by that thread (no atomics with lock prefix, no shared
 * cache line on the hot path). They reach the per-function totals when the thread exits,
 * through a pthread key destructor, and the report reads live threads in place. The list and
 * the totals are guarded by one futex lock: tt_hook_slow registers threads with it and may not
 * call into libc's mutexes (they may be traced, and it runs under the trampoline's register
 * contract). Everything here runs with in_shim set.
 */
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>

#include "callers_report.h"
#include "funcs.h"
#include "sys.h"
#include "thread.h"

struct tt_thread *tt_thread_list;
static uint64_t exited_traced;	/* merged threads that traced a user function */
struct tt_fstat *tt_thread_totals[TT_MAX_FUNCS];
struct tt_fstat tt_thread_sink;
int tt_thread_key = -1;

static void no_deferred_fatal(void)
{
}

void (*tt_shim_deferred_fatal)(void) = no_deferred_fatal;

/*
 * The list lock: 0 free, 1 held, 2 held with sleepers (Drepper, "Futexes Are Tricky", mutex
 * 3). A spinning lock starved the holder under CPU contention: 1,250 short threads took 3-44 s
 * instead of 0.05 s, since a preempted holder cannot release while the others spin. Waiters
 * sleep in the kernel instead; a raw futex, because libc's mutexes may be traced.
 */
static int list_lock;

static void futex(int *word, int op, int val)
{
	tt_syscall6(SYS_futex, (long)word, op | 128 /* FUTEX_PRIVATE_FLAG */, val, 0, 0, 0);
}

void tt_thread_lock(void)
{
	int c = 0;

	if (__atomic_compare_exchange_n(&list_lock, &c, 1, false, __ATOMIC_ACQUIRE,
					__ATOMIC_RELAXED))
		return;
	if (c != 2)
		c = __atomic_exchange_n(&list_lock, 2, __ATOMIC_ACQUIRE);
	while (c != 0) {
		futex(&list_lock, 0 /* FUTEX_WAIT */, 2);
		c = __atomic_exchange_n(&list_lock, 2, __ATOMIC_ACQUIRE);
	}
}

void tt_thread_unlock(void)
{
	if (__atomic_exchange_n(&list_lock, 0, __ATOMIC_RELEASE) == 2)
		futex(&list_lock, 1 /* FUTEX_WAKE */, 1);
}

/* Called from tt_hook_slow: raw mmap, general registers only (this file builds that way). */
struct tt_fstat *tt_fstat_new(uint32_t func)
{
	size_t bytes = (sizeof(struct tt_fstat) + 4095) & ~(size_t)4095;
	struct tt_fstat *s = tt_sys_mmap(NULL, bytes, PROT_READ | PROT_WRITE,
					 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (!s)
		return NULL;
	s->func = func;
	s->hist.min = UINT64_MAX;
	return s;
}

static void fstat_free(struct tt_fstat *s)
{
	tt_sys_munmap(s, (sizeof(struct tt_fstat) + 4095) & ~(size_t)4095);
}

void tt_fstat_merge(struct tt_fstat *dst, const struct tt_fstat *src)
{
	dst->calls += __atomic_load_n(&src->calls, __ATOMIC_RELAXED);
	dst->unwound += __atomic_load_n(&src->unwound, __ATOMIC_RELAXED);
	dst->migrated += __atomic_load_n(&src->migrated, __ATOMIC_RELAXED);
	dst->dropped += __atomic_load_n(&src->dropped, __ATOMIC_RELAXED);
	tt_hist_merge(&dst->hist, &src->hist);
}

/* Called with the lock held. */
static void merge_and_unlink(struct tt_thread *t)
{
	uint32_t i, n = tt_funcs_count();
	bool traced = false;

	for (i = 0; i < n && i < TT_MAX_FUNCS; i++) {
		struct tt_fstat *s = t->stats[i];

		if (!s)
			continue;
		traced |= i > 0;
		if (!tt_thread_totals[i])
			tt_thread_totals[i] = tt_fstat_new(i);
		if (tt_thread_totals[i])
			tt_fstat_merge(tt_thread_totals[i], s);
	}
	exited_traced += traced;
	tt_callers_merge_thread(t);
	if (t->prev)
		t->prev->next = t->next;
	else
		tt_thread_list = t->next;
	if (t->next)
		t->next->prev = t->prev;
	t->next = t->prev = NULL;
}

/* pthread key destructor: the thread is exiting. Merge its counters, free its memory. */
static void thread_exit(void *arg)
{
	struct tt_thread *t = arg;
	uint8_t was = tt_shim_enter();
	uint32_t i;

	/* Frames still on the shadow stack (pthread_exit from inside a traced call) will never
	 * be returned through: the thread is gone once its destructors have run. */
	if (t != tt_tls.thread)
		goto out;
	tt_thread_lock();
	merge_and_unlink(t);
	tt_thread_unlock();
	/* Later traced calls in this thread (other destructors) start a new block. */
	tt_tls.limit = NULL;
	tt_tls.top = NULL;
	tt_tls.thread = NULL;
	for (i = 0; i < TT_MAX_FUNCS; i++)
		if (t->stats[i])
			fstat_free(t->stats[i]);
	tt_sys_munmap(t, t->map_bytes);
out:
	tt_shim_leave(was);
}

int tt_thread_init(void)
{
	pthread_key_t key;
	int err = pthread_key_create(&key, thread_exit);

	if (err)
		return -err;
	tt_thread_key = (int)key;
	return 0;
}

void tt_thread_register(struct tt_thread *t)
{
	tt_thread_lock();
	t->next = tt_thread_list;
	if (t->next)
		t->next->prev = t;
	tt_thread_list = t;
	tt_thread_unlock();
	/*
	 * glibc keeps the first 32 keys in the thread descriptor: setting one is two stores, no
	 * call, no vector register (checked in libc 2.36's code). A later key would calloc, so
	 * then the thread is not merged at exit and the report reads its block instead.
	 */
	if (tt_thread_key >= 0 && tt_thread_key < 32)
		pthread_setspecific((pthread_key_t)tt_thread_key, t);
}

/*
 * In the child of fork: only the forking thread exists. Its calls in flight must still
 * return through their frames, but count into a sink; every counter restarts at zero.
 */
void tt_thread_after_fork_child(void)
{
	struct tt_thread *t, *next, *self = tt_tls.thread;
	struct tt_frame *f;
	uint32_t i;

	list_lock = 0;
	for (t = tt_thread_list; t; t = next) {
		next = t->next;
		if (t == self)
			continue;
		for (i = 0; i < TT_MAX_FUNCS; i++)
			if (t->stats[i])
				fstat_free(t->stats[i]);
		tt_sys_munmap(t, t->map_bytes);
	}
	tt_thread_list = NULL;
	exited_traced = 0;
	for (i = 0; i < TT_MAX_FUNCS; i++) {
		if (tt_thread_totals[i])
			fstat_free(tt_thread_totals[i]);
		tt_thread_totals[i] = NULL;
		tt_func_first[i] = UINT64_MAX;
		tt_func_handler_calls[i] = 0;
	}
	tt_callers_after_fork_child(self);
	if (!self)
		return;
	for (f = self->frames; f < tt_tls.top; f++)
		f->stat = &tt_thread_sink;
	for (i = 0; i < TT_MAX_FUNCS; i++) {
		if (self->stats[i])
			fstat_free(self->stats[i]);
		self->stats[i] = NULL;
	}
	self->next = self->prev = NULL;
	self->tid = tt_sys_gettid();
	tt_thread_list = self;
	tt_tls.cpu_aux = UINT32_MAX;
}

void tt_thread_collect(uint32_t func, struct tt_fstat *out)
{
	struct tt_thread *t;
	uint64_t in_handlers;

	memset(out, 0, sizeof(*out));
	out->func = func;
	tt_hist_init(&out->hist);
	tt_thread_lock();
	if (tt_thread_totals[func])
		tt_fstat_merge(out, tt_thread_totals[func]);
	for (t = tt_thread_list; t; t = t->next) {
		struct tt_fstat *s = __atomic_load_n(&t->stats[func], __ATOMIC_ACQUIRE);

		if (s)
			tt_fstat_merge(out, s);
	}
	tt_thread_unlock();
	/* Calls made by handlers that interrupted the shim: in no thread's counters. */
	in_handlers = __atomic_load_n(&tt_func_handler_calls[func], __ATOMIC_RELAXED);
	out->calls += in_handlers;
	out->dropped += in_handlers;
}

uint64_t tt_thread_traced(void)
{
	uint64_t n;
	struct tt_thread *t;
	uint32_t i;

	tt_thread_lock();
	n = exited_traced;
	for (t = tt_thread_list; t; t = t->next) {
		for (i = 1; i < TT_MAX_FUNCS; i++)
			if (__atomic_load_n(&t->stats[i], __ATOMIC_RELAXED))
				break;
		n += i < TT_MAX_FUNCS;
	}
	tt_thread_unlock();
	return n;
}
