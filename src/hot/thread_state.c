/*
 * thread_state.c - what every thread's traced calls share: the initial-exec TLS block the
 * trampolines read, the list of traced threads and its lock, and the counters' memory.
 *
 * Hot path (built with -mgeneral-regs-only, no libc but what `make check` allows): the
 * first traced call of a thread registers it from tt_call_first, under the trampoline's
 * register contract. The exit merge, fork and report work on these lists is in threads.c.
 */
#include <pthread.h>
#include <sys/mman.h>

#include "base/sys.h"
#include "hot/by_arg.h"
#include "hot/func_table.h"
#include "hot/offcpu.h"
#include "hot/slow_calls.h"
#include "hot/thread.h"

const uint32_t tt_cpu_unknown = UINT32_MAX;

__thread struct tt_tls tt_tls __attribute__((tls_model("initial-exec"))) = {
	.cpu_aux = UINT32_MAX,
	.cpu_now = &tt_cpu_unknown,
};

struct tt_thread *tt_thread_list;
struct tt_func_stats tt_thread_sink;
int tt_thread_key = -1;
bool tt_clock_forbidden_seen;
bool tt_sandboxed;
uint64_t tt_shared_tls_calls;
uint64_t tt_self_nested_cost;

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

void tt_thread_lock_raw(void)
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

void tt_thread_lock_reset(void)
{
	list_lock = 0;
}

void tt_thread_unlock_raw(void)
{
	if (__atomic_exchange_n(&list_lock, 0, __ATOMIC_RELEASE) == 2)
		futex(&list_lock, 1 /* FUTEX_WAKE */, 1);
}

static size_t pages(uint64_t bytes)
{
	return (size_t)((bytes + 4095) & ~(uint64_t)4095);
}

/* Called from tt_call_first: raw mmap, general registers only (this file builds that way). */
struct tt_func_stats *tt_func_stats_new(uint32_t func)
{
	/* The list of slowest calls after the counters, then TSC_ARGS's table: pages touched
	 * only as they fill. */
	const struct tt_arg_watch *w = func ? tt_arg_watch_of(func) : NULL;
	size_t slow_at = TT_FUNC_STATS_BYTES, arg_at = slow_at + pages(tt_slow_list_bytes());
	size_t bytes = arg_at + (w ? pages(sizeof(struct tt_by_arg)) : 0);
	struct tt_func_stats *s = tt_sys_mmap(NULL, bytes, PROT_READ | PROT_WRITE,
					      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (!s)
		return NULL;
	s->map_bytes = bytes;
	s->func = func;
	s->words = tt_func_words(func);
	if (tt_slow_capacity)
		s->slow = (struct tt_slow_list *)((char *)s + slow_at);
	if (w) {
		s->watch = w;
		s->by_arg = (struct tt_by_arg *)((char *)s + arg_at);
	}
	s->slow_floor = w ? 0 : tt_slow_initial_floor(s); /* TSC_ARGS: every call to C */
	s->hist.min = UINT64_MAX; /* the self histogram's stays untouched (self_hist.h) */
	if (s->words && s->words->count_only) /* before any call can see it */
		s->skip = s->next_skip = TT_COUNT_ONLY_SKIP;
	return s;
}

void tt_func_stats_free(struct tt_func_stats *s)
{
	tt_sys_munmap(s, s->map_bytes);
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

/* Bytes of the mapping of both tables for cap indices: stats, then sites. */
static size_t table_bytes(uint32_t cap)
{
	return ((size_t)cap * 2 * sizeof(void *) + 4095) & ~(size_t)4095;
}

int tt_thread_grow(struct tt_thread *t, uint32_t func)
{
	uint64_t want = (uint64_t)func + 1, cap;
	uint32_t used = __atomic_load_n(&tt_func_words_used, __ATOMIC_ACQUIRE), i;
	struct tt_func_stats **stats;
	struct tt_site_table **sites;

	if (func < t->nstats)
		return 0;
	if (t->nretired == TT_RETIRED)
		return -1;
	/* Every function there is now, and at least twice the old table: a few growths at
	 * most, each leaving the old table mapped (see struct tt_retired). */
	if (want < used)
		want = used;
	if (want < 2 * (uint64_t)t->nstats)
		want = 2 * (uint64_t)t->nstats;
	cap = (want + 511) & ~(uint64_t)511; /* a page of stats pointers */
	if (cap > UINT32_MAX)
		cap = UINT32_MAX;
	stats = tt_sys_mmap(NULL, table_bytes((uint32_t)cap), PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (!stats)
		return -1;
	sites = (struct tt_site_table **)(stats + cap);
	/* Only the entries set: the old table's untouched pages read as zeros and stay
	 * unbacked, and so do the new table's that receive nothing. */
	for (i = 0; i < t->nstats; i++) {
		if (t->stats[i])
			stats[i] = t->stats[i];
		if (t->sites[i])
			sites[i] = t->sites[i];
	}
	tt_thread_lock();
	if (t->stats) {
		t->retired[t->nretired].p = t->stats;
		t->retired[t->nretired].bytes = table_bytes(t->nstats);
		t->nretired++;
	}
	t->stats = stats;
	t->sites = sites;
	__atomic_store_n(&t->nstats, (uint32_t)cap, __ATOMIC_RELEASE);
	tt_thread_unlock();
	/* The trampoline reads nstats, then stats: the table first. */
	tt_tls.stats = stats;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	tt_tls.nstats = (uint32_t)cap;
	return 0;
}

void tt_thread_free(struct tt_thread *t)
{
	uint32_t i;

	for (i = 0; i < t->nstats; i++)
		if (t->stats[i])
			tt_func_stats_free(t->stats[i]);
	if (t->stats)
		tt_sys_munmap(t->stats, table_bytes(t->nstats));
	for (i = 0; i < t->nretired; i++)
		tt_sys_munmap(t->retired[i].p, t->retired[i].bytes);
	if (t->unwind_map)
		tt_sys_munmap(t->unwind_map, TT_UNWIND_GUARD_BYTES + TT_UNWIND_STACK_BYTES);
	tt_offcpu_close(t);
	tt_sys_munmap(t, t->map_bytes);
}
