/*
 * callers_deep.c - TSC_CALLERS=N>1: the call path of an ended call, taken with libunwind
 * after the second TSC read, from inside tt_callers_exit_xsave (which has saved the vector
 * state the unwinder may use). The path starts at the traced call's own return address: the
 * frames above it are ours (this function, the xsave wrapper, the trampoline body).
 */
#include <cpuid.h>
#include <dlfcn.h>
#include <errno.h>

#include "elf/real.h"
#include "hot/callers.h"
#include "hot/thread.h"
#include "hot/traced_call.h"
#include "log/log.h"
#include "runtime/callers_deep.h"
#include "tramp/tramp.h"

/*
 * libunwind's unw_backtrace, loaded only when call paths are asked for, and RTLD_LOCAL:
 * libunwind.so also exports _Unwind_RaiseException and friends, which in the global scope
 * could stand in for libgcc's in a C++ library the program loads later.
 */
static int (*unwind_backtrace)(void **buffer, int size);

static void *real_dlopen, *real_dlsym;

static void callers_exit_deep(struct tt_frame *f, uint64_t raw, uint32_t aux);

void tt_callers_start(unsigned int depth)
{
	unsigned int a, b, c, d;

	void *h;

	tt_callers_depth = depth;
	if (depth <= 1)
		return;
	h = TT_REAL(dlopen)("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
	if (h)
		*(void **)&unwind_backtrace = TT_REAL(dlsym)(h, "unw_backtrace");
	if (!unwind_backtrace) {
		tt_warn("TSC_CALLERS=%u: libunwind.so.8 cannot be loaded, using the immediate "
			"caller only (1)",
			depth);
		tt_callers_depth = 1;
		return;
	}
	/* OSXSAVE (CPUID.1:ECX[27]) says the OS enabled xsave; leaf 0DH says how big. */
	if (!__get_cpuid(1, &a, &b, &c, &d) || !((c >> 27) & 1) ||
	    !__get_cpuid_count(0xd, 0, &a, &b, &c, &d) || b < 576) {
		tt_warn("TSC_CALLERS=%u: this CPU cannot save its vector state with xsave, "
			"using the immediate caller only (1)",
			depth);
		tt_callers_depth = 1;
		return;
	}
	tt_xsave_bytes = b + 64; /* room to align down to 64 bytes */
	tt_callers_exit_c = callers_exit_deep;
	tt_exit_fn = tt_callers_exit_xsave;
}

static void callers_exit_deep(struct tt_frame *f, uint64_t raw, uint32_t aux)
{
	void *ips[TT_PATH_MAX + 8];
	uint64_t path[TT_PATH_MAX];
	struct tt_fstat *site = NULL;
	int saved = errno, n, k, depth = 0;
	uint8_t was = tt_shim_enter();

	n = unwind_backtrace(ips, (int)(sizeof(ips) / sizeof(ips[0])));
	for (k = 0; k < n && (uint64_t)ips[k] != f->ret; k++)
		;
	for (; k < n && depth < (int)tt_callers_depth; k++)
		path[depth++] = (uint64_t)ips[k];
	if (!depth) /* could not unwind to the caller: its return address at least */
		path[depth++] = f->ret;
	if (tt_tls.thread)
		site = tt_callers_site(tt_tls.thread, f->func, path, (uint32_t)depth);
	errno = saved;
	tt_shim_leave(was);
	tt_call_finish(f, raw, aux, site);
}
