/*
 * real.h - the libc functions behind the ones the shim exports.
 *
 * The shim exports sigaction, dlopen, fork, _exit, prctl... in front of libc's. Its own code
 * never calls those exported wrappers (that would tie every internal caller to the wrapper
 * layer, and run the wrappers' bookkeeping on the shim's own calls): it calls the definition
 * that follows the shim in load order, found here.
 */
#ifndef TT_REAL_H
#define TT_REAL_H

#include "elf/elfdyn.h"

/* The definition of name that follows ours in load order (what RTLD_NEXT would give us),
 * found without calling dlsym; NULL if none. Safe before anything else has started. */
void *tt_real_find(const char *name);

/* That definition's symbol, with its object copied into *obj; NULL if none. */
const ElfW(Sym) *tt_real_def(const char *name, struct tt_elf *obj);

/* tt_real_find(name), looked up once and kept in *slot. */
void *tt_real_lazy(void **slot, const char *name);

/* The real `name`, kept in a static `void *real_name` of the calling file, typed as name. */
#define TT_REAL(name) ((__typeof__(&name))tt_real_lazy(&real_##name, #name))

/* The first definition of name in load order that is not the shim's: what another library
 * calling `name` reaches, an interposer preloaded ahead of the shim included (a sanitizer
 * runtime's pthread_create, which must see every thread it is to check). NULL if none. */
void *tt_real_outside(const char *name);

/* tt_real_outside(name), looked up once and kept in a static `void *outside_name`. */
#define TT_OUTSIDE(name) \
	((__typeof__(&name))tt_real_lazy_with(&outside_##name, #name, tt_real_outside))

/* find(name), looked up once and kept in *slot. */
void *tt_real_lazy_with(void **slot, const char *name, void *(*find)(const char *name));

#endif /* TT_REAL_H */
