/*
 * callers_exit.S - the return path for TSC_CALLERS=N>1 (tt_exit_fn points here then).
 *
 * A path the cached frame rules give (hot/frame_rules.h) is taken first, by C that uses
 * general registers only (tt_callers_exit_fast), and the call recorded: nothing more to do.
 * Otherwise taking a call path means running libunwind, which is ordinary C: it may use any vector
 * register, while the traced function's return value may still sit in xmm0/xmm1 (or
 * ymm/zmm, or st0/st1). So the whole extended state is saved with xsave around the C part,
 * and restored with xrstor. With an unwind of 8 frames this adds ~240 ns a call here,
 * outside the timed interval: the price of asking for call paths.
 *
 * The unwind and the xsave area (2.5 KiB with AVX-512) run on the thread's unwind stack
 * (hot/unwind_stack.h), not the program's: a thread with a small stack, or a handler on a
 * small sigaltstack, has room for the ~60 bytes used here and little more.
 *
 * In: rdi = frame, rsi = raw ticks, edx = CPU id (tt_call_exit's arguments), passed on to
 * the C function tt_callers_exit_c points at (set at start-up with tt_xsave_bytes): through a
 * pointer, so that this layer calls no C above the hot path.
 */
#include "tramp/asm.h"

	.text
/* void tt_callers_exit_xsave(struct tt_frame *, uint64_t raw, uint32_t aux) */
TT_ENTRY(tt_callers_exit_xsave)
	.cfi_startproc
	TT_FRAME_POINTER
	pushq	%rbx
	.cfi_offset %rbx, -24
	pushq	%r12
	.cfi_offset %r12, -32
	pushq	%r13
	.cfi_offset %r13, -40
	pushq	%r14
	.cfi_offset %r14, -48
	movq	%rdi, %rbx
	movq	%rsi, %r12
	movl	%edx, %r13d
	call	tt_unwind_stack_claim		/* general registers only: vector state intact */
	testq	%rax, %rax
	jz	.Lnostack
	movq	%rax, %r14
	movq	%rax, %rsp			/* the thread's unwind stack: %rbp (and the CFI,
						   through it) keeps the way back */
	movq	%rbx, %rdi
	movq	%r12, %rsi
	movl	%r13d, %edx
	movq	(%rbp), %rcx			/* the caller's %rbp: the function restored it */
	call	tt_callers_exit_fast		/* general registers only: 1 when it recorded */
	testl	%eax, %eax
	jnz	.Lrecorded
	subq	tt_xsave_bytes(%rip), %rsp	/* CPUID 0DH:EBX, set at start-up */
	andq	$-64, %rsp			/* xsave wants 64-byte alignment */
	xorl	%eax, %eax			/* the header must start zeroed for xrstor */
	movq	%rax, 512(%rsp)
	movq	%rax, 520(%rsp)
	movq	%rax, 528(%rsp)
	movq	%rax, 536(%rsp)
	movq	%rax, 544(%rsp)
	movq	%rax, 552(%rsp)
	movq	%rax, 560(%rsp)
	movq	%rax, 568(%rsp)
	movl	$-1, %eax			/* every state component */
	movl	$-1, %edx
	xsave	(%rsp)
	movq	%rbx, %rdi
	movq	%r12, %rsi
	movl	%r13d, %edx
	call	*tt_callers_exit_c(%rip)
	movl	$-1, %eax
	movl	$-1, %edx
	xrstor	(%rsp)
.Lrecorded:
	leaq	-32(%rbp), %rsp			/* back on the program's stack, then give the
						   unwind stack back (a handler may take it) */
	movq	%r14, %rdi
	call	tt_unwind_stack_release		/* general registers only */
	jmp	.Lout
.Lnostack:					/* in use by the code a handler interrupted */
	movq	%rbx, %rdi
	movq	%r12, %rsi
	movl	%r13d, %edx
	call	tt_callers_exit_nostack		/* general registers only: no xsave needed */
.Lout:
	leaq	-32(%rbp), %rsp
	popq	%r14
	popq	%r13
	popq	%r12
	popq	%rbx
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbp
	.cfi_restore %rbx
	.cfi_restore %r12
	.cfi_restore %r13
	.cfi_restore %r14
	ret
	.cfi_endproc
TT_END(tt_callers_exit_xsave)

	.bss
TT_QUAD(tt_xsave_bytes)		/* CPUID 0DH:EBX plus alignment room */
TT_QUAD(tt_callers_exit_c)	/* void (*)(struct tt_frame *, uint64_t raw, uint32_t aux) */

	.section .note.GNU-stack, "", @progbits
