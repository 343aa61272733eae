/*
 * calib.S - the empty function that overhead calibration traces through the real path
 * (function index 0), and tt_call_via, which calls a libc function so that it sees a chosen
 * return address (used by the dl* wrappers, see interpose.c).
 */
#include "tramp/asm.h"

	.text
/* void tt_calib_empty(void): nothing, so its traced time is the measurement's own cost. */
TT_ENTRY(tt_calib_empty)
	.cfi_startproc
	endbr64
	ret
	.cfi_endproc
TT_END(tt_calib_empty)

/*
 * void tt_calib_inline(void): the same with an entry an inline hook can displace, so that
 * calibration can take the inline path: its relocated copy (a 5-byte nop and a jump back).
 */
TT_ENTRY(tt_calib_inline)
	.cfi_startproc
	endbr64
	nopl	0(%rax, %rax, 1)
	ret
	.cfi_endproc
TT_END(tt_calib_inline)

/*
 * void *tt_call_via(void *fn, void *gadget, a, b, c, d): call fn(a, b, c, d) with `gadget`
 * as its return address. gadget is a `ret` byte inside the object that called our wrapper,
 * so glibc's dlopen/dlsym, which look at their return address to know who called them
 * (RTLD_NEXT, the caller's RUNPATH, $ORIGIN, its namespace), answer exactly as they would
 * have for that caller. fn returns to the gadget, whose `ret` returns to us.
 */
TT_ENTRY(tt_call_via)
	.cfi_startproc
	TT_FRAME_POINTER
	movq	%rdi, %rax
	movq	%rsi, %r11
	movq	%rdx, %rdi
	movq	%rcx, %rsi
	movq	%r8, %rdx
	movq	%r9, %rcx
	andq	$-16, %rsp
	subq	$8, %rsp			/* after two pushes fn sees rsp+8 16-aligned */
	leaq	.Lback(%rip), %r8
	pushq	%r8				/* where the gadget's ret goes */
	pushq	%r11				/* fn's return address: the gadget */
	jmp	*%rax
.Lback:
	movq	%rbp, %rsp
	popq	%rbp
	.cfi_def_cfa %rsp, 8
	.cfi_restore %rbp
	ret
	.cfi_endproc
TT_END(tt_call_via)

	.section .note.GNU-stack, "", @progbits
