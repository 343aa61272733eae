#!/bin/sh
# gen_many.sh N - assembly of libmany.so: N exported functions many_f0..many_f<N-1>, each
# `return x + 1` in 6 bytes (long enough for an inline hook's 5-byte jump), 16-byte aligned.
# Assembly, not C: the compiler takes minutes over 70,000 functions, the assembler a second.
n=${1:?usage: gen_many.sh N}
awk -v n="$n" 'BEGIN {
	print "\t.text"
	for (i = 0; i < n; i++) {
		f = "many_f" i
		printf "\t.globl %s\n\t.type %s, @function\n\t.p2align 4\n%s:\n", f, f, f
		printf "\tmovl %%edi, %%eax\n\taddl $1, %%eax\n\tret\n\t.size %s, .-%s\n", f, f
	}
	print "\t.section .note.GNU-stack,\"\",@progbits"
}'
