/*
 * thread.h - per-thread state: the TLS block the trampolines read, the shadow stack of calls
 * in flight, and each function's counters and histogram for this thread (thread_state.c;
 * the exit merge, fork and report side is threads.h).
 *
 * Memory: one anonymous mapping per thread (header, then the shadow stack), one for its tables
 * by function index (sized to the functions there are, grown when a function added later is
 * called), and one per function used by the thread (struct tt_func_stats, mostly histogram). Only
 * the pages touched become resident: a thread that calls two traced functions costs ~6 pages.
 * Nothing is allocated on the hot path: stats appear on the first call of each function in
 * each thread (tt_call_first), and are merged into the per-function totals when the thread
 * exits (a pthread key destructor) or read in place by the report.
 */
#ifndef TT_THREAD_H
#define TT_THREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hot/tramp_layout.h"
#include "hist/hist.h"
#include "hist/self_hist.h"

#define TT_SHADOW_FRAMES 4096 /* nested traced calls per thread; deeper ones are not timed */

struct tt_frame {
	uint64_t ret;		    /* caller's return address */
	uint64_t start_ticks;	    /* TSC at entry */
	uint64_t sp;		    /* caller's %rsp without the return address */
	struct tt_func_stats *stat; /* where this call is counted */
	uint64_t rbx;		    /* caller's %rbx */
	uint32_t func;		    /* function index */
	uint32_t cpu;		    /* CPU at entry, UINT32_MAX when unknown */
	uint64_t child_ticks; /* raw ticks of the traced calls this one made (zeroed at entry) */
	uint64_t child_calls; /* how many; TT_CHILD_UNKNOWN set: one's time is unknown */
	uint64_t args[6];     /* rdi rsi rdx rcx r8 r9 at entry (TSC_SLOWEST, hot/slow_calls.h) */
	uint64_t retval;      /* rax at the end, written only on the way to the C exit */
	uint64_t spare;	      /* pads the frame to 128 bytes */
};

/* In child_calls: a traced call made by this one migrated or was left by longjmp. */
#define TT_CHILD_UNKNOWN (1ull << 63)

/* One function in one thread (or, merged, in the whole process). */
struct tt_func_stats {
	uint64_t calls;	   /* entries, bumped by the trampoline */
	uint64_t unwound;  /* left by longjmp/exception: counted, not timed */
	uint64_t migrated; /* thread changed CPU inside the call: not timed */
	uint64_t dropped;  /* first call of the thread (cold), or too deep: not timed */
	uint32_t func;	   /* function index */
	uint32_t warm;	   /* a call has completed in this thread */
	/* Sampling (hot/sample.h); `calls` includes those passed over at entry. */
	uint64_t skip;	     /* calls to pass over before the next timed one (trampoline) */
	uint64_t next_skip;  /* what the next timed call sets skip to (drawn at a timed exit) */
	uint64_t passed;     /* calls passed over at entry: no frame (bumped only on that path) */
	uint64_t sampled;    /* framed calls whose time sampling did not take (TSC_CALLERS) */
	uint64_t period;     /* mean period (1 in N) of the current draw; 0 before the first */
	uint64_t scale;	     /* 1 / -ln(1 - 1/period), Q16: turns an Exp(1) draw into skip */
	uint64_t period_min; /* smallest and largest periods drawn with; 0: none */
	uint64_t period_max;
	uint64_t budgeted;	     /* TSC_BUDGET: past its floor, one of the thread's shares */
	struct tt_func_words *words; /* the function's (func_table.h): the trampoline's target */
	uint64_t slow_floor; /* a timed call of more raw ticks goes to the C exit (slow_calls.h) */
	struct tt_slow_list *slow; /* its slowest calls kept; NULL: none kept */
	struct tt_hist hist;	   /* raw ticks of timed calls */
	struct tt_self_hist self;  /* timed calls that made traced calls: self ticks */
	/* TSC_BUDGET (hot/sample.c), after the timed exit's C: */
	struct tt_sample_fn {
		uint64_t start;	    /* clock at its first timed end in this thread */
		uint64_t ran_start; /* and the thread's clock units run then (sample.c) */
		uint64_t last_end;  /* clock at the last timed end (0: none), and calls then */
		uint64_t last_calls;
		uint64_t n, sn, snn, st, snt; /* this window's gaps: (calls, clock units) sums */
		uint64_t cost; /* a timed call's cost over a counted one, seen; 0: not yet */
		uint64_t fits[3], nfits; /* the last windows' intercepts: cost is their median */
		uint64_t per_call_q8;	 /* the last window's slope, Q8; 0: none yet */
		uint64_t wsq;		 /* sum of the squared weights in whist */
	} est;
	struct tt_hist whist; /* TSC_BUDGET: timed calls' raw ticks, each weighted by its period */
	struct tt_self_hist wself; /* TSC_BUDGET: self, each call weighted alike (with whist, the
				    * distribution over all calls: self_hist.h); at
				    * TSC_SAMPLE=N both are derived by the report */
	/* Merged only (runtime/threads.c): how densely its calls were timed, the most timed
	 * calls per 2^20 ns of CPU time of any one thread (the observer-effect warning). */
	uint64_t dense_q20;
	const struct tt_arg_watch *watch; /* TSC_ARGS: its argument watched, or NULL */
	struct tt_by_arg *by_arg;	  /* and its calls by that argument (hot/by_arg.h) */
	size_t map_bytes;		  /* the mapping this struct heads (thread_state.c) */
};

struct tt_site_table;
struct tt_func_words;
struct tt_slow_list;
struct tt_arg_watch;
struct tt_by_arg;

#define TT_CPU_WORDS 16 /* affinity masks of up to 1024 CPUs */
#define TT_RETIRED 40	/* a table at least doubles when it grows: enough for 2^32 indices */

struct tt_thread {
	struct tt_thread *next, *prev; /* list of live threads, under tt_thread_lock */
	int64_t tid;
	size_t map_bytes;		 /* size of this mapping */
	uint64_t own_mask[TT_CPU_WORDS]; /* the thread's affinity before we pinned it */
	uint64_t pin_mask[TT_CPU_WORDS]; /* the one CPU we pinned it to */
	uint32_t mask_bytes;		 /* bytes of mask the kernel uses */
	uint8_t pin_tried;		 /* tt_pin_thread has run for this thread */
	uint8_t pinned;			 /* and pinned it: pin_mask is in force */
	uint8_t claimed;		 /* TSC_PIN=exclusive: holds claimed_cpu (pin.c) */
	uint16_t claimed_cpu;
	struct tt_sample_thread { /* sampling (hot/sample.c) */
		uint64_t rng;	  /* xorshift state, seeded per thread */
		uint64_t start;	  /* clock reading of its first timed call */
		uint64_t hot;	  /* TSC_BUDGET: functions past their floor */
		/* TSC_BUDGET: the clock units the thread ran (on a CPU), which the budget's
		 * share accrues over: ran_base up to the last check, at check_clock, when
		 * the thread's CPU time and the monotonic clock read check_cpu, check_wall
		 * ns; since then at ran_q16 (Q16) of the clock, the last check's share. */
		uint64_t ran_base, check_clock, check_cpu, check_wall, ran_q16;
	} sample;
	/* Tables by function index, nstats long, in one mapping (tt_thread_grow): written by
	 * the owner, which replaces them only under the thread lock; others read them under it. */
	struct tt_func_stats **stats; /* NULL until the function's first call in this thread */
	struct tt_site_table **sites; /* TSC_CALLERS: call sites, lazily */
	uint32_t nstats;
	uint32_t nretired;
	struct tt_retired {   /* tables replaced by larger ones: a signal handler's call */
		void *p;      /* may have grown them under a call that still reads the */
		size_t bytes; /* old one, so they live as long as the thread */
	} retired[TT_RETIRED];
	/* Below frames[0]: the exit's fast path adds every call's ticks to the frame below its
	 * own without asking whether it is a traced caller's; the outermost calls add here. */
	struct tt_frame frame_floor;
	struct tt_frame frames[TT_SHADOW_FRAMES]; /* the shadow stack */
	char *unwind_map;	/* TSC_CALLERS=N>1: its unwind stack, NULL until needed */
	uint64_t unwind_mask;	/* the signal mask to restore after an unwind... */
	uint8_t unwind_masked;	/* ...when it blocked signals (hot/unwind_stack.c) */
	uint8_t alt_known;	/* alt_lo/alt_size hold the kernel's answer (unwind_stack.h) */
	uintptr_t alt_lo;	/* the signal stack's lowest address */
	size_t alt_size;	/* and its size; 0 when there is none */
	uint64_t site_path[32]; /* TSC_CALLERS: the path of the last site looked up (a copy: */
	uint32_t site_depth;	/* the caller's array may be gone), for a kept slow call */
	void *offcpu_ring;	/* its context switches, as the kernel records them (offcpu.h) */
	uint8_t offcpu_tried;	/* opening them was tried */
	char name[16];		/* comm, read at report time (threads.c); the hot path never does */
};

/* The initial-exec TLS block, read by tramp_body.S at fixed offsets. */
struct tt_tls {
	struct tt_frame *top;	/* next free frame */
	struct tt_frame *limit; /* end of the shadow stack; NULL before setup */
	uint8_t in_shim;	/* the shim's own code is running: pass calls through */
	uint8_t failed;		/* setup failed: this thread is not traced */
	uint8_t notsc;		/* forbade itself the TSC: calls counted, not timed */
	uint8_t fatal_pending;	/* a fatal signal arrived while the shim ran (signals.c) */
	uint32_t cpu_aux;	/* TSC_AUX seen at the last exit; UINT32_MAX unknown */
	struct tt_thread *thread;
	const uint32_t *cpu_now;      /* rseq cpu_id kept by the kernel, or tt_cpu_unknown */
	struct tt_func_stats **stats; /* thread->stats, for the trampoline */
	uint32_t nstats;	  /* thread->nstats; 0 before setup and after the thread's exit */
	uintptr_t unwind_top;	  /* TSC_CALLERS=N>1: hot/unwind_stack.h (0 none, 1 taken) */
	uint32_t shared_children; /* live clone(CLONE_VM) children on this very block (clone.c):
				   * atomic, the only field both tasks write */
	uint8_t tableless;	  /* a call found no counters and none could be mapped */
};

/* UINT32_MAX: what cpu_now points at when the kernel keeps no rseq area for us. */
extern const uint32_t tt_cpu_unknown;

extern __thread struct tt_tls tt_tls __attribute__((tls_model("initial-exec")));

/* Some thread forbade itself the TSC (PR_SET_TSC): the first-call path checks each thread. */
extern bool tt_clock_forbidden_seen;

/* The program confined itself with seccomp (wrap/sandbox.c): the shim makes no more system
 * calls of its own, so calls needing a new table or thread block pass through untraced. */
extern bool tt_sandboxed;

/* Traced calls made while in_shim was TT_IN_SHARED (a raw clone child shares the block):
 * passed through untimed, in no function's counts; atomic (tt_call_first). */
extern uint64_t tt_shared_tls_calls;

/* Traced calls that found no counters of their thread's and could not map them (out of
 * address space: RLIMIT_AS, or memory), and the threads that made them: atomic
 * (tt_call_first). Each call is also in its function's handler_calls, counted untimed. */
extern uint64_t tt_tableless_calls, tt_tableless_threads;

/* Map a thread block for the first thread to make a traced call (start-up): the address
 * space the program leaves may be too small for one by then. */
void tt_thread_reserve(void);

/* What a traced call costs its traced caller beyond its reading (overhead.nested), once the
 * first calibration measured it, else 0: the self time a call records is then its own less
 * that, placed for good (hist/self_hist.h). Set once, by runtime/lifecycle.c. */
extern uint64_t tt_self_nested_cost;

/* Enter / leave shim code in this thread: traced calls made meanwhile pass straight through.
 * Nests: returns the previous value for tt_shim_leave. */
static inline uint8_t tt_shim_enter(void)
{
	uint8_t was = tt_tls.in_shim;

	__atomic_store_n(&tt_tls.in_shim, 1, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	return was;
}

/* Set by signals.c: finish a fatal signal that arrived while the shim ran (report, then die). */
extern void (*tt_shim_deferred_fatal)(void);

static inline void tt_shim_leave(uint8_t was)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&tt_tls.in_shim, was, __ATOMIC_RELAXED);
	/* After the store: a signal arriving from here on is handled in its handler. */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (__builtin_expect((!was || was == TT_IN_SHARED) && tt_tls.fatal_pending, 0))
		tt_shim_deferred_fatal();
}

/* The list lock: a raw futex (waiters sleep), because tt_call_first may take it and may not
 * call libc. Held only with in_shim set, so a signal handler in the holder never waits for it. */
void tt_thread_lock_raw(void);
void tt_thread_unlock_raw(void);

/*
 * ThreadSanitizer does not see the futex (the hot path is not instrumented), so code that is
 * instrumented says what the lock orders; in the hot path (built without -fsanitize) these
 * are the bare lock.
 */
#if defined(__SANITIZE_THREAD__)
#include <sanitizer/tsan_interface.h>
#define TT_TSAN_ACQUIRE(p) __tsan_acquire(p)
#define TT_TSAN_RELEASE(p) __tsan_release(p)
#else
#define TT_TSAN_ACQUIRE(p) ((void)(p))
#define TT_TSAN_RELEASE(p) ((void)(p))
#endif

static inline void tt_thread_lock(void)
{
	tt_thread_lock_raw();
	TT_TSAN_ACQUIRE((void *)&tt_thread_lock_raw);
}

static inline void tt_thread_unlock(void)
{
	TT_TSAN_RELEASE((void *)&tt_thread_lock_raw);
	tt_thread_unlock_raw();
}

/* In a fork child, where the holder may be gone: free the lock. */
void tt_thread_lock_reset(void);

/* Head of the live-thread list (under the lock). */
extern struct tt_thread *tt_thread_list;

/* A sink for calls whose counters were reset under them (fork): never reported. */
extern struct tt_func_stats tt_thread_sink;

/*
 * The countdown of a count-only function (tt_func_words' count_only): every call is passed
 * over at entry, never framed. Sampling's draws stay at or below 2^62, so the sign bit tells
 * these apart, which the trampoline's framed path (TSC_CALLERS) tests; 2^63 calls never
 * bring it down to them.
 */
#define TT_COUNT_ONLY_SKIP UINT64_MAX

/* A thread's unwind stack (hot/unwind_stack.h): its size, and the guard page below it. */
#define TT_UNWIND_STACK_BYTES (256u << 10)
#define TT_UNWIND_GUARD_BYTES 4096u

/* The mapping of one struct tt_func_stats: whole pages. */
#define TT_FUNC_STATS_BYTES ((sizeof(struct tt_func_stats) + 4095) & ~(size_t)4095)

/* Map a fresh, zeroed struct tt_func_stats for function func. NULL when out of memory.
 * General registers and raw syscalls only: usable from tt_call_first. */
struct tt_func_stats *tt_func_stats_new(uint32_t func);

/* Unmap what tt_func_stats_new mapped. */
void tt_func_stats_free(struct tt_func_stats *s);

/* Function func's counters in thread t, or NULL (none yet, or past its table). The owner,
 * or another thread under the thread lock. */
static inline struct tt_func_stats *tt_thread_stat(const struct tt_thread *t, uint32_t func)
{
	return func < t->nstats ? __atomic_load_n(&t->stats[func], __ATOMIC_ACQUIRE) : NULL;
}

/* Its call-site table (TSC_CALLERS), or NULL; as tt_thread_stat. */
static inline struct tt_site_table *tt_thread_sites(const struct tt_thread *t, uint32_t func)
{
	return func < t->nstats ? __atomic_load_n(&t->sites[func], __ATOMIC_ACQUIRE) : NULL;
}

/* Make the calling thread's tables (t == tt_tls.thread) hold index func: larger ones, the
 * entries copied, published to the trampoline. 0, or -1 out of memory. Takes the thread lock;
 * raw syscalls only (called from tt_call_first). */
int tt_thread_grow(struct tt_thread *t, uint32_t func);

/* Unmap a thread block that no code runs on any more (exited, or gone in a fork child):
 * its counters, its tables, the block. */
void tt_thread_free(struct tt_thread *t);

/* pthread key for the exit merge (threads.c creates it), or -1 when there is none. */
extern int tt_thread_key;

/* Register a new thread block: link it and arm the exit merge. General registers only. */
void tt_thread_register(struct tt_thread *t);

#endif /* TT_THREAD_H */
