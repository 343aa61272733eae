/*
 * unwind_stack.h - the stack a thread's call paths are taken on (TSC_CALLERS=N>1).
 *
 * libunwind and the xsave area around it need ~10 KiB of stack, more than a small thread
 * stack or a handler's sigaltstack may have left. So tt_callers_exit_xsave (tramp/) moves to a
 * stack of the thread's own, mapped at its first call path (TT_UNWIND_STACK_BYTES, a guard
 * page below, untouched pages never committed) and unmapped with the thread's block.
 *
 * All three run before the vector state is saved or after it is restored: general registers
 * and raw system calls only.
 */
#ifndef TT_UNWIND_STACK_H
#define TT_UNWIND_STACK_H

#include <stdbool.h>
#include <stdint.h>

#include "hot/thread.h"

/*
 * Take this thread's unwind stack: its top (16-byte aligned), mapped now if it has none; 0
 * when it is in use (a signal handler's traced call interrupted an unwind) or cannot be
 * mapped. On a sigaltstack, the signals that may arrive asynchronously are blocked until
 * tt_unwind_stack_release: a nested handler for the alternate stack would be started at its
 * top by the kernel (our stack pointer being elsewhere), over the handler running there.
 */
uintptr_t tt_unwind_stack_claim(void);

/* Give back what tt_unwind_stack_claim took (top), once off that stack. */
void tt_unwind_stack_release(uintptr_t top);

/*
 * Whether the thread runs on its signal stack is asked of the kernel once, and its range kept
 * (struct tt_thread alt_*): a sigaltstack system call on every unwind cost about 1.5 us a
 * call. The program's sigaltstack() and syscall(SYS_sigaltstack) go through wrap/, which
 * forgets the range before and after; a runtime that sets it by raw system calls (Go) makes
 * tt_altstack_ask_always true, and every unwind asks.
 */
extern bool tt_altstack_ask_always;
void tt_unwind_altstack_forget(void);

/* The end of a call whose path cannot be taken (no unwind stack): its return address only. */
void tt_callers_exit_nostack(struct tt_frame *f, uint64_t raw, uint32_t aux);

#endif /* TT_UNWIND_STACK_H */
