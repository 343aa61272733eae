/*
 * got.h - redirecting calls by rewriting GOT slots (TSC_HOOK=got).
 */
#ifndef TT_GOT_H
#define TT_GOT_H

/*
 * Point every JUMP_SLOT and GLOB_DAT slot of every loaded object (the program and its
 * libraries, including dlopen'd ones; not ld.so, not the shim) that holds a traced function -
 * or, not yet bound, will - at that function's stub; but a GLOB_DAT slot that its object's
 * code reads as data keeps the real address (one line per function says so). Read-only
 * (RELRO) slots are made writable for the write and protected again. Idempotent: call it
 * again after dlopen, with the loader lock held (lifecycle.c). Returns the number of slots
 * changed.
 */
unsigned int tt_got_patch_all(void);

#endif /* TT_GOT_H */
