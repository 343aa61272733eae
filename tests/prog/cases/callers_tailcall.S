/* callers_tailcall.S - for the callers_tailcall test: tc_enter(n) tail-jumps into a static
 * helper while n > 0, and the helper tail-jumps back into tc_enter's entry with n - 1. Each
 * call re-enters tc_enter n times with no `call`: the return address those entries find is
 * the one the first entry was given. In assembly, so the jumps are there whatever the
 * compiler decides. */
	.text
	.globl	tc_enter
	.type	tc_enter, @function
tc_enter:
	.cfi_startproc
	movq	%rdi, %rax
	testq	%rax, %rax
	jg	tc_helper		/* a tail call: no return address of ours */
	xorl	%eax, %eax
	ret
	.cfi_endproc
	.size	tc_enter, .-tc_enter

	.type	tc_helper, @function
tc_helper:
	.cfi_startproc
	subq	$1, %rdi
	jmp	tc_enter		/* back into tc_enter's (patched) entry */
	.cfi_endproc
	.size	tc_helper, .-tc_helper
	.section .note.GNU-stack,"",@progbits
