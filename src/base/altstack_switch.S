/*
 * altstack_switch.S - void tt_altstack_call(void *top, void (*fn)(void *), void *arg): call
 * fn(arg) with %rsp at top (16-byte aligned), then return on the caller's stack. The frame
 * pointer keeps the way back, and the unwind information says so (a debugger or a profiler
 * walking out of fn finds the caller).
 */
	.text
	.globl	tt_altstack_call
	.hidden	tt_altstack_call
	.type	tt_altstack_call, @function
	.p2align 4
tt_altstack_call:
	.cfi_startproc
	endbr64
	pushq	%rbp
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rbp, 0
	movq	%rsp, %rbp
	.cfi_def_cfa_register %rbp
	movq	%rdi, %rsp
	andq	$-16, %rsp
	movq	%rdx, %rdi
	call	*%rsi
	movq	%rbp, %rsp
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	ret
	.cfi_endproc
	.size	tt_altstack_call, .-tt_altstack_call

	.section .note.GNU-stack, "", @progbits
