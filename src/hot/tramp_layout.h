/*
 * tramp_layout.h - the memory shared by the trampolines (.S) and C: the per-thread TLS block
 * and the shadow frame. Offsets are numbers here because the assembler needs them; tramp.h
 * checks them against the structs with _Static_assert.
 */
#ifndef TT_TRAMP_LAYOUT_H
#define TT_TRAMP_LAYOUT_H

/* Functions: index 0 is the calibration function, 1..TT_MAX_FUNCS-1 are the user's. Every
 * table indexed by function is mapped or .bss, so an index costs memory only once used. */
#define TT_MAX_FUNCS 65536
#define TT_STUB_SIZE 32 /* bytes per entry stub; stub i = pool + i * 32 */

/* struct tt_tls (thread.h): initial-exec TLS, reached with %fs and @gottpoff. */
#define TT_TLS_TOP 0	  /* struct tt_frame *: next free shadow frame */
#define TT_TLS_LIMIT 8	  /* struct tt_frame *: end of the shadow stack, NULL before setup */
#define TT_TLS_IN_SHIM 16 /* uint8_t: set while the shim runs its own code */
#define TT_IN_HANDLER \
	2		  /* in_shim's value in a program's signal handler that
				   interrupted the shim (signals.c): calls counted, not timed */
#define TT_TLS_THREAD 24  /* struct tt_thread *: this thread's block, NULL before setup */
#define TT_TLS_CPU_NOW 32 /* const uint32_t *: the kernel's rseq cpu_id of this thread */

/* struct tt_thread (thread.h) is mapped at a multiple of its own power-of-two size, so the
 * trampoline finds a thread's stats table from its shadow-stack pointer with an and, not a
 * dependent load before the first TSC read. */
#define TT_THREAD_ALIGN (2048 * 1024)
#define TT_THREAD_STATS 320 /* offsetof(struct tt_thread, stats) */

/* struct tt_frame: one traced call in flight. */
#define TT_FRAME_RET 0		/* caller's return address */
#define TT_FRAME_START 8	/* TSC at entry */
#define TT_FRAME_SP 16		/* caller's %rsp once the return address is removed */
#define TT_FRAME_STAT 24	/* struct tt_fstat * of this function in this thread */
#define TT_FRAME_RBX 32		/* caller's %rbx: %rbx holds the frame while the callee runs */
#define TT_FRAME_FUNC 40	/* uint32_t function index */
#define TT_FRAME_CPU 44		/* uint32_t CPU at entry (rseq cpu_id), ~0 unknown */
#define TT_FRAME_CHILD_TICKS 48 /* raw ticks of its traced calls (self time), zeroed at entry */
#define TT_FRAME_CHILD_CALLS 56 /* and their number */
#define TT_FRAME_SIZE 64

/* struct tt_fstat: the trampoline bumps `calls` (and `passed` for a call sampling passes
 * over) itself, counts `skip` down and reloads it from `next_skip` (sampling, hot/sample.h). */
#define TT_FSTAT_CALLS 0
#define TT_FSTAT_SKIP 40
#define TT_FSTAT_NEXT_SKIP 48
#define TT_FSTAT_PASSED 56
#define TT_FSTAT_WARM 36  /* uint32_t: a call has completed in this thread (the exit's fast path) */
#define TT_FSTAT_HIST 112 /* struct tt_hist, recorded into by the exit's fast path */

/* struct tt_hist (report/hist.h), as the exit's fast path records into it. */
#define TT_HIST_COUNT 0
#define TT_HIST_MIN 8
#define TT_HIST_MAX 16
#define TT_HIST_TOTAL 24
#define TT_HIST_COUNTS 32
#define TT_HIST_LINEAR_ASM 1024 /* TT_HIST_LINEAR: one bucket per value below */
#define TT_HIST_SUB_BITS_ASM 7	/* TT_HIST_SUB_BITS: 128 buckets per octave above */

#endif /* TT_TRAMP_LAYOUT_H */
