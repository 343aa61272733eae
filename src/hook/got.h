/*
 * got.h - redirecting calls by rewriting GOT slots (TSC_HOOK=got).
 */
#ifndef TT_GOT_H
#define TT_GOT_H

#include <stddef.h>

#include "elf/elfdyn.h"

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

/*
 * Point o's JUMP_SLOT of each names[k] at targets[k]: the calls that object makes to those
 * functions through its PLT go there from now on (a library the shim drives, whose use of
 * libc the shim must keep an eye on). Returns the number of slots written.
 */
unsigned int tt_got_point_imports(const struct tt_elf *o, const char *const *names,
				  void *const *targets, size_t n);

#endif /* TT_GOT_H */
