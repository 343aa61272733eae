/*
 * straddle.S - libstraddle.so, for patching while other threads run a function (t_stopworld).
 *   straddle_fn  starts on the last byte of a 64-byte cache line (the jump's first two bytes
 *                cannot be stored at once) with three short instructions in its first 7
 *                bytes, so that a thread stopped there is often between two of them. Returns
 *                its argument + 3.
 * Its constructor publishes straddle_fn's address to the program (tp_published, exported by
 * t_stopworld with -rdynamic) while dlopen has not returned yet: the program's threads start
 * calling it before the shim patches it at the end of that dlopen.
 */
	.text

/* Sized code first: the toolchain's start-up code is out of rel8 reach (see refuse.S). */
	.type	straddle_distance, @function
	.p2align 4
straddle_distance:
	ret
	.skip	255, 0xcc
	.size	straddle_distance, .-straddle_distance

	.p2align 6
	.skip	63, 0xcc
	.globl	straddle_fn
	.type	straddle_fn, @function
straddle_fn:
.Lstraddle:
	.cfi_startproc
	xorl	%eax, %eax
	addl	%edi, %eax
	addl	$3, %eax
	ret
	.cfi_endproc
	.size	straddle_fn, .-straddle_fn

	.type	straddle_publish, @function
	.p2align 4
straddle_publish:
	.cfi_startproc
	movq	tp_published@GOTPCREL(%rip), %rax
	leaq	.Lstraddle(%rip), %rcx
	movq	%rcx, (%rax)
	ret
	.cfi_endproc
	.size	straddle_publish, .-straddle_publish

	.section .init_array, "aw"
	.p2align 3
	.quad	straddle_publish

	.section .note.GNU-stack,"",@progbits
