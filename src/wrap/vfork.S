/*
 * vfork.S - the shim's vfork.
 *
 * A vfork child borrows its parent's memory, stack and TLS until it execs or exits: our
 * per-thread state included. Traced calls it made would count into the parent's tables and
 * push shadow frames onto the parent's shadow stack. So the "inside the shim" flag is set
 * across the call: in the child, traced calls pass straight through; the parent, which
 * resumes only once the child has exec'd or exited, puts the flag back as it was.
 * Nothing may be kept on the stack across the syscall: the child would overwrite it (the
 * return address lives in %rdi, which the kernel keeps, like glibc's own vfork).
 */
#include <sys/syscall.h>

#include "hot/tramp_layout.h"
#include "tramp/asm.h"

	.text
	.globl	vfork
	.type	vfork, @function
	.p2align 4
vfork:
	.cfi_startproc
	endbr64
	popq	%rdi				/* our return address, out of the shared stack */
	.cfi_adjust_cfa_offset -8
	.cfi_register %rip, %rdi
	movq	tt_tls@gottpoff(%rip), %rsi
	movzbl	%fs:TT_TLS_IN_SHIM(%rsi), %edx	/* the parent's flag, to put back */
	movb	$1, %fs:TT_TLS_IN_SHIM(%rsi)
	movl	$SYS_vfork, %eax
	syscall					/* keeps rdi, rsi, rdx */
	pushq	%rdi
	.cfi_adjust_cfa_offset 8
	.cfi_rel_offset %rip, 0
	testq	%rax, %rax
	jz	1f				/* child: the flag stays set */
	movb	%dl, %fs:TT_TLS_IN_SHIM(%rsi)	/* parent, or no child */
	cmpq	$-4095, %rax
	jae	2f
1:
	ret
2:
	negl	%eax
	movl	%eax, %edi
	jmp	tt_vfork_failed			/* errno = edi; return -1 */
	.cfi_endproc
	.size	vfork, . - vfork

	.section .note.GNU-stack, "", @progbits
