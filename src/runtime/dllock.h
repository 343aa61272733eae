/*
 * dllock.h - the shim's loader lock: one lock held across each dl* operation that loads or
 * unloads objects (the real dlopen/dlmopen/dlclose) and the bookkeeping that follows it
 * (forget what was unloaded, resolve pending names, hook, patch GOTs), as glibc holds its
 * dl_load_lock across its own.
 *
 * Why across the real call and not only around the bookkeeping: the bookkeeping reads the
 * loaded objects' memory (symbol tables, IFUNC resolvers, code to relocate, GOTs) and the
 * table entries of functions in them; a dlclose in another thread must not unmap an object
 * between the bookkeeping's check that it is loaded and those reads, nor leave an unloaded
 * object's entries (and inline hooks) live while another thread's bookkeeping runs.
 *
 * Lock order: this lock, then glibc's dl_load_lock (taken by the real dl* calls and by dladdr),
 * then its dl_load_write_lock (dl_iterate_phdr), then the function table's lock (funcs.c),
 * then the thread list's (thread_state.c). Recursive for its owner: a constructor or destructor
 * run by the real dlopen/dlclose may call dlopen, dlclose or dlsym again, as it may under
 * glibc's recursive dl_load_lock. Nothing that runs under this lock waits for another
 * thread, except for glibc's locks in that order.
 *
 * The one order glibc can break: a load libc makes by itself (NSS and iconv modules,
 * libgcc_s), which holds dl_load_lock without passing our wrappers, running a constructor
 * that calls dlopen or dlclose (or dlsym during another thread's dlopen) while another
 * thread holds this lock and waits for dl_load_lock. No such constructor is known.
 */
#ifndef TT_DLLOCK_H
#define TT_DLLOCK_H

#include <stdbool.h>

void tt_dl_lock(void);
void tt_dl_unlock(void);

/* True while some thread is between tt_dl_lock and tt_dl_unlock (or waiting in tt_dl_lock).
 * Read before looking at anything the bookkeeping writes: if false, every load whose
 * objects the caller can see has finished its bookkeeping. */
bool tt_dl_busy(void);

/* Start-up has resolved and patched (set under the lock): from then on each load or unload
 * is followed by its bookkeeping, and dlsym's answers are looked up. */
void tt_dl_set_tracking(void);
bool tt_dl_tracking(void);

/* fork: the parent holds the lock across fork(), so the child's tables are consistent; the
 * child forgets the other threads, which it does not have. */
void tt_dl_fork_prepare(void);
void tt_dl_fork_parent(void);
void tt_dl_fork_child(void);

#endif /* TT_DLLOCK_H */
