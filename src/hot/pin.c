/*
 * pin.c - see pin.h.
 *
 * Runs on the first-call path (tt_call_first): built like traced_call.c, general registers only,
 * no libc: affinity is read and set with raw syscalls. The shared writes are the spread counter
 * and, under exclusive, one compare-and-swap per CPU claimed or released (no lock: the first
 * call may come from a signal handler, or while the program holds any lock).
 *
 * Why exclusive is the default: threads start on their creator's CPU, so pinning each to the
 * CPU it first ran on put a parallel program's workers on one CPU (sort, 2 threads: 1.55x the
 * untraced wall time). Giving each thread a CPU that no live traced thread holds keeps the
 * program's parallelism; threads beyond the CPUs stay unpinned, and their calls that move are
 * counted as migrated, not timed (traced_call.c), as every thread's are.
 *
 * Children: a pinned thread's mask would be inherited by everything it starts. fork's child
 * gets the original back in our atfork handler; exec*, posix_spawn*, system, popen and
 * pthread_create are wrapped (process.c) to run with the original mask and pin again after.
 */
#include <errno.h>

#include "base/sys.h"
#include "hot/pin.h"
#include "hot/thread.h"

static enum tt_pin_mode mode = TT_PIN_NONE;
static uint64_t list[TT_CPU_WORDS]; /* TSC_PIN CPU list */
static uint32_t spread_next;	    /* round-robin position for spread and lists */
static uint64_t pinned_threads;
/* TSC_PIN=exclusive: the tid of the live thread holding each CPU, 0 when none does. */
static int32_t holder[TT_CPU_WORDS * 64];

static long get_mask(uint64_t *mask)
{
	return tt_syscall3(SYS_sched_getaffinity, 0, TT_CPU_WORDS * 8, mask);
}

static long set_mask(const uint64_t *mask, uint32_t bytes)
{
	return tt_syscall3(SYS_sched_setaffinity, 0, bytes, mask);
}

static bool has(const uint64_t *m, unsigned int cpu)
{
	return cpu < TT_CPU_WORDS * 64 && (m[cpu / 64] >> (cpu % 64)) & 1;
}

/* The k-th (mod count) CPU set in both a and b; -1 when none is. */
static int nth_common(const uint64_t *a, const uint64_t *b, uint32_t k)
{
	unsigned int cpu, count = 0;

	for (cpu = 0; cpu < TT_CPU_WORDS * 64; cpu++)
		count += has(a, cpu) && has(b, cpu);
	if (!count)
		return -1;
	k %= count;
	for (cpu = 0; cpu < TT_CPU_WORDS * 64; cpu++)
		if (has(a, cpu) && has(b, cpu) && k-- == 0)
			return (int)cpu;
	return -1;
}

/* Make tid the holder of cpu if it had none (or, steal, a thread that no longer exists). */
static bool claim(unsigned int cpu, int32_t tid, bool steal)
{
	int32_t was = __atomic_load_n(&holder[cpu], __ATOMIC_RELAXED);

	if (was != 0) {
		/* A holder that exited without its release (a destructor run out of turns). */
		if (!steal || tt_syscall3(SYS_tgkill, tt_sys_getpid(), was, 0) != -ESRCH)
			return false;
	}
	return __atomic_compare_exchange_n(&holder[cpu], &was, tid, false, __ATOMIC_ACQ_REL,
					   __ATOMIC_RELAXED);
}

/*
 * A CPU of own that no live traced thread holds, now held by tid: the one it runs on if free
 * (what first would take), else the next free one after it. -1 when every one is held.
 */
static int claim_free(const uint64_t *own, unsigned int now, int32_t tid)
{
	unsigned int k, cpu, steal;

	for (steal = 0; steal < 2; steal++)
		for (k = 0; k < TT_CPU_WORDS * 64; k++) {
			cpu = (now + k) % (TT_CPU_WORDS * 64);
			if (has(own, cpu) && claim(cpu, tid, steal))
				return (int)cpu;
		}
	return -1;
}

/* Give back the CPU t holds under exclusive, if it holds one. */
static void unclaim(struct tt_thread *t)
{
	int32_t tid = (int32_t)t->tid;

	if (!t->claimed)
		return;
	t->claimed = 0;
	__atomic_compare_exchange_n(&holder[t->claimed_cpu], &tid, 0, false, __ATOMIC_RELEASE,
				    __ATOMIC_RELAXED);
}

bool tt_pin_configure(const struct tt_config *cfg)
{
	uint64_t own[TT_CPU_WORDS] = { 0 };
	unsigned int i;

	mode = cfg->pin;
	if (mode != TT_PIN_LIST)
		return true;
	for (i = 0; i < TT_CPU_WORDS; i++)
		list[i] = cfg->pin_cpus[i];
	if (get_mask(own) > 0 && nth_common(own, list, 0) < 0) {
		mode = TT_PIN_NONE;
		return false;
	}
	return true;
}

void tt_pin_thread(struct tt_thread *t)
{
	uint64_t all[TT_CPU_WORDS];
	unsigned int cpu = 0, i;
	long bytes;
	int target;

	if (t->pin_tried)
		return;
	t->pin_tried = 1;
	if (mode == TT_PIN_NONE)
		return;
	bytes = get_mask(t->own_mask);
	if (bytes <= 0)
		return;
	t->mask_bytes = (uint32_t)bytes;
	if (mode == TT_PIN_FIRST) {
		if (tt_syscall3(SYS_getcpu, &cpu, 0, 0) < 0 || !has(t->own_mask, cpu))
			return;
		target = (int)cpu;
	} else if (mode == TT_PIN_EXCLUSIVE) {
		if (tt_syscall3(SYS_getcpu, &cpu, 0, 0) < 0)
			cpu = 0;
		target = claim_free(t->own_mask, cpu, (int32_t)t->tid);
		if (target < 0)
			return; /* every CPU it may use is held: unpinned */
		t->claimed = 1;
		t->claimed_cpu = (uint16_t)target;
	} else {
		for (i = 0; i < TT_CPU_WORDS; i++)
			all[i] = mode == TT_PIN_LIST ? list[i] : ~(uint64_t)0;
		target = nth_common(t->own_mask, all,
				    __atomic_fetch_add(&spread_next, 1, __ATOMIC_RELAXED));
		if (target < 0)
			return;
	}
	for (i = 0; i < TT_CPU_WORDS; i++)
		t->pin_mask[i] = 0;
	t->pin_mask[target / 64] = (uint64_t)1 << (target % 64);
	if (set_mask(t->pin_mask, t->mask_bytes) < 0) {
		unclaim(t);
		return;
	}
	t->pinned = 1;
	__atomic_fetch_add(&pinned_threads, 1, __ATOMIC_RELAXED);
}

bool tt_pin_release(void)
{
	struct tt_thread *t = tt_tls.thread;

	if (!t || !t->pinned)
		return false;
	set_mask(t->own_mask, t->mask_bytes);
	return true;
}

void tt_pin_reapply(bool released)
{
	struct tt_thread *t = tt_tls.thread;

	if (released && t && t->pinned)
		set_mask(t->pin_mask, t->mask_bytes);
}

void tt_pin_thread_exit(struct tt_thread *t)
{
	/* Its own mask back first: what a later destructor starts must not inherit the pin. */
	if (t->pinned)
		set_mask(t->own_mask, t->mask_bytes);
	t->pinned = 0;
	unclaim(t);
}

void tt_pin_after_fork_child(void)
{
	struct tt_thread *t = tt_tls.thread;
	unsigned int cpu;

	pinned_threads = 0;
	/* The holders were the parent's threads; the forking one pins again in the child. */
	for (cpu = 0; cpu < TT_CPU_WORDS * 64; cpu++)
		holder[cpu] = 0;
	if (!t)
		return;
	t->claimed = 0;
	if (t->pinned)
		set_mask(t->own_mask, t->mask_bytes);
	t->pinned = 0;
	t->pin_tried = 0;
}

uint64_t tt_pin_count(void)
{
	return __atomic_load_n(&pinned_threads, __ATOMIC_RELAXED);
}

bool tt_pin_own_mask(void *mask, size_t bytes)
{
	struct tt_thread *t = tt_tls.thread;
	unsigned char *out = mask;
	const unsigned char *own;
	size_t i;

	if (!t || !t->pinned)
		return false;
	own = (const unsigned char *)t->own_mask;
	for (i = 0; i < bytes; i++)
		out[i] = i < sizeof(t->own_mask) ? own[i] : 0;
	return true;
}

void tt_pin_forget(void)
{
	struct tt_thread *t = tt_tls.thread;

	if (!t)
		return;
	t->pinned = 0;
	unclaim(t); /* its CPU is free for the next thread */
}
