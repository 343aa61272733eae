/*
 * tramp_layout.h - the memory shared by the trampolines (.S) and C: the per-thread TLS block
 * and the shadow frame. Offsets are numbers here because the assembler needs them; tramp.h
 * checks them against the structs with _Static_assert.
 */
#ifndef TT_TRAMP_LAYOUT_H
#define TT_TRAMP_LAYOUT_H

/* Functions: index 0 is the calibration function, the others are the user's, as many as a
 * 32-bit index counts. Every table indexed by function grows as functions are added and is
 * mapped lazily, so an index costs memory only once used. */
#define TT_STUB_SIZE 32 /* bytes per entry stub; stub i = page + (i % per page) * 32 */

/* struct tt_func_words (func_table.h): 32 bytes each, in chunks of 2^16 (base/chunked.h). */
#define TT_WORDS_SHIFT 5
#define TT_WORDS_CHUNK_BITS 16
#define TT_WORDS_TARGET 0   /* void *: the real function */
#define TT_WORDS_HANDLER 16 /* uint64_t: calls from handlers that interrupted the shim */

/* struct tt_tls (thread.h): initial-exec TLS, reached with %fs and @gottpoff. */
#define TT_TLS_TOP 0	  /* struct tt_frame *: next free shadow frame */
#define TT_TLS_LIMIT 8	  /* struct tt_frame *: end of the shadow stack, NULL before setup */
#define TT_TLS_IN_SHIM 16 /* uint8_t: set while the shim runs its own code */
/* in_shim's value in a program's signal handler that interrupted the shim (signals.c):
 * calls counted, not timed. */
#define TT_IN_HANDLER 2
/* in_shim's value while a clone(CLONE_VM) child without a TLS of its own shares this block
 * (wrap/clone.c): every call passes through, counted in tt_shared_tls_calls (hot/thread.h). */
#define TT_IN_SHARED 3
#define TT_TLS_THREAD 24  /* struct tt_thread *: this thread's block, NULL before setup */
#define TT_TLS_CPU_NOW 32 /* const uint32_t *: the kernel's rseq cpu_id of this thread */
#define TT_TLS_STATS 40	  /* struct tt_func_stats **: this thread's counters by function index */
#define TT_TLS_NSTATS 48  /* uint32_t: indices that table holds; 0 before setup */

/* struct tt_thread (thread.h) is mapped at a multiple of its own power-of-two size. */
#define TT_THREAD_ALIGN (2048 * 1024)

/* struct tt_frame: one traced call in flight. */
#define TT_FRAME_RET 0		/* caller's return address */
#define TT_FRAME_START 8	/* TSC at entry */
#define TT_FRAME_SP 16		/* caller's %rsp once the return address is removed */
#define TT_FRAME_STAT 24	/* struct tt_func_stats * of this function in this thread */
#define TT_FRAME_RBX 32		/* caller's %rbx: %rbx holds the frame while the callee runs */
#define TT_FRAME_FUNC 40	/* uint32_t function index */
#define TT_FRAME_CPU 44		/* uint32_t CPU at entry (rseq cpu_id), ~0 unknown */
#define TT_FRAME_CHILD_TICKS 48 /* raw ticks of its traced calls (self time), zeroed at entry */
#define TT_FRAME_CHILD_CALLS 56 /* and their number */
#define TT_FRAME_ARGS 64	/* uint64_t[6]: rdi rsi rdx rcx r8 r9 as the call received them */
#define TT_FRAME_RETVAL 112	/* rax the function returned, stored on the way to the C exit */
#define TT_FRAME_SIZE 128

/* struct tt_func_stats: the trampoline bumps `calls` (and `passed` for a call sampling passes
 * over) itself, counts `skip` down and reloads it from `next_skip` (sampling, hot/sample.h). */
#define TT_FUNC_STATS_CALLS 0
#define TT_FUNC_STATS_SKIP 40
#define TT_FUNC_STATS_NEXT_SKIP 48
#define TT_FUNC_STATS_PASSED 56
#define TT_FUNC_STATS_WARM \
	36 /* uint32_t: a call has completed in this thread (the exit's fast path) */
#define TT_FUNC_STATS_WORDS 112 /* struct tt_func_words *: the function's, for its target */
#define TT_FUNC_STATS_SLOW_FLOOR \
	120		       /* uint64_t: a call of more raw ticks goes to C (slow_calls.h) */
#define TT_FUNC_STATS_HIST 136 /* struct tt_hist, recorded into by the exit's fast path */

/* struct tt_hist (hist/hist.h), as the exit's fast path records into it. */
#define TT_HIST_COUNT 0
#define TT_HIST_MIN 8
#define TT_HIST_MAX 16
#define TT_HIST_TOTAL 24
#define TT_HIST_COUNTS 32
#define TT_HIST_LINEAR_ASM 1024 /* TT_HIST_LINEAR: one bucket per value below */
#define TT_HIST_SUB_BITS_ASM 7	/* TT_HIST_SUB_BITS: 128 buckets per octave above */

/* The red zone below %rsp at a body's entry, where the stubs, the slot heads (hook/slot_code.c)
 * and PROLOGUE park the registers the entry needs, and where an inline entry keeps the
 * caller's r11 (the slow path carries that word across its C call). Once FRAME_ENTER has
 * popped the return address, %rsp is 8 higher: the same slots are at TT_RZ_x - 8. */
#define TT_RZ_RAX -8
#define TT_RZ_RCX -16
#define TT_RZ_RDX -24
#define TT_RZ_R11 -112
/* Scratch below them, each used by one path of the inline body (tramp_body.S IBODY). */
#define TT_RZ_JUMP -40	 /* the target of a jump through memory, all registers restored */
#define TT_RZ_TARGET -96 /* the target of the timed call, once %rsp is the caller's */

/* The reads' own scratch in the red zone, below the slots above, at the caller's %rsp
 * (tramp_body.S START_READ): cpuid's %rbx, or the monotonic read's saves and timespec. */
#define TT_RZ_READ_RBX -40
#define TT_RZ_READ_RDI -40
#define TT_RZ_READ_RSI -48
#define TT_RZ_READ_R11 -56
#define TT_RZ_READ_TS -72 /* struct timespec, 16 bytes */
/* The GOT body's exit: the monotonic read's timespec below %rsp (END_READ). */
#define TT_RZ_EXIT_TS -16

/* The inline body's exit keeps everything the callee left below S, its %rsp after the call
 * (tramp_body.S IBODY); once the exit's fast path has pushed the return address they are
 * 8 higher, and the C exit takes them into a frame of TT_XS_SIZE bytes. */
#define TT_XS_RAX -16
#define TT_XS_RDX -24
#define TT_XS_RCX -32
#define TT_XS_RSI -40
#define TT_XS_RDI -48
#define TT_XS_R8 -56
#define TT_XS_R9 -64
#define TT_XS_R10 -72
#define TT_XS_R11 -80
#define TT_XS_SIZE 80 /* the return address at S - 8 */

/* The slow path's frame under %rbp (tramp_body.S SLOW_PATH): nine registers pushed, then the
 * carried TT_RZ_R11 word, and tt_call_first's answer below it. */
#define TT_SLOW_SAVED 72
#define TT_SLOW_CARRIED -80
#define TT_SLOW_ANSWER -88

#endif /* TT_TRAMP_LAYOUT_H */
