/* shortfn_data.S - for the shortfn_data test: a 3-byte function followed by data that looks
 * like padding (an object symbol in .text holding 90 90 cc cc), which the 5-byte jump of an
 * inline hook would cover. */
	.text
	.globl	short_zero
	.type	short_zero, @function
short_zero:
	.cfi_startproc
	xorl	%eax, %eax
	ret
	.cfi_endproc
	.size	short_zero, .-short_zero

	.globl	short_zero_const
	.type	short_zero_const, @object
short_zero_const:
	.byte	0x90, 0x90, 0xcc, 0xcc
	.size	short_zero_const, .-short_zero_const
	.section .note.GNU-stack,"",@progbits
