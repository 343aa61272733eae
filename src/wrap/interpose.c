/*
 * interpose.c - the dl* functions the shim exports in front of libc's.
 *
 * dlopen/dlmopen: objects loaded later must have their GOTs patched (and may define names
 * that were not found at start-up) before the caller gets the handle.
 * dlclose: an unloaded object's functions are forgotten, their inline hooks' slots freed.
 * dlsym/dlvsym: a pointer to a function traced through GOT slots must lead through its
 * trampoline, or calls made through it would be missed (an inline-hooked one is its own).
 *
 * Threads: each load or unload and the bookkeeping after it happen under one lock
 * (dllock.h), as glibc's own dl_load_lock covers its part: two threads' bookkeeping never
 * overlap, and no object is unmapped while a bookkeeping pass reads it. dlsym waits only
 * while such an operation is under way (its result may lie in the object being processed).
 *
 * glibc's dl* functions look at their return address to know who called: RTLD_NEXT means
 * "after the caller's object", dlopen searches the caller's RUNPATH and expands $ORIGIN
 * relative to it, and RTLD_DEFAULT uses the caller's namespace. A wrapper that simply called
 * them would make every answer the shim's. So the real function is entered with a `ret` byte
 * of the caller's own object as its return address (tt_call_via in calib.S): glibc sees the
 * caller, then returns through that byte back to us.
 */
#include <dlfcn.h>
#include <errno.h>
#include <string.h>

#include "elf/elfdyn.h"
#include "elf/real.h"
#include "hook/funcs.h"
#include "hot/frame_rules.h"
#include "hot/thread.h"
#include "runtime/dllock.h"
#include "runtime/lifecycle.h"
#include "tramp/tramp.h"
#include "wrap/interpose.h"

static struct {
	void *dlopen, *dlmopen, *dlsym, *dlvsym, *dlclose;
	bool done;
} real;

static void find_reals(void)
{
	if (__atomic_load_n(&real.done, __ATOMIC_ACQUIRE))
		return;
	real.dlopen = tt_real_find("dlopen");
	real.dlmopen = tt_real_find("dlmopen");
	real.dlsym = tt_real_find("dlsym");
	real.dlvsym = tt_real_find("dlvsym");
	real.dlclose = tt_real_find("dlclose");
	__atomic_store_n(&real.done, true, __ATOMIC_RELEASE);
}

struct find_gadget {
	uintptr_t caller;
	void *gadget;
};

static int find_gadget_cb(struct tt_elf *o, void *arg)
{
	struct find_gadget *g = arg;

	if (!tt_elf_in_exec(o, g->caller))
		return 0;
	g->gadget = tt_elf_find_ret(o);
	return 1;
}

/*
 * Who called our wrapper: its return address, unless the wrapper is itself traced
 * (TSC_FUNCS=dlopen): then that is a trampoline body, and the caller's address is in the
 * trampoline's shadow frame, the newest one.
 */
static const void *real_caller(const void *ret)
{
	if ((const char *)ret >= tt_bodies_start && (const char *)ret < tt_bodies_end &&
	    tt_tls.top && tt_tls.thread && tt_tls.top > tt_tls.thread->frames)
		return (const void *)tt_tls.top[-1].ret;
	return ret;
}

/* Call fn(a, b, c, d) so that it sees `caller` (an address in the calling object). */
static void *call_as(const void *caller, void *fn, const void *a, const void *b, const void *c,
		     const void *d)
{
	struct find_gadget g = { (uintptr_t)caller, NULL };

	if (!fn) {
		errno = ENOSYS;
		return NULL;
	}
	tt_elf_foreach(find_gadget_cb, &g);
	if (!g.gadget) /* no `ret` byte in the caller: answer as ourselves, the best we can */
		return ((void *(*)(const void *, const void *, const void *,
				   const void *))fn)(a, b, c, d);
	return tt_call_via(fn, g.gadget, a, b, c, d);
}

/* After a successful load or unload, the loader lock held: the bookkeeping, keeping errno
 * as the real call left it. */
static void loaded(void)
{
	int saved = errno;
	uint8_t was = tt_shim_enter();

	tt_lifecycle_objects_changed();
	tt_shim_leave(was);
	errno = saved;
}

/* dlopen or dlmopen (fn) called as `caller` with up to three arguments; the new object is
 * patched before its handle is returned. */
static void *open_as(const void *caller, void *fn, const void *a, const void *b, const void *c)
{
	void *h;
	bool locked;

	tt_lifecycle_ensure();
	find_reals();
	locked = tt_lifecycle_dl_begin();
	h = call_as(caller, *(void **)fn, a, b, c, NULL);
	if (h)
		loaded();
	tt_lifecycle_dl_end(locked);
	return h;
}

TT_EXPORT void *dlopen(const char *file, int mode)
{
	return open_as(real_caller(__builtin_return_address(0)), &real.dlopen, file,
		       (const void *)(intptr_t)mode, NULL);
}

TT_EXPORT void *dlmopen(Lmid_t lmid, const char *file, int mode)
{
	return open_as(real_caller(__builtin_return_address(0)), &real.dlmopen, (const void *)lmid,
		       file, (const void *)(intptr_t)mode);
}

/* After an unload: forget its functions and give back their inline hooks' pool slots, so
 * that a later dlopen (maybe at the same address) hooks the new code afresh. Under the
 * same lock as the unload itself: another thread's bookkeeping must not run between the
 * unmapping and the forgetting, on entries whose code is gone. */
TT_EXPORT int dlclose(void *handle)
{
	int r;
	bool locked;

	find_reals();
	if (!real.dlclose) {
		errno = ENOSYS;
		return -1;
	}
	locked = tt_lifecycle_dl_begin();
	r = ((int (*)(void *))real.dlclose)(handle);
	if (r == 0) {
		tt_rule_forget_all(); /* its code's addresses may be the next object's */
		loaded();
	}
	tt_lifecycle_dl_end(locked);
	return r;
}

/*
 * What dlsym/dlvsym return for the real address addr: the stub of a function traced through
 * GOT slots, else addr. With no dl* operation under way, every object the caller can see has
 * been processed and the table answers at once (funcs.c reads what may change atomically).
 * Else addr may lie in an object whose bookkeeping is not done: wait for it, so that the
 * pointer to a traced function never escapes untraced.
 */
static void *traced_pointer(void *addr)
{
	bool busy = tt_dl_busy(); /* before the look-up: see dllock.h */
	uint8_t was;

	if (!busy && !tt_dl_tracking())
		return addr;   /* off, or not started (a sanitizer's own start-up calls us) */
	was = tt_shim_enter(); /* the shim's own lock and hash calls are not the program's */
	if (busy)
		tt_dl_lock(); /* start-up's bookkeeping counts too */
	if (tt_dl_tracking())
		addr = tt_funcs_stub_for(addr);
	if (busy)
		tt_dl_unlock();
	tt_shim_leave(was);
	return addr;
}

/* dlsym's answer r as the caller must get it (errno as glibc left it). */
static void *traced_answer(void *r)
{
	int saved = errno;

	if (r)
		r = traced_pointer(r);
	errno = saved;
	return r;
}

TT_EXPORT void *dlsym(void *handle, const char *name)
{
	const void *caller = real_caller(__builtin_return_address(0));

	find_reals();
	return traced_answer(call_as(caller, real.dlsym, handle, name, NULL, NULL));
}

TT_EXPORT void *dlvsym(void *handle, const char *name, const char *version)
{
	const void *caller = real_caller(__builtin_return_address(0));

	find_reals();
	return traced_answer(call_as(caller, real.dlvsym, handle, name, version, NULL));
}
