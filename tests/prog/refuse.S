/*
 * refuse.S - librefuse.so: short functions and one an inline hook must refuse to patch (and
 * trace through the GOT instead). No endbr64: the patch would start at the first byte. No
 * unwind entries (no .cfi directives), as in hand-written assembly.
 *   ret_only   a lone `ret`, 1 byte, then the assembler's nop padding up to 16 bytes: the
 *              jump may cover the padding, so it is patched inline.
 *   ret_tight  a lone `ret` with the next function (tight_next) right after it: nothing to
 *              cover: traced through a trap (int3) at its entry.
 *   tight_next returns 7; patched inline (6 bytes: mov, ret).
 *   loop_back  xorl (2 bytes), then a loop back to its 2nd instruction (offset 2), which lies
 *              inside the 5 displaced bytes. Returns its argument when it is >= 1.
 *   tight_caller  jumps to ret_tight directly (not through the PLT): these calls reach the
 *              int3, where the PLT's lead to ret_tight's stub.
 *   line_end   starts on the last byte of a 64-byte cache line, so the jump's first two bytes
 *              cannot be stored at once: patched inline all the same at start-up, where the
 *              process has one thread. Returns its argument + 3.
 */
	.text

/* 256 bytes of a sized function first: the toolchain's start-up code before it (whose `jmp
 * *%rax` holds an e0 byte, read by a byte scan as a loopne) is out of rel8 reach of the
 * functions below, so only what this file means is tested. */
	.type	refuse_distance, @function
	.p2align 4
refuse_distance:
	ret
	.skip	255, 0xcc
	.size	refuse_distance, .-refuse_distance

	.globl	ret_only
	.type	ret_only, @function
	.p2align 4
ret_only:
	ret
	.size	ret_only, .-ret_only

	.globl	ret_tight
	.type	ret_tight, @function
	.p2align 4
ret_tight:
.Lret_tight:
	ret
	.size	ret_tight, .-ret_tight

	.globl	tight_next
	.type	tight_next, @function
tight_next:
	movl	$7, %eax
	ret
	.size	tight_next, .-tight_next

	.globl	loop_back
	.type	loop_back, @function
	.p2align 4
loop_back:
	xorl	%eax, %eax
1:	addl	$1, %eax
	cmpl	%edi, %eax
	jb	1b
	ret
	.size	loop_back, .-loop_back

	.p2align 6
	.skip	63, 0xcc
	.globl	line_end
	.type	line_end, @function
line_end:
	movl	$3, %eax
	addl	%edi, %eax
	ret
	.size	line_end, .-line_end

	.globl	tight_caller
	.type	tight_caller, @function
	.p2align 4
tight_caller:
	jmp	.Lret_tight
	.size	tight_caller, .-tight_caller

	.section .note.GNU-stack,"",@progbits
