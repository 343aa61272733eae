/*
 * clone.h - a raw clone(CLONE_VM) child sharing its parent thread's TLS block (clone.c).
 */
#ifndef TT_CLONE_H
#define TT_CLONE_H

/* Before a clone system call made through syscall() (sandbox.c) with these flags: mark the
 * calling thread's block shared when the child will run on it. That child's end is not seen,
 * so the block stays shared for the rest of the thread. */
void tt_clone_syscall_before(unsigned long flags);

#endif /* TT_CLONE_H */
