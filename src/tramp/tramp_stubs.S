/*
 * tramp_stubs.S - the entry stubs: TT_MAX_FUNCS per trampoline variant, 16 bytes each.
 *
 * A patched GOT slot (or a dlsym answer) points at stub i of the variant chosen at start-up.
 * The stub only loads its index into %r11 - the one register that carries nothing at a call
 * boundary - and jumps to the variant's body, so the body needs no table look-up to know
 * which function it times. endbr64 first: stubs are reached by indirect calls and jumps.
 *
 * Out: %r11d = index i; everything else as the caller left it.
 */
#include "hot/tramp_layout.h"
#include "tramp/asm.h"

.macro STUB_TABLE name, body
	.p2align 4
	.globl \name
	.hidden \name
	.type \name, @function
\name:
	.cfi_startproc
	.set stub_index, 0
	.rept TT_MAX_FUNCS
	endbr64
	movl	$stub_index, %r11d
	jmp	\body
	.p2align 4
	.set stub_index, stub_index + 1
	.endr
	.cfi_endproc
	.size \name, . - \name
.endm

	.text
STUB_TABLE tt_stubs_rdtscp, tt_body_rdtscp
STUB_TABLE tt_stubs_lfence, tt_body_lfence
STUB_TABLE tt_stubs_mfence, tt_body_mfence
STUB_TABLE tt_stubs_cpuid, tt_body_cpuid
STUB_TABLE tt_stubs_cpuid_nordtscp, tt_body_cpuid_nordtscp
STUB_TABLE tt_stubs_none, tt_body_none
STUB_TABLE tt_stubs_mono, tt_body_mono

	.section .note.GNU-stack, "", @progbits
