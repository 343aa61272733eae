/*
 * tramp_body.S - the shared entry and return body of every traced call, one copy per way of
 * reading the TSC (TSC_SERIALIZE), chosen once at start-up: no mode test on the hot path.
 *
 * Register contract
 *   on entry (from a stub): %r11d = function index, the caller's %rax at -8(%rsp) and in %rax
 *     the TLS offset of tt_tls (what tt_tls@gottpoff holds, written into the stub: no load
 *     of it heads the dependent loads of the entry); every argument register is live and
 *     kept:
 *     rdi rsi rdx rcx r8 r9, rax (vector count for varargs), r10 (static chain), all vector
 *     and x87 state (never touched), stack arguments above the return address (never moved).
 *   on return to the caller: rax rdx xmm0 xmm1 st0 st1 as the callee left them; r11, rcx,
 *     rsi, rdi, r8-r10 and the flags are clobbered (all dead after a call by the ABI).
 *
 * Why pop + call + push/ret (docs/method.md): the caller's return address moves from the
 * stack into a shadow frame, so the callee sees exactly the caller's stack (same stack
 * arguments, same alignment) and is entered by a real `call`, so its `ret` is predicted. We
 * leave with `push; ret`, keeping calls and returns balanced for the return predictor. Measured
 * at 1.05x a hand-inlined bracket, where hijacking the return address cost 1.19x.
 *
 * Between the two TSC reads run only: the tail of the entry read (shl/or/store, three loads)
 * and `call`, the callee, and two moves before the exit read. Overhead calibration times an
 * empty function through this same code, so that constant cost is what gets subtracted.
 *
 * While the callee runs, %rbx holds the shadow frame (the callee preserves it, as the ABI
 * says) and the CFI below tells any unwinder that the return address is *(%rbx + RET) and
 * the caller's %rbx is *(%rbx + RBX): backtraces, gdb and C++ exceptions see real frames
 * (an exception thrown through a traced call leaves its shadow frame behind; the next
 * return of an outer traced call, or the report, counts it as unwound).
 *
 * Migrations are seen through the rseq area the kernel keeps per thread (its cpu_id is
 * rewritten whenever the thread comes back to user space on another CPU): one load at entry,
 * one at exit, both outside the timed interval.
 *
 * Signals may arrive between any two instructions and their handlers may make traced calls:
 * the frame is reserved (top bumped in one instruction) before it is written, and it is read
 * completely before it is released (in FAST_EXIT or tt_call_finish). Scratch values live in
 * the red zone, which the kernel skips when it builds a signal frame.
 */
#include <sys/syscall.h>

#include "config/variant.h"
#include "hot/tramp_layout.h"
#include "tramp/asm.h"

#define CLOCK_MONOTONIC_RAW 4

/*
 * This file only defines (macros, no code): tramp_bodies.S lays the bodies out for the shim,
 * and the bench's ladder (bench/ladder/tramp_ladder.S) lays them out again with parts of the
 * timed path taken out. Each part it takes out is a macro of its own, marked "a ladder step"
 * below; BODY_PLACE is where a GOT body starts in its cache line.
 */

/* DW_CFA_expression (0x10) reg, len 2, DW_OP_breg3 (0x73) offset: "reg is saved at rbx+off". */
#define CFI_RA_AT_RBX .cfi_escape 0x10, 0x10, 0x02, 0x73, TT_FRAME_RET
#define CFI_RBX_AT_RBX .cfi_escape 0x10, 0x03, 0x02, 0x73, TT_FRAME_RBX

/* ---- the TSC reads: each leaves the counter in %edx:%eax; END also sets %ecx ---------- */
/* START may clobber %rcx (saved in the red zone) and must keep %rbx and %r11. */

.macro START_READ var
.if \var == TT_VAR_RDTSCP
	lfence
	rdtsc
.elseif \var == TT_VAR_LFENCE
	lfence
	rdtsc
	lfence
.elseif \var == TT_VAR_MFENCE
	mfence
	lfence
	rdtsc
.elseif \var == TT_VAR_CPUID || \var == TT_VAR_CPUID_NORDTSCP
	movq	%rbx, TT_RZ_READ_RBX(%rsp)		/* cpuid clobbers rbx: the frame pointer */
	xorl	%eax, %eax
	cpuid
	movq	TT_RZ_READ_RBX(%rsp), %rbx
	rdtsc
.elseif \var == TT_VAR_MONO
	/* No usable TSC: nanoseconds from the kernel. The syscall clobbers rcx, r11, rax. */
	movq	%rdi, TT_RZ_READ_RDI(%rsp)
	movq	%rsi, TT_RZ_READ_RSI(%rsp)
	movq	%r11, TT_RZ_READ_R11(%rsp)
	leaq	TT_RZ_READ_TS(%rsp), %rsi			/* struct timespec in the red zone */
	movl	$CLOCK_MONOTONIC_RAW, %edi
	movl	$SYS_clock_gettime, %eax
	syscall
	imulq	$1000000000, TT_RZ_READ_TS(%rsp), %rax
	addq	TT_RZ_READ_TS+8(%rsp), %rax
	xorl	%edx, %edx
	movq	TT_RZ_READ_RDI(%rsp), %rdi
	movq	TT_RZ_READ_RSI(%rsp), %rsi
	movq	TT_RZ_READ_R11(%rsp), %r11
.else
	rdtsc
.endif
.endm

/* END: %ecx = TSC_AUX (CPU id) where rdtscp gives it, else 0xffffffff (unknown). */
/* May clobber r8-r11; must keep %rbx, %rsi, %rdi. */
.macro END_READ var, ts=TT_RZ_EXIT_TS
.if \var == TT_VAR_RDTSCP
	rdtscp
	lfence
.elseif \var == TT_VAR_LFENCE
	lfence
	rdtsc
	lfence
	movl	$-1, %ecx
.elseif \var == TT_VAR_MFENCE
	mfence
	lfence
	rdtsc
	movl	$-1, %ecx
.elseif \var == TT_VAR_CPUID
	rdtscp
	movq	%rax, %r8
	movq	%rdx, %r9
	movl	%ecx, %r10d
	movq	%rbx, %r11		/* cpuid clobbers rbx: the frame pointer */
	xorl	%eax, %eax
	cpuid
	movq	%r11, %rbx
	movq	%r8, %rax
	movq	%r9, %rdx
	movl	%r10d, %ecx
.elseif \var == TT_VAR_CPUID_NORDTSCP
	movq	%rbx, %r11
	xorl	%eax, %eax
	cpuid
	movq	%r11, %rbx
	rdtsc
	movl	$-1, %ecx
.elseif \var == TT_VAR_MONO
	movq	%rsi, %r8			/* the return values: the syscall needs rdi, rsi */
	movq	%rdi, %r9
	leaq	\ts(%rsp), %rsi
	movl	$CLOCK_MONOTONIC_RAW, %edi
	movl	$SYS_clock_gettime, %eax
	syscall
	imulq	$1000000000, \ts(%rsp), %rax
	addq	\ts+8(%rsp), %rax
	xorl	%edx, %edx
	movq	%r8, %rsi
	movq	%r9, %rdi
	movl	$-1, %ecx
.else
	rdtsc
	movl	$-1, %ecx
.endif
.endm

/* The guard (a ladder step): the shim's own call, or a signal handler's within it. */
.macro GUARD_TEST shim
	cmpb	$0, %fs:TT_TLS_IN_SHIM(%rax)
	jne	\shim
.endm

/* The sampling countdown (a ladder step): on to `timed` when it was zero. */
.macro COUNTDOWN timed
	subq	$1, TT_FUNC_STATS_SKIP(%rdx)		/* owner-only countdown, one instruction */
	jb	\timed				/* it was zero */
.endm

/*
 * ---- the entry shared by both bodies: up to the sampling decision -----------------------
 * In: %r11d = index. Saves rax, rcx, rdx at -8/-16/-24(%rsp) first. Out, falling through:
 * %rax = the TLS offset, %rdx = this function's counters in this thread, and the call is one
 * sampling passes over (its countdown was above zero, and is now one less); or a jump to
 * `timed` (the countdown was zero: time this one), `shim` (the guard is up: see SHIM_CALL) or
 * `slow` (first call in this thread or function), with %rsp untouched. No fence, no clock
 * read before the decision (hot/sample.h). With sampling off the countdown stays at zero:
 * one `sub` and a jump taken every time.
 */
.macro PROLOGUE shim, slow, timed, stub=0
.if \stub
	/* The stub saved rax and put tt_tls's TLS offset in it: no load for it. */
	movq	%rcx, TT_RZ_RCX(%rsp)
	movq	%rdx, TT_RZ_RDX(%rsp)
.else
	movq	%rax, TT_RZ_RAX(%rsp)
	movq	%rcx, TT_RZ_RCX(%rsp)
	movq	%rdx, TT_RZ_RDX(%rsp)
	movq	tt_tls@gottpoff(%rip), %rax
.endif
	GUARD_TEST \shim
	cmpl	%fs:TT_TLS_NSTATS(%rax), %r11d
	jae	\slow				/* no thread setup yet, or a function added since */
	movq	%fs:TT_TLS_STATS(%rax), %rdx
	movq	(%rdx,%r11,8), %rdx
	testq	%rdx, %rdx
	jz	\slow				/* first call of this function in this thread */
	COUNTDOWN \timed
.endm

/* FRAME_ENTER's parts the ladder takes out: %rax = the TLS offset, %rdx = the counters and,
 * after COUNTDOWN_RELOAD, %rcx = the frame. */
/* The countdown set to the one drawn for after this call (a ladder step); clobbers %rcx. */
.macro COUNTDOWN_RELOAD
	movq	TT_FUNC_STATS_NEXT_SKIP(%rdx), %rcx
	movq	%rcx, TT_FUNC_STATS_SKIP(%rdx)
.endm

/* The shadow stack's limit (a ladder step). */
.macro LIMIT_TEST slow
	cmpq	%fs:TT_TLS_LIMIT(%rax), %rcx
	jae	\slow				/* shadow stack full, or no TSC for this thread */
.endm

/* The call counted; the frame told whose it is (a ladder step). */
.macro COUNT_AND_NAME
	incq	TT_FUNC_STATS_CALLS(%rdx)			/* owner-only counter, no lock */
	movq	%rdx, TT_FRAME_STAT(%rcx)
	movl	%r11d, TT_FRAME_FUNC(%rcx)
.endm

/* The frame's children and CPU number (a ladder step); clobbers %rdx. */
.macro FRAME_FIELDS
	movq	$0, TT_FRAME_CHILD_TICKS(%rcx)	/* the traced calls it makes add here */
	movq	$0, TT_FRAME_CHILD_CALLS(%rcx)
	movq	%fs:TT_TLS_CPU_NOW(%rax), %rdx	/* CPU now, for the migration check at exit */
	movl	(%rdx), %edx
	movl	%edx, TT_FRAME_CPU(%rcx)
.endm

/* The integer arguments (a ladder step); clobbers %rax. */
.macro STORE_ARGS
	/* For a call kept among the slowest (hot/slow_calls.h): stores only, before the first
	 * read; rcx and rdx are where PROLOGUE parked them. */
	movq	%rdi, TT_FRAME_ARGS(%rcx)
	movq	%rsi, TT_FRAME_ARGS+8(%rcx)
	movq	TT_RZ_RDX(%rsp), %rax
	movq	%rax, TT_FRAME_ARGS+16(%rcx)
	movq	TT_RZ_RCX(%rsp), %rax
	movq	%rax, TT_FRAME_ARGS+24(%rcx)
	movq	%r8, TT_FRAME_ARGS+32(%rcx)
	movq	%r9, TT_FRAME_ARGS+40(%rcx)
.endm

/*
 * ---- a call to time (or, with TSC_CALLERS, one passed over that still needs its end) -----
 * In: as PROLOGUE leaves it. `reload`: set the countdown to the one drawn for after this
 * timed call (first, so that no path leaves it at its borrowed value). Out: %rbx = the shadow
 * frame (reserved, filled), %r11 = the target, %rsp moved up by 8 (the caller's stack), the
 * CFI saying so; or a jump to `slow` (the shadow stack full, or the thread may not read the
 * TSC) with %rsp untouched.
 */
.macro FRAME_ENTER slow, reload
.if \reload
	COUNTDOWN_RELOAD
.endif
	movq	%fs:TT_TLS_TOP(%rax), %rcx
	LIMIT_TEST \slow
	addq	$TT_FRAME_SIZE, %fs:TT_TLS_TOP(%rax)	/* reserve: one instruction */
	COUNT_AND_NAME
	movq	TT_FUNC_STATS_WORDS(%rdx), %r11	/* the function's words: its target, below */
	FRAME_FIELDS
	movq	%rbx, TT_FRAME_RBX(%rcx)
	STORE_ARGS
	movq	(%rsp), %rax
	movq	%rax, TT_FRAME_RET(%rcx)
	leaq	8(%rsp), %rax
	movq	%rax, TT_FRAME_SP(%rcx)
	movq	%rcx, %rbx
	CFI_RA_AT_RBX
	CFI_RBX_AT_RBX
	movq	TT_WORDS_TARGET(%r11), %r11
	leaq	8(%rsp), %rsp			/* the callee sees the caller's stack */
	/*
	 * This frame now occupies no stack. Unwinders name a frame by its CFA, and libgcc
	 * aborts a throw when two frames share one, so the CFA is put 8 above %rsp (where the
	 * return address used to be) and the caller's %rsp is stated explicitly.
	 */
	.cfi_def_cfa_offset 8
	.cfi_val_offset %rsp, -8
.endm

/*
 * Function %r11d's words with no counters at hand (the guarded paths): %rax = its chunk,
 * %rcx = the offset in it (func_table.h, base/chunked.h). Clobbers rax, rcx; keeps r11.
 */
.if TT_WORDS_CHUNK_BITS != 16
.error "WORDS_OF_INDEX takes the offset in a chunk with movzwl: 16 bits"
.endif
.macro WORDS_OF_INDEX
	movl	%r11d, %ecx
	shrl	$TT_WORDS_CHUNK_BITS, %ecx
	leaq	tt_func_words_table(%rip), %rax
	movq	(%rax,%rcx,8), %rax
	movzwl	%r11w, %ecx
	shlq	$TT_WORDS_SHIFT, %rcx
.endm

/*
 * The guard is up (FRAME_ENTER jumped to `shim` with %rax = the TLS offset): the shim's own
 * call, passed through uncounted; or a call from a program's signal handler that interrupted
 * the shim (signals.c), counted, not timed (the shim's state may be mid-change), with one
 * atomic add: the interrupted code may be about to add to the same counter; or a call on a
 * block a clone(CLONE_VM) child shares (TT_IN_SHARED), which the slow path's C counts and
 * passes through, or lets in again once the child is gone. Else falls through to the
 * body's guarded path. None of this is on the timed path: the guard's test is there anyway.
 */
.macro SHIM_CALL slow
	cmpb	$TT_IN_SHARED, %fs:TT_TLS_IN_SHIM(%rax)
	je	\slow
	cmpb	$TT_IN_HANDLER, %fs:TT_TLS_IN_SHIM(%rax)
	jne	1f
	WORDS_OF_INDEX
	lock incq TT_WORDS_HANDLER(%rax,%rcx)
1:
.endm

/*
 * ---- the slow path shared by both bodies --------------------------------------------------
 * First call of a function in a thread, no thread setup yet, or the shadow stack full:
 * tt_call_first (C, general registers only, raw syscalls only) sets things up, then the fast
 * path is taken from the top, or the call goes straight through (the guarded path). Entered
 * with %rsp as at the body's entry and rax, rcx, rdx saved at -8/-16/-24(%rsp). The word at
 * TT_RZ_R11(%rsp), where an inline entry keeps the caller's r11, is carried across the C call,
 * which would overwrite it (for a GOT entry it is dead and the copy does no harm).
 */
.macro SLOW_PATH name, guarded, stub=0
	movq	TT_RZ_RAX(%rsp), %rax
	movq	TT_RZ_RCX(%rsp), %rcx
	movq	TT_RZ_RDX(%rsp), %rdx
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	pushq	%rdi
	pushq	%rsi
	pushq	%rdx
	pushq	%rcx
	pushq	%r8
	pushq	%r9
	pushq	%rax
	pushq	%r10
	pushq	%r11
	pushq	TT_RZ_R11+8(%rbp)
	andq	$-16, %rsp
	movl	%r11d, %edi
	leaq	16(%rbp), %rsi			/* the caller's %rsp once our return is popped */
	call	tt_call_first
	movl	%eax, TT_SLOW_ANSWER(%rbp)			/* below the saved registers */
	leaq	-TT_SLOW_SAVED(%rbp), %rsp
	popq	%r11
	popq	%r10
	popq	%rax
	popq	%r9
	popq	%r8
	popq	%rcx
	popq	%rdx
	popq	%rsi
	popq	%rdi
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbp
	pushq	TT_SLOW_CARRIED-8(%rsp)			/* the carried word back to its red-zone place */
	popq	TT_RZ_R11(%rsp)
	cmpl	$0, TT_SLOW_ANSWER-8(%rsp)			/* tt_call_first's answer, now in the red zone */
.if \stub
	jne	1f
	movq	%rax, TT_RZ_RAX(%rsp)			/* ready: the fast path, entered as from a stub */
	movq	tt_tls@gottpoff(%rip), %rax
	jmp	\name
1:
.else
	je	\name				/* ready: take the fast path */
.endif
	movq	%rax, TT_RZ_RAX(%rsp)			/* not traced this time: straight through */
	movq	%rcx, TT_RZ_RCX(%rsp)
	movq	%rdx, TT_RZ_RDX(%rsp)
	jmp	\guarded
.endm

/* The first read, into the frame; then rax, rcx, rdx back as the caller left them (the read
 * clobbered them; FRAME_ENTER parked them below %rsp). */
.macro ENTRY_READ var
	START_READ \var
	shlq	$32, %rdx
	orq	%rdx, %rax
	movq	%rax, TT_FRAME_START(%rbx)
	movq	TT_RZ_RAX-8(%rsp), %rax
	movq	TT_RZ_RCX-8(%rsp), %rcx
	movq	TT_RZ_RDX-8(%rsp), %rdx
.endm

/*
 * FAST_EXIT's tests (a ladder step): on to `general` unless the call is simply timed. In:
 * %rax = raw ticks, %rbx = the frame. Out: %r8 = the TLS offset, %rdx = the counters.
 */
.macro EXIT_TESTS general
	cmpb	$0, tt_exit_in_c(%rip)
	jne	\general			/* TSC_CALLERS, TSC_CPU or sampling: C decides */
	movq	tt_tls@gottpoff(%rip), %r8
	movq	TT_FRAME_STAT(%rbx), %rdx
	cmpq	TT_FUNC_STATS_SLOW_FLOOR(%rdx), %rax
	ja	\general			/* slow enough to be kept (slow_calls.h) */
	movl	TT_FRAME_CPU(%rbx), %r9d
	movq	%fs:TT_TLS_CPU_NOW(%r8), %r10
	cmpl	(%r10), %r9d
	jne	\general			/* migrated during the call */
	cmpl	$-1, %r9d
	je	\general			/* no rseq: TSC_AUX decides, in C */
	cmpq	$0, TT_FRAME_CHILD_CALLS(%rbx)
	jne	\general			/* made traced calls: self time */
	cmpl	$0, TT_FUNC_STATS_WARM(%rdx)
	je	\general			/* the thread's first call of it: cold */
	leaq	TT_FRAME_SIZE(%rbx), %r9
	cmpq	%fs:TT_TLS_TOP(%r8), %r9
	jne	\general			/* frames left above it (longjmp, exceptions) */
	cmpb	$0, %fs:TT_TLS_IN_SHIM(%r8)
	jne	\general			/* a vfork child: the parent will return here */
.endm

/*
 * FAST_EXIT's recording (a ladder step): into the histogram, and the ticks into the frame
 * below. In: %rax = raw ticks, %rdx = the counters, %r9 = this frame. Clobbers rcx, r10.
 */
.macro EXIT_RECORD
	/* tt_hist_record: the value's own bucket below 1024, else 128 per octave:
	 * e = top bit, c = e - 7, bucket = 1024 + (e - 10) * 128 + (v >> c) - 128
	 *				  = 128 c + 512 + (v >> c). */
	movq	%rax, %r10
	cmpq	$TT_HIST_LINEAR_ASM, %rax
	jb	1f
	bsrq	%rax, %rcx
	subl	$TT_HIST_SUB_BITS_ASM, %ecx
	shrq	%cl, %r10
	shll	$TT_HIST_SUB_BITS_ASM, %ecx
	leaq	512(%r10,%rcx), %r10
1:	incq	TT_FUNC_STATS_HIST+TT_HIST_COUNTS(%rdx,%r10,8)
	incq	TT_FUNC_STATS_HIST+TT_HIST_COUNT(%rdx)
	addq	%rax, TT_FUNC_STATS_HIST+TT_HIST_TOTAL(%rdx)
	cmpq	TT_FUNC_STATS_HIST+TT_HIST_MIN(%rdx), %rax
	jae	2f
	movq	%rax, TT_FUNC_STATS_HIST+TT_HIST_MIN(%rdx)
2:	cmpq	TT_FUNC_STATS_HIST+TT_HIST_MAX(%rdx), %rax
	jbe	3f
	movq	%rax, TT_FUNC_STATS_HIST+TT_HIST_MAX(%rdx)
3:	addq	%rax, TT_FRAME_CHILD_TICKS-TT_FRAME_SIZE(%r9)	/* the caller's self time */
	incq	TT_FRAME_CHILD_CALLS-TT_FRAME_SIZE(%r9)
.endm

/*
 * ---- the end of a timed call, without C ------------------------------------------------
 * In: %rax = raw ticks, %ecx = CPU id, %rbx = the frame, CFI as after the callee returned.
 * The common case, a call that is simply timed, is recorded here: into its histogram, and its
 * ticks into the frame below (its traced caller's children, or the thread's floor frame),
 * then the frame is released and the return address pushed back. Anything else (TSC_CALLERS,
 * sampling, a TSC_CPU exit, a migration or an unknown CPU, a first call, a call that made
 * traced calls, frames abandoned above this one, a vfork child) jumps to `general`, the C
 * exit, with rax, ecx, rbx and the registers not named here as they came. Clobbers rdx,
 * r8-r11 and, once past the tests, rcx. Leaves %rsp = the caller's, return address on top,
 * %rbx = the caller's, CFI saying so; the body then restores what it kept and returns.
 */
.macro FAST_EXIT general
	EXIT_TESTS \general
	.cfi_remember_state
	pushq	TT_FRAME_RET(%rbx)		/* the return address back where `ret` wants it */
	.cfi_def_cfa_offset 8
	.cfi_restore %rsp
	.cfi_offset %rip, -8
	movq	%rbx, %r9
	movq	TT_FRAME_RBX(%rbx), %rbx
	.cfi_restore %rbx
	movq	%r9, %fs:TT_TLS_TOP(%r8)	/* released: everything of it has been read */
	EXIT_RECORD
.endm

/* ---- one body per variant ---------------------------------------------------------------- */
/* Where a GOT body starts: `pad` bytes past a 64-byte boundary (the ladder moves it on). */
.macro BODY_PLACE pad
	.p2align 6		/* each body laid out alike in its cache lines, whatever precedes it */
.if \pad & 63
	.skip	\pad & 63, 0xcc	/* never executed: where the body starts in its line */
.endif
.endm

.macro BODY var, name, pad=0
	BODY_PLACE \pad
TT_ENTRY_HERE(\name)
	.cfi_startproc
	/* CFA = rsp + 8, return address at (%rsp): a normal function entry. */
	PROLOGUE .Lshim_\@, .Lslow_\@, .Ltimed_\@, 1
	/* Passed over by sampling: counted, then on to the function as if never stopped. */
	cmpb	$0, tt_sample_framed(%rip)
	jne	.Lframed_\@
.Lcounted_\@:
	incq	TT_FUNC_STATS_CALLS(%rdx)
	incq	TT_FUNC_STATS_PASSED(%rdx)
	movq	TT_FUNC_STATS_WORDS(%rdx), %r11
	movq	TT_WORDS_TARGET(%r11), %r11
	movq	TT_RZ_RAX(%rsp), %rax
	movq	TT_RZ_RDX(%rsp), %rdx
	jmp	*%r11

.Ltimed_\@:
	/* Also entered from a counting stub (hook/slot_code.c) as PROLOGUE leaves it. */
	.globl	\name\()_timed
	.hidden	\name\()_timed
\name\()_timed:
	FRAME_ENTER .Lslow_\@, 1
	ENTRY_READ \var
	call	*%r11
	/* rax rdx xmm0 xmm1 st0 st1 hold the result; rbx = our frame (callee-saved). */
	movq	%rax, %rsi
	movq	%rdx, %rdi
	END_READ \var
	shlq	$32, %rdx
	orq	%rdx, %rax
	subq	TT_FRAME_START(%rbx), %rax	/* raw ticks of this call */
	FAST_EXIT .Lexit_\@
	movq	%rsi, %rax
	movq	%rdi, %rdx
	ret
	.cfi_restore_state
.Lexit_\@:				/* %rax = raw, %ecx = CPU id, result in rsi, rdi */
	movq	%rsi, TT_FRAME_RETVAL(%rbx)	/* for a call kept among the slowest */
	pushq	TT_FRAME_RET(%rbx)		/* the return address back where `ret` wants it */
	.cfi_def_cfa_offset 8
	.cfi_restore %rsp
	.cfi_offset %rip, -8
	pushq	%rsi
	.cfi_adjust_cfa_offset 8
	pushq	%rdi
	.cfi_adjust_cfa_offset 8
	movq	%rax, %rsi
	movl	%ecx, %edx
	movq	%rbx, %rdi
	movq	TT_FRAME_RBX(%rbx), %rbx
	.cfi_restore %rbx
	subq	$8, %rsp			/* 16-byte alignment for C */
	.cfi_adjust_cfa_offset 8
	call	*tt_exit_fn(%rip)		/* tt_call_exit (frame, raw ticks, cpu id), or the
						   TSC_CALLERS=N path: pops and records */
	addq	$8, %rsp
	.cfi_adjust_cfa_offset -8
	popq	%rdx
	.cfi_adjust_cfa_offset -8
	popq	%rax
	.cfi_adjust_cfa_offset -8
	ret

.Lframed_\@:				/* passed over, with TSC_CALLERS: a frame, no read */
	cmpq	$0, TT_FUNC_STATS_SKIP(%rdx)
	js	.Lcounted_\@			/* count-only (TT_COUNT_ONLY_SKIP): never a frame */
	.cfi_remember_state
	FRAME_ENTER .Lslow_\@, 0
	movq	$0, TT_FRAME_START(%rbx)	/* start 0: tt_call_finish counts it sampled */
	movq	TT_RZ_RAX-8(%rsp), %rax
	movq	TT_RZ_RCX-8(%rsp), %rcx
	movq	TT_RZ_RDX-8(%rsp), %rdx
	call	*%r11
	movq	%rax, %rsi
	movq	%rdx, %rdi
	xorl	%eax, %eax
	movl	$-1, %ecx
	jmp	.Lexit_\@
	.cfi_restore_state

.Lshim_\@:
	SHIM_CALL .Lslow_\@
.Lguarded_\@:				/* the shim's own call: straight to the function */
	WORDS_OF_INDEX
	movq	TT_WORDS_TARGET(%rax,%rcx), %r11
	movq	TT_RZ_RCX(%rsp), %rcx
	movq	TT_RZ_RDX(%rsp), %rdx
	movq	TT_RZ_RAX(%rsp), %rax
	jmp	*%r11

.Lslow_\@:
	SLOW_PATH \name, .Lguarded_\@, 1
	.cfi_endproc
TT_END(\name)
.endm


/*
 * ---- the inline-hook body: the same, keeping every general register ----------------------
 *
 * A patched function is also reached by direct calls, and a caller that binds to its callee
 * at link time may keep values in call-clobbered registers the callee is known not to
 * touch (gcc -fipa-ra, on at -O2). So here nothing may change but what the function itself
 * changes: the callee is entered with all of the caller's registers, r11 included (the pool
 * slot saved it at -112(%rsp) before loading the index), and every register it returns with
 * is kept through the exit work. Only the flags differ, which no caller keeps across a call.
 *
 * Entry (from a pool slot, see inline.c): %r11d = index, the caller's %r11 at -112(%rsp).
 * The `_timed` entry: the same, and the registers as PROLOGUE leaves them for a call to time.
 */

/* The caller-saved registers other than rax, rdx, rcx, below S (see IBODY's exit). */
.macro SAVE_REST
	movq	%rsi, TT_XS_RSI(%rsp)
	movq	%rdi, TT_XS_RDI(%rsp)
	movq	%r8, TT_XS_R8(%rsp)
	movq	%r9, TT_XS_R9(%rsp)
	movq	%r10, TT_XS_R10(%rsp)
	movq	%r11, TT_XS_R11(%rsp)
.endm

.macro IBODY var, name
TT_ENTRY(\name)
	.cfi_startproc
	PROLOGUE .Lishim_\@, .Lislow_\@, .Litimed_\@
	/* Passed over by sampling: counted, then on with every register as the caller left it. */
	cmpb	$0, tt_sample_framed(%rip)
	jne	.Liframed_\@
.Licounted_\@:
	incq	TT_FUNC_STATS_CALLS(%rdx)
	incq	TT_FUNC_STATS_PASSED(%rdx)
	movq	TT_FUNC_STATS_WORDS(%rdx), %rax
	movq	TT_WORDS_TARGET(%rax), %rax
	movq	%rax, TT_RZ_JUMP(%rsp)
	movq	TT_RZ_RAX(%rsp), %rax
	movq	TT_RZ_RDX(%rsp), %rdx
	movq	TT_RZ_R11(%rsp), %r11
	jmp	*TT_RZ_JUMP(%rsp)

.Litimed_\@:
	/* Also entered from a counting slot head (hook/slot_code.c) as PROLOGUE leaves it: the
	 * countdown there ran out. */
	.globl	\name\()_timed
	.hidden	\name\()_timed
\name\()_timed:
	FRAME_ENTER .Lislow_\@, 1
	/* Before the first read (no read touches r11 or TT_RZ_TARGET(%rsp) for good): the target, for a
	 * memory-indirect call, and the caller's r11 back in place. */
	movq	%r11, TT_RZ_TARGET(%rsp)
	movq	TT_RZ_R11-8(%rsp), %r11
	ENTRY_READ \var
	call	*TT_RZ_TARGET(%rsp)
	/* Everything the callee left is kept: S = %rsp now (16-aligned), saves below it. Only
	 * what the second read clobbers is saved before it, so the timed interval stays short. */
	movq	%rax, TT_XS_RAX(%rsp)
	movq	%rdx, TT_XS_RDX(%rsp)
	movq	%rcx, TT_XS_RCX(%rsp)
.if \var == TT_VAR_CPUID || \var == TT_VAR_CPUID_NORDTSCP || \var == TT_VAR_MONO
	SAVE_REST				/* these reads use r8-r11 (and rsi, rdi) too */
	END_READ \var, TT_RZ_TARGET
.else
	END_READ \var, TT_RZ_TARGET
	SAVE_REST
.endif
	shlq	$32, %rdx
	orq	%rdx, %rax
	subq	TT_FRAME_START(%rbx), %rax	/* raw ticks of this call */
	FAST_EXIT .Liexit_\@
	movq	TT_XS_RAX+8(%rsp), %rax			/* what the callee left (saved at S - 16 ...) */
	movq	TT_XS_RDX+8(%rsp), %rdx
	movq	TT_XS_RCX+8(%rsp), %rcx
	movq	TT_XS_R8+8(%rsp), %r8
	movq	TT_XS_R9+8(%rsp), %r9
	movq	TT_XS_R10+8(%rsp), %r10
	movq	TT_XS_R11+8(%rsp), %r11
	ret
	.cfi_restore_state
.Liexit_\@:				/* %rax = raw, %ecx = CPU id, registers saved below */
	subq	$TT_XS_SIZE, %rsp		/* the saves are now in our frame */
	.cfi_adjust_cfa_offset TT_XS_SIZE
	movq	TT_FRAME_RET(%rbx), %rsi
	movq	%rsi, TT_XS_SIZE-8(%rsp)	/* the return address at S - 8 */
	movq	TT_XS_SIZE+TT_XS_RAX(%rsp), %rsi
	movq	%rsi, TT_FRAME_RETVAL(%rbx)	/* for a call kept among the slowest */
	.cfi_def_cfa_offset TT_XS_SIZE
	.cfi_restore %rsp
	.cfi_offset %rip, -8
	movq	%rax, %rsi
	movl	%ecx, %edx
	movq	%rbx, %rdi
	movq	TT_FRAME_RBX(%rbx), %rbx
	.cfi_restore %rbx
	call	*tt_exit_fn(%rip)
	movq	TT_XS_SIZE+TT_XS_RAX(%rsp), %rax
	movq	TT_XS_SIZE+TT_XS_RDX(%rsp), %rdx
	movq	TT_XS_SIZE+TT_XS_RCX(%rsp), %rcx
	movq	TT_XS_SIZE+TT_XS_RSI(%rsp), %rsi
	movq	TT_XS_SIZE+TT_XS_RDI(%rsp), %rdi
	movq	TT_XS_SIZE+TT_XS_R8(%rsp), %r8
	movq	TT_XS_SIZE+TT_XS_R9(%rsp), %r9
	movq	TT_XS_SIZE+TT_XS_R10(%rsp), %r10
	movq	TT_XS_SIZE+TT_XS_R11(%rsp), %r11
	addq	$TT_XS_SIZE-8, %rsp
	.cfi_def_cfa_offset 8
	ret

.Liframed_\@:				/* passed over, with TSC_CALLERS: a frame, no read */
	cmpq	$0, TT_FUNC_STATS_SKIP(%rdx)
	js	.Licounted_\@			/* count-only (TT_COUNT_ONLY_SKIP): never a frame */
	.cfi_remember_state
	FRAME_ENTER .Lislow_\@, 0
	movq	%r11, TT_RZ_TARGET(%rsp)
	movq	TT_RZ_R11-8(%rsp), %r11
	movq	$0, TT_FRAME_START(%rbx)	/* start 0: tt_call_finish counts it sampled */
	movq	TT_RZ_RAX-8(%rsp), %rax
	movq	TT_RZ_RCX-8(%rsp), %rcx
	movq	TT_RZ_RDX-8(%rsp), %rdx
	call	*TT_RZ_TARGET(%rsp)
	movq	%rax, TT_XS_RAX(%rsp)
	movq	%rdx, TT_XS_RDX(%rsp)
	movq	%rcx, TT_XS_RCX(%rsp)
	SAVE_REST
	xorl	%eax, %eax
	movl	$-1, %ecx
	jmp	.Liexit_\@
	.cfi_restore_state

.Lishim_\@:
	SHIM_CALL .Lislow_\@
.Liguarded_\@:				/* the shim's own call: straight to the function */
	WORDS_OF_INDEX
	movq	TT_WORDS_TARGET(%rax,%rcx), %rax
	movq	%rax, TT_RZ_JUMP(%rsp)
	movq	TT_RZ_RAX(%rsp), %rax
	movq	TT_RZ_RCX(%rsp), %rcx
	movq	TT_RZ_RDX(%rsp), %rdx
	movq	TT_RZ_R11(%rsp), %r11
	jmp	*TT_RZ_JUMP(%rsp)

.Lislow_\@:
	SLOW_PATH \name, .Liguarded_\@
	.cfi_endproc
TT_END(\name)
.endm

/* Every body, one per variant, between two labels (in .text). */
.macro BODIES
	.globl	tt_bodies_start
	.hidden	tt_bodies_start
tt_bodies_start:			/* interpose.c: is a return address in a body? */
BODY TT_VAR_RDTSCP, tt_body_rdtscp
/* 8 bytes on: on the AMD EPYC VM (Zen 3) the lfence body so laid out costs 6 ticks less per
 * call than at its line's start; rdtscp, the default wherever CPUID announces it, is at its
 * best at 0 there. A layout, not a law: `make -C bench ladder` shows each body's best again
 * whenever the bodies change. */
BODY TT_VAR_LFENCE, tt_body_lfence, 8
BODY TT_VAR_MFENCE, tt_body_mfence
BODY TT_VAR_CPUID, tt_body_cpuid
BODY TT_VAR_CPUID_NORDTSCP, tt_body_cpuid_nordtscp
BODY TT_VAR_NONE, tt_body_none
BODY TT_VAR_MONO, tt_body_mono
IBODY TT_VAR_RDTSCP, tt_ibody_rdtscp
IBODY TT_VAR_LFENCE, tt_ibody_lfence
IBODY TT_VAR_MFENCE, tt_ibody_mfence
IBODY TT_VAR_CPUID, tt_ibody_cpuid
IBODY TT_VAR_CPUID_NORDTSCP, tt_ibody_cpuid_nordtscp
IBODY TT_VAR_NONE, tt_ibody_none
IBODY TT_VAR_MONO, tt_ibody_mono
	.globl	tt_bodies_end
	.hidden	tt_bodies_end
tt_bodies_end:
.endm

/*
 * ---- the return of a call whose thread forbade itself the TSC meanwhile (notsc.c) --------
 * The function returns here instead of into its body, which would read the TSC and fault.
 * As in the body after `call`: %rsp is the caller's stack without its return address and
 * %rbx the shadow frame. Every general register the function left is kept (an inline-hooked
 * function's caller may rely on any of them); tt_call_untimed (general registers only)
 * counts the call and releases the frame.
 */
.macro UNTIMED_RETURN
TT_ENTRY(tt_untimed_return)
	.cfi_startproc
	.cfi_def_cfa %rsp, 0
	CFI_RA_AT_RBX
	CFI_RBX_AT_RBX
	pushq	TT_FRAME_RET(%rbx)		/* the caller's return address, for our ret */
	.cfi_def_cfa_offset 8
	.cfi_offset %rip, -8
	.cfi_restore %rbx
	pushq	%rax
	.cfi_adjust_cfa_offset 8
	pushq	%rcx
	.cfi_adjust_cfa_offset 8
	pushq	%rdx
	.cfi_adjust_cfa_offset 8
	pushq	%rsi
	.cfi_adjust_cfa_offset 8
	pushq	%rdi
	.cfi_adjust_cfa_offset 8
	pushq	%r8
	.cfi_adjust_cfa_offset 8
	pushq	%r9
	.cfi_adjust_cfa_offset 8
	pushq	%r10
	.cfi_adjust_cfa_offset 8
	pushq	%r11
	.cfi_adjust_cfa_offset 8	/* 10 words: %rsp 16-aligned again, as at the call */
	movq	%rbx, %rdi
	movq	TT_FRAME_RBX(%rbx), %rbx	/* read before the frame is released */
	call	tt_call_untimed
	popq	%r11
	.cfi_adjust_cfa_offset -8
	popq	%r10
	.cfi_adjust_cfa_offset -8
	popq	%r9
	.cfi_adjust_cfa_offset -8
	popq	%r8
	.cfi_adjust_cfa_offset -8
	popq	%rdi
	.cfi_adjust_cfa_offset -8
	popq	%rsi
	.cfi_adjust_cfa_offset -8
	popq	%rdx
	.cfi_adjust_cfa_offset -8
	popq	%rcx
	.cfi_adjust_cfa_offset -8
	popq	%rax
	.cfi_adjust_cfa_offset -8
	ret
	.cfi_endproc
TT_END(tt_untimed_return)
.endm
