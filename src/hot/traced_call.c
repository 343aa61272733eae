/*
 * traced_call.c - the C the trampolines call: recording a finished call, and the first-call path.
 *
 * Hot path. Built with -mgeneral-regs-only: the trampoline keeps the callee's return value in
 * xmm0/xmm1/st0/st1 and the caller's vector arguments untouched, so no code here may use a
 * vector or x87 register. It calls no libc (memory comes from raw mmap), so errno and every
 * libc lock are left alone; `make check` audits the object's undefined symbols.
 *
 * tt_call_exit runs after the second TSC read of every traced call the body's FAST_EXIT
 * (tramp_body.S) does not record itself: that one does what tt_call_finish does for a call
 * with no site, no sampling, no migration, warm, a leaf, on top of the shadow stack. A change
 * to what such a call records here must be made there too.
 */
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>

#include "base/sys.h"
#include "hot/by_arg.h"
#include "hot/callers.h"
#include "hot/func_table.h"
#include "hot/offcpu.h"
#include "hot/pin.h"
#include "hot/sample.h"
#include "hot/slow_calls.h"
#include "hot/thread.h"
#include "hot/traced_call.h"
#include "hist/hist.h"

/* glibc 2.35+ registers an rseq area for every thread and says where (weak: older glibc). */
extern const ptrdiff_t __rseq_offset __attribute__((weak));
extern const unsigned int __rseq_size __attribute__((weak));

/* TSC_CALLERS: the counters of a frame's call site in this thread, or NULL. */
static struct tt_func_stats *site_of(const struct tt_frame *f)
{
	struct tt_thread *t = tt_tls.thread;

	if (!tt_callers_depth || !t)
		return NULL;
	if (tt_callers_depth == 1) {
		uint64_t caller = tt_callers_caller(f);

		return tt_callers_site(t, f->func, &caller, 1);
	}
	return tt_callers_unknown(t, f->func); /* its path can no longer be taken */
}

/* A call counted at a site: sites are counted in C, every call framed (see sample.h). */
static void count_site(struct tt_func_stats *site)
{
	TT_OWNER_ADD(site->calls, 1);
}

/*
 * Frames above f belong to calls that were left without returning (longjmp, an exception, a
 * signal handler that jumped out): count them as unwound and drop them.
 */
static void __attribute__((noinline)) drop_abandoned(struct tt_frame *f, struct tt_frame *top)
{
	struct tt_frame *dead;

	for (dead = f + 1; dead < top; dead++) {
		struct tt_func_stats *site = site_of(dead);

		TT_OWNER_ADD(dead->stat->unwound, 1);
		if (site) {
			count_site(site);
			TT_OWNER_ADD(site->unwound, 1);
		}
	}
}

/* What becomes of an ended call. */
enum outcome { TIMED, MIGRATED, COLD, SAMPLED, FILTERED };

static enum outcome judge(uint32_t cpu_then, uint32_t aux, const struct tt_func_stats *s)
{
	if (cpu_then != __atomic_load_n(tt_tls.cpu_now, __ATOMIC_RELAXED))
		return MIGRATED; /* ran on two CPUs during the call: two TSCs mixed */
	if (cpu_then == UINT32_MAX && aux != tt_tls.cpu_aux && aux != UINT32_MAX) {
		/* No rseq: ended on another CPU (TSC_AUX) than the last call ended on. */
		uint32_t was = tt_tls.cpu_aux;

		tt_tls.cpu_aux = aux;
		if (was != UINT32_MAX)
			return MIGRATED;
	}
	return s->warm ? TIMED : COLD; /* the first call in this thread is the cold one */
}

/*
 * child and nested: the ticks and number of the traced calls this one made (its frame's
 * child_ticks, child_calls). A leaf call's self time is its total: nothing more to record.
 */
static void apply(struct tt_func_stats *s, enum outcome o, uint64_t raw, uint64_t child,
		  uint64_t nested)
{
	if (o == TIMED) {
		tt_hist_record(&s->hist, raw);
		if (__builtin_expect(nested != 0, 0)) {
			if (nested & TT_CHILD_UNKNOWN)
				tt_self_lose(&s->self, raw);
			else
				tt_self_record(&s->self, raw, child, nested,
					       __atomic_load_n(&tt_self_nested_cost,
							       __ATOMIC_RELAXED));
		}
	} else if (o == MIGRATED)
		TT_OWNER_ADD(s->migrated, 1);
	else if (o == SAMPLED)
		TT_OWNER_ADD(s->sampled, 1);
	else
		TT_OWNER_ADD(s->dropped, 1);
}

/* The process's very first completed call of func: the report's `first`. */
static void note_first(struct tt_func_stats *s, uint64_t raw)
{
	uint64_t none = 0;

	__atomic_store_n(&s->warm, 1, __ATOMIC_RELAXED);
	if (s->words && s != &tt_thread_sink && raw != UINT64_MAX)
		__atomic_compare_exchange_n(&s->words->first, &none, raw + 1, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED);
}

/* The CPU number in a TSC_AUX value (Linux writes node << 12 | cpu), or UINT32_MAX. */
static uint32_t aux_cpu(uint32_t aux)
{
	return aux == UINT32_MAX ? UINT32_MAX : aux & 0xfff;
}

/* TSC_ARGS: file the call by its argument; one the filter leaves out is not timed
 * (counted as dropped, and as filtered). */
static enum outcome by_arg(struct tt_func_stats *s, const struct tt_frame *f, enum outcome o,
			   uint64_t raw)
{
	if (!tt_arg_matches(s->watch, f)) {
		s->by_arg->filtered++;
		return COLD == o ? COLD : FILTERED;
	}
	tt_arg_record(s->by_arg, s->watch, f, o == TIMED, raw);
	return o;
}

/*
 * Release frame f and record its call, ended raw ticks after it began, on CPU aux
 * (UINT32_MAX when the variant cannot tell), into its function's counters and, with
 * TSC_CALLERS, into those of its call site `site`.
 */
void tt_call_finish(struct tt_frame *f, uint64_t raw, uint32_t aux, struct tt_func_stats *site)
{
	struct tt_func_stats *s = f->stat;
	uint32_t cpu_then = f->cpu;
	uint64_t start = f->start_ticks;
	uint64_t child = f->child_ticks, nested = f->child_calls;
	struct tt_frame *top = tt_tls.top;
	struct tt_thread *t = tt_tls.thread;
	uint64_t path[TT_PATH_MAX];
	uint32_t depth = 0, i;
	enum outcome o;

	/* Only a call slow enough to be kept needs its site's path, copied before
	 * drop_abandoned looks up others': the common call copies nothing. */
	if (site && t && raw > s->slow_floor) {
		depth = t->site_depth;
		for (i = 0; i < depth; i++)
			path[i] = t->site_path[i];
	}
	/*
	 * The guard is set only in a vfork child returning through a traced call (vfork itself
	 * traced): the child shares this shadow stack with its parent, which will return
	 * through the same frame. Leave the frame and the counts to the parent. Not so on a
	 * block a clone child shares (TT_IN_SHARED): the child never returns through a frame
	 * of the thread's, whose calls in flight end here as usual.
	 */
	if (__builtin_expect(tt_tls.in_shim, 0) && tt_tls.in_shim != TT_IN_SHARED)
		return;
	if (__builtin_expect(top != f + 1, 0)) {
		drop_abandoned(f, top);
		nested |= TT_CHILD_UNKNOWN; /* their time is in ours, not known apart */
	}
	__atomic_store_n(&tt_tls.top, f, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);

	/* Start 0: a call sampling passed over that still took a frame (its end is seen for
	 * TSC_CALLERS), never read the clock. Every other one may revise the sampling. */
	o = start == 0 ? SAMPLED : judge(cpu_then, aux, s);
	if (__builtin_expect(s->watch != NULL, 0) && o != SAMPLED)
		o = by_arg(s, f, o, raw);
	apply(s, o, raw, child, nested);
	/* In the histogram before the list: a report reads the lists first (slow_report.c). */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (o == TIMED && raw > s->slow_floor && t)
		tt_slow_keep(s, f, raw, cpu_then != UINT32_MAX ? cpu_then : aux_cpu(aux), t,
			     site ? path : NULL, depth);
	if (__builtin_expect(o == COLD, 0))
		note_first(s, raw);
	if (site) {
		count_site(site);
		apply(site, o, raw, child, nested);
	}
	/* Our time is part of the caller's, if it is traced: its self time leaves it out.
	 * A call sampling passed over adds nothing (self time is then approximate, sample.h). */
	if (t && f > t->frames && o != SAMPLED) {
		struct tt_frame *p = f - 1;

		if (__builtin_expect(o == MIGRATED, 0)) {
			p->child_calls |= TT_CHILD_UNKNOWN; /* two clocks: raw means nothing */
		} else {
			p->child_ticks += raw;
			p->child_calls++;
		}
	}
	if (__builtin_expect(tt_sample_mode != TT_SAMPLE_OFF, 0) && o != SAMPLED && tt_tls.thread)
		tt_sample_after(tt_tls.thread, s, site, start + raw, o == TIMED, raw, child,
				nested);
}

/*
 * Called by the return body, through tt_exit_fn, with the call's frame, its raw duration and
 * the CPU id at the end. With TSC_CALLERS=N>1, tt_exit_fn is tt_callers_exit_xsave instead,
 * which takes the call path first.
 */
void (*tt_exit_fn)(struct tt_frame *f, uint64_t raw, uint32_t aux) = tt_call_exit;

uint8_t tt_exit_in_c;
static bool exit_forced_to_c;

void tt_exit_path_update(void)
{
	tt_exit_in_c = exit_forced_to_c || tt_exit_fn != tt_call_exit || tt_callers_depth != 0 ||
		       __atomic_load_n(&tt_sample_mode, __ATOMIC_ACQUIRE) != TT_SAMPLE_OFF;
}

void tt_exit_force_c(void)
{
	exit_forced_to_c = true;
	tt_exit_path_update();
}

void tt_call_exit(struct tt_frame *f, uint64_t raw, uint32_t aux)
{
	struct tt_func_stats *site = NULL;

	if (__builtin_expect(tt_callers_depth == 1, 0) && tt_tls.thread) {
		uint64_t caller = tt_callers_caller(f);

		site = tt_callers_site(tt_tls.thread, f->func, &caller, 1);
	}
	tt_call_finish(f, raw, aux, site);
}

/*
 * A call in flight when its thread forbade itself the TSC (notsc.c re-aimed its return here,
 * through tt_untimed_return): its end cannot be read, so it is counted, not timed.
 */
void tt_call_untimed(struct tt_frame *f)
{
	struct tt_frame *top = tt_tls.top;
	struct tt_func_stats *site = site_of(f);

	if (__builtin_expect(tt_tls.in_shim, 0) && tt_tls.in_shim != TT_IN_SHARED)
		return; /* a vfork child: see tt_call_finish */
	if (top != f + 1)
		drop_abandoned(f, top);
	__atomic_store_n(&tt_tls.top, f, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (tt_tls.thread && f > tt_tls.thread->frames)
		f[-1].child_calls |= TT_CHILD_UNKNOWN;
	TT_OWNER_ADD(f->stat->dropped, 1);
	if (site) {
		count_site(site);
		TT_OWNER_ADD(site->dropped, 1);
	}
}

/* Point cpu_now at this thread's rseq cpu_id, if the kernel keeps one for it. */
static void find_rseq_cpu(void)
{
	char *tp;
	const uint32_t *cpu;

	if (!&__rseq_size || !&__rseq_offset || __rseq_size < 8)
		return;
	__asm__("movq %%fs:0, %0" : "=r"(tp));
	cpu = (const uint32_t *)(tp + __rseq_offset + 4); /* struct rseq: cpu_id_start, cpu_id */
	if (*cpu < 0x80000000u) /* not RSEQ_CPU_ID_UNINITIALIZED / REGISTRATION_FAILED */
		tt_tls.cpu_now = cpu;
}

/* A thread block at a multiple of TT_THREAD_ALIGN (see tramp_layout.h): map twice the size,
 * unmap what lies outside the aligned part. Untouched pages cost nothing (MAP_NORESERVE). */
static struct tt_thread *map_thread_block(void)
{
	char *p = tt_sys_mmap(NULL, 2 * TT_THREAD_ALIGN, 3 /* PROT_READ | PROT_WRITE */,
			      0x22 /* MAP_PRIVATE | MAP_ANONYMOUS */ | 0x4000 /* MAP_NORESERVE */,
			      -1, 0);
	char *aligned;

	if (!p)
		return NULL;
	aligned = (char *)(((uintptr_t)p + TT_THREAD_ALIGN - 1) &
			   ~(uintptr_t)(TT_THREAD_ALIGN - 1));
	if (aligned > p)
		tt_sys_munmap(p, (size_t)(aligned - p));
	if (aligned + TT_THREAD_ALIGN < p + 2 * TT_THREAD_ALIGN)
		tt_sys_munmap(aligned + TT_THREAD_ALIGN,
			      (size_t)(p + 2 * TT_THREAD_ALIGN - (aligned + TT_THREAD_ALIGN)));
	/* Aligned like a huge page: where transparent huge pages are always on, the first touch
	 * would fill 2 MiB. Only the pages touched are wanted. */
	tt_syscall3(SYS_madvise, (long)aligned, TT_THREAD_ALIGN, 15 /* MADV_NOHUGEPAGE */);
	return (struct tt_thread *)aligned;
}

/* A thread started by one that had forbidden itself the TSC inherits the ban (notsc.c). */
static bool inherited_notsc(void)
{
	int mode = 0;

	if (!__atomic_load_n(&tt_clock_forbidden_seen, __ATOMIC_ACQUIRE))
		return false;
	return tt_syscall3(SYS_prctl, PR_GET_TSC, &mode, 0) == 0 && mode == PR_TSC_SIGSEGV;
}

/* A thread block mapped at start-up, taken by the first thread that makes a traced call: a
 * program that caps its address space (RLIMIT_AS) right after start-up still has the main
 * thread's calls timed. NULL once taken, or when it could not be mapped. */
static struct tt_thread *reserved_block;

void tt_thread_reserve(void)
{
	struct tt_thread *t = map_thread_block();
	struct tt_thread *none = NULL;

	if (t && !__atomic_compare_exchange_n(&reserved_block, &none, t, false, __ATOMIC_RELEASE,
					      __ATOMIC_RELAXED))
		tt_sys_munmap(t, TT_THREAD_ALIGN); /* a thread had one already */
}

static struct tt_thread *take_thread_block(void)
{
	struct tt_thread *t = __atomic_exchange_n(&reserved_block, NULL, __ATOMIC_ACQUIRE);

	return t ? t : map_thread_block();
}

static uint8_t first_thread_done; /* the process's first thread has opened its records */

static int setup_thread(void)
{
	struct tt_thread *t = take_thread_block();

	if (!t)
		return -1;
	t->map_bytes = TT_THREAD_ALIGN;
	t->tid = tt_sys_gettid();
	tt_sample_thread_init(t);
	tt_tls.thread = t;
	find_rseq_cpu();
	tt_tls.top = t->frames;
	tt_thread_register(t);
	if (tt_slow_capacity && !__atomic_exchange_n(&first_thread_done, 1, __ATOMIC_RELAXED)) {
		t->offcpu_tried = 1; /* the first thread's switches from the start (offcpu.h) */
		tt_offcpu_open(t);
	}
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (inherited_notsc())
		tt_tls.notsc = 1;
	if (!tt_tls.notsc)
		tt_tls.limit = t->frames + TT_SHADOW_FRAMES;
	return 0;
}

/*
 * The shadow stack is full: frames left by longjmp (or siglongjmp out of a handler) with no
 * traced caller returning since may be what fills it. A frame whose caller's stack pointer is
 * at or below the new call's is dead: that caller has been left. Not on a sigaltstack, where
 * the interrupted frames (on the thread's stack) may lie at any address relative to ours.
 * (Coroutines switching stacks inside traced calls defeat this, and the shadow stack too.)
 */
static void drop_left_frames(uintptr_t sp)
{
	stack_t ss;
	struct tt_frame *base = tt_tls.thread->frames, *top = tt_tls.top;

	if (tt_syscall3(SYS_sigaltstack, 0, &ss, 0) < 0 || (ss.ss_flags & SS_ONSTACK))
		return;
	while (top > base && top[-1].sp <= sp) {
		top--;
		TT_OWNER_ADD(top->stat->unwound, 1);
		if (top > base)
			top[-1].child_calls |= TT_CHILD_UNKNOWN; /* left from inside it */
	}
	__atomic_store_n(&tt_tls.top, top, __ATOMIC_RELAXED);
}

/*
 * The trampoline's slow path, with every argument register saved: set up this thread, or
 * this function in this thread, then answer 0 (take the fast path now) or 1 (call the
 * function untimed: shadow stack full, or out of memory). sp is the caller's stack pointer
 * as the function will see it (above the return address).
 */
/*
 * A call on a block a clone(CLONE_VM) child shares (in_shim TT_IN_SHARED, wrap/clone.c):
 * the child and the thread cannot be told apart, so the call is counted here, atomically,
 * and passes through (1). Nothing else of the block is written, in_shim least of all (the
 * other task reads it), but when the last child is gone: the flag is lowered and the call
 * takes the fast path from the top (0). A child decrements the count as its function
 * returns, after its last traced call; one raised again meanwhile (a signal handler's clone)
 * raises the flag again.
 */
static int shared_call(void)
{
	uint8_t shared = TT_IN_SHARED;

	if (__atomic_load_n(&tt_tls.shared_children, __ATOMIC_ACQUIRE) == 0 &&
	    __atomic_compare_exchange_n(&tt_tls.in_shim, &shared, 0, false, __ATOMIC_ACQ_REL,
					__ATOMIC_ACQUIRE)) {
		if (__atomic_load_n(&tt_tls.shared_children, __ATOMIC_ACQUIRE) == 0)
			return 0;
		__atomic_store_n(&tt_tls.in_shim, TT_IN_SHARED, __ATOMIC_RELEASE);
	}
	__atomic_fetch_add(&tt_shared_tls_calls, 1, __ATOMIC_RELAXED);
	return 1;
}

uint64_t tt_tableless_calls, tt_tableless_threads;

/*
 * A call of func that this thread has no counters for and could not map them (out of
 * address space or memory): counted with the calls no thread holds (handler_calls: the
 * report adds them, untimed), and apart for the report's warning; the thread once.
 */
static void count_tableless(uint32_t func)
{
	__atomic_fetch_add(&tt_func_words(func)->handler_calls, 1, __ATOMIC_RELAXED);
	__atomic_fetch_add(&tt_tableless_calls, 1, __ATOMIC_RELAXED);
	if (!tt_tls.tableless) {
		tt_tls.tableless = 1;
		__atomic_fetch_add(&tt_tableless_threads, 1, __ATOMIC_RELAXED);
	}
}

int tt_call_first(uint32_t func, uintptr_t sp)
{
	uint8_t was;
	struct tt_func_stats *s;
	int answer = 1;

	/* Before tt_shim_enter: a shared block's in_shim is not this task's to save and put
	 * back (the other task's would be lost). */
	if (__atomic_load_n(&tt_tls.in_shim, __ATOMIC_ACQUIRE) == TT_IN_SHARED)
		return shared_call();
	was = tt_shim_enter();
	if (__atomic_load_n(&tt_sandboxed, __ATOMIC_ACQUIRE) || !tt_func_words(func))
		goto out;
	if (tt_tls.failed || (!tt_tls.thread && setup_thread() < 0)) {
		tt_tls.failed = 1;
		goto tableless;
	}
	/* A function added after this thread's table was sized (or its first call). */
	if (func >= tt_tls.thread->nstats && tt_thread_grow(tt_tls.thread, func) < 0)
		goto tableless;
	if (func != 0) /* not for the overhead calibration */
		tt_pin_thread(tt_tls.thread);
	s = tt_tls.thread->stats[func];
	if (!s) {
		s = tt_func_stats_new(func);
		if (!s)
			goto tableless;
		__atomic_store_n(&tt_tls.thread->stats[func], s, __ATOMIC_RELEASE);
	}
	if (tt_tls.notsc) {
		/* This thread may not read the TSC (notsc.c): counted, not timed. */
		TT_OWNER_ADD(s->calls, 1);
		TT_OWNER_ADD(s->dropped, 1);
		goto out;
	}
	if (tt_tls.top >= tt_tls.limit)
		drop_left_frames(sp);
	if (tt_tls.top >= tt_tls.limit) {
		/* Deeper than the shadow stack: counted, not timed; the caller's self time
		 * cannot leave it out. */
		tt_tls.top[-1].child_calls |= TT_CHILD_UNKNOWN;
		TT_OWNER_ADD(s->calls, 1);
		TT_OWNER_ADD(s->dropped, 1);
		goto out;
	}
	answer = 0;
	goto out;
tableless:
	if (func != 0) /* the calibration's own calls are no program's */
		count_tableless(func);
out:
	tt_shim_leave(was);
	return answer;
}
