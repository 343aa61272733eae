/*
 * trapfn.S - t_trap's short static functions, each too short for the inline jump and followed
 * directly by other code (no padding to cover): traced through a trap (int3) or not at all.
 * Not exported, called directly (no GOT slot reaches them). No .cfi directives.
 *   tiny_ret    a lone `ret`.
 *   tiny_endbr  endbr64; xor %eax,%eax; ret (7 bytes: the int3 goes after the endbr64).
 *   tiny_inc    incl %eax (2 bytes), falling through into tiny_tail (`ret`): the copy jumps
 *               back to tiny_tail.
 *   call_tiny   calls each of them %edi times; returns the sum of tiny_inc's results (%edi).
 */
	.text
	.type	tiny_ret, @function
	.p2align 4
tiny_ret:
	ret
	.size	tiny_ret, .-tiny_ret

	.type	tiny_endbr, @function
tiny_endbr:
	endbr64
	xorl	%eax, %eax
	ret
	.size	tiny_endbr, .-tiny_endbr

	.type	tiny_inc, @function
tiny_inc:
	incl	%eax
	.size	tiny_inc, .-tiny_inc

	.type	tiny_tail, @function
tiny_tail:
	ret
	.size	tiny_tail, .-tiny_tail

	.globl	call_tiny
	.type	call_tiny, @function
	.p2align 4
call_tiny:
	pushq	%rbx
	pushq	%r12
	movl	%edi, %ebx
	xorl	%r12d, %r12d
	testl	%ebx, %ebx
	je	2f
1:	call	tiny_ret
	call	tiny_endbr
	call	tiny_inc	/* eax is 0 from tiny_endbr: 1 back */
	addl	%eax, %r12d
	decl	%ebx
	jne	1b
2:	movl	%r12d, %eax
	popq	%r12
	popq	%rbx
	ret
	.size	call_tiny, .-call_tiny

	.section .note.GNU-stack,"",@progbits
