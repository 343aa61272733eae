/*
 * asm.h - symbol macros for the .S files: every asm symbol is a hidden, typed, sized function
 * (the shim's only exports are its C API and wrappers, see libtsctrace.map).
 */
#ifndef TT_ASM_H
#define TT_ASM_H

/* Where the code stands (a body placed within its cache line aligns itself). */
#define TT_ENTRY_HERE(sym)    \
	.globl sym;           \
	.hidden sym;          \
	.type sym, @function; \
sym:

#define TT_ENTRY(sym) \
	.p2align 4;   \
	TT_ENTRY_HERE(sym)

#define TT_END(sym) .size sym, .- sym

/* push %rbp; mov %rsp, %rbp, with the unwind information saying so. */
#define TT_FRAME_POINTER          \
	pushq % rbp;              \
	.cfi_adjust_cfa_offset 8; \
	.cfi_rel_offset % rbp, 0; \
	movq % rsp, % rbp;        \
	.cfi_def_cfa_register % rbp

/* A hidden 8-byte variable, zero at start: asm data that C sets. */
#define TT_QUAD(sym)        \
	.globl sym;         \
	.hidden sym;        \
	.type sym, @object; \
	.size sym, 8;       \
	.p2align 3;         \
sym:                        \
	.quad 0

#endif /* TT_ASM_H */
