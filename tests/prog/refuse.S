/*
 * refuse.S - librefuse.so: two exported functions an inline hook must refuse to patch (and
 * trace through the GOT instead). No endbr64: the patch would start at the first byte.
 *   ret_only   a lone `ret`, 1 byte: shorter than the 5-byte jump.
 *   loop_back  xorl (2 bytes), then a loop back to its 2nd instruction (offset 2), which lies
 *              inside the 5 displaced bytes. Returns its argument when it is >= 1.
 */
	.text

	.globl	ret_only
	.type	ret_only, @function
	.p2align 4
ret_only:
	ret
	.size	ret_only, .-ret_only

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

	.section .note.GNU-stack,"",@progbits
