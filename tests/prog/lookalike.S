/*
 * lookalike.S - liblookalike.so: code in which a scan of every byte for branch opcodes sees
 * jumps into the first bytes of two functions, where no instruction branches there. No
 * endbr64: a patch starts at the first byte and displaces 5.
 *   call_via(fn, x)   returns fn(x), tail-calling it with `jmp *%rax` (ff e0). The e0 reads
 *                     as loopne rel8 whose displacement is the next byte, twice_plus_one's
 *                     first (01): "loopne" to twice_plus_one + 2.
 *   twice_plus_one(x) 2x + 1.
 *   magic()           a constant, loaded by a movabs whose immediate begins e9 and a rel32:
 *                     "jmp" to imm_target + 2.
 *   imm_target(x)     x + 7.
 * They start 256 bytes into .text, out of reach of the short jumps the byte scan sees in
 * the toolchain's own code before them (register_tm_clones ends with `jmp *%rax` too), which
 * has neither unwind entries nor symbol sizes: a gap, where the byte scan's reading stands.
 */
	.text

	.globl	filler
	.type	filler, @function
	.p2align 4
filler:
	.fill	255, 1, 0x90
	ret
	.size	filler, .-filler

	.globl	call_via
	.type	call_via, @function
	.p2align 4
call_via:
	movq	%rdi, %rax
	movl	%esi, %edi
	jmp	*%rax
	.size	call_via, .-call_via

	/* no alignment: it must start right after the e0 */
	.globl	twice_plus_one
	.type	twice_plus_one, @function
twice_plus_one:
	addl	%edi, %edi		/* 01 ff */
	leal	1(%rdi), %eax
	ret
	.size	twice_plus_one, .-twice_plus_one

	.globl	magic
	.type	magic, @function
	.p2align 4
magic:
	.byte	0x48, 0xb8, 0xe9	/* movabs $imm64, %rax; the imm64 starts e9 */
	.long	.Limm_target + 2 - (. + 4)
	.byte	0, 0, 0
	ret
	.size	magic, .-magic

	.globl	imm_target
	.type	imm_target, @function
	.p2align 4
imm_target:
.Limm_target:
	movl	%edi, %eax
	addl	$7, %eax
	ret
	.size	imm_target, .-imm_target

	.section .note.GNU-stack,"",@progbits
