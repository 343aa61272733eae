/*
 * callers_deep.c - TSC_CALLERS=N>1: the call path of an ended call that the cached frame
 * walk (hot/frame_rules.h, tried first) could not take, taken with libunwind after the second
 * TSC read, from inside tt_callers_exit_xsave (which has saved the vector state the unwinder
 * may use); then the rules of its frames are read from .eh_frame (elf/cfi.h) and cached, so
 * that the next call from there is walked. The path starts at the traced call's own return
 * address: the frames above it are ours (this function, the xsave wrapper, the trampoline
 * body).
 *
 * A traced call made from inside another traced call has, further down, the outer call's
 * trampoline body on the stack: it made the `call` into the outer function. That frame is the
 * shim's own and is left out of the path. Its CFI gives the right return address (the shadow
 * frame's) but libunwind takes the caller's %rsp to be the frame's CFA, 8 bytes off the one
 * the CFI states, and the frames beyond it come out wrong (a 0 after `main`). So where the
 * quick unw_backtrace meets a body, the path is taken again with libunwind's cursor, which
 * restarts past each body from its shadow frame's real return address, %rsp and %rbx (the
 * other callee-saved registers as the cursor has them: the body leaves them alone).
 *
 * The unwinding runs inside every enclosing traced call's timed interval: ~10 us here, ten
 * times a short caller's own time. Its duration, from the call's second reading to the site
 * found, is moved out of them: each enclosing shadow frame's start is pushed later by it, so
 * their cycles and self times are as without call paths, and overhead.nested (calibrated
 * through this same exit) no longer holds it.
 */
#include <cpuid.h>
#include <dlfcn.h>
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#define UNW_LOCAL_ONLY
#include <libunwind.h>

#include "elf/cfi.h"
#include "elf/elfdyn.h"
#include "elf/real.h"
#include "hot/callers.h"
#include "hot/callers_fast.h"
#include "hot/frame_rules.h"
#include "hot/thread.h"
#include "hot/traced_call.h"
#include "log/log.h"
#include "runtime/callers_deep.h"
#include "runtime/callers_pipe.h"
#include "runtime/clock.h"
#include "tramp/tramp.h"

/*
 * libunwind's unw_backtrace and its cursor, loaded only when call paths are asked for, and
 * RTLD_LOCAL: libunwind.so also exports _Unwind_RaiseException and friends, which in the
 * global scope could stand in for libgcc's in a C++ library the program loads later.
 */
static int (*unwind_backtrace)(void **buffer, int size);
static int (*unwind_getcontext)(unw_context_t *uc);
static int (*unwind_init)(unw_cursor_t *c, unw_context_t *uc);
static int (*unwind_step)(unw_cursor_t *c);
static int (*unwind_get_reg)(unw_cursor_t *c, unw_regnum_t reg, unw_word_t *v);

static uintptr_t own_lo, own_hi; /* the shim's executable segment */
static bool clock_mono;		 /* the timed reads are CLOCK_MONOTONIC_RAW ns, not the TSC */

static void *real_dlopen, *real_dlsym;

static void callers_exit_deep(struct tt_frame *f, uint64_t raw, uint32_t aux);

static int find_own_code(struct tt_elf *o, void *ctx)
{
	const ElfW(Phdr) *p;

	(void)ctx;
	if (!tt_elf_is_shim(o) || !(p = tt_elf_exec_phdr(o, (uintptr_t)&find_own_code)))
		return 0;
	own_lo = o->base + p->p_vaddr;
	own_hi = own_lo + p->p_memsz;
	return 1;
}

static bool own_code(uint64_t ip)
{
	return ip >= own_lo && ip < own_hi;
}

static void load_cursor(void *h)
{
	*(void **)&unwind_getcontext = TT_REAL(dlsym)(h, "_Ux86_64_getcontext");
	*(void **)&unwind_init = TT_REAL(dlsym)(h, "_ULx86_64_init_local");
	*(void **)&unwind_step = TT_REAL(dlsym)(h, "_ULx86_64_step");
	*(void **)&unwind_get_reg = TT_REAL(dlsym)(h, "_ULx86_64_get_reg");
	if (!unwind_getcontext || !unwind_init || !unwind_step || !unwind_get_reg)
		unwind_getcontext = NULL; /* bodies are then cut off the path, nothing more */
}

/* The rule table of the fast walk (hot/frame_rules.h): untouched pages are never committed. */
static void start_fast_walk(void)
{
	void *tab = mmap(NULL, TT_RULE_SLOTS * sizeof(struct tt_rule_slot), PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (tab == MAP_FAILED)
		return; /* every path by libunwind, as with TSC_CALLERS_UNWIND=libunwind */
	tt_frame_shim_lo = own_lo;
	tt_frame_shim_hi = own_hi;
	__atomic_store_n(&tt_frame_rules, (struct tt_rule_slot *)tab, __ATOMIC_RELEASE);
	tt_callers_fast_on = true;
}

static void start(unsigned int depth, bool mono, bool only_libunwind)
{
	unsigned int a, b, c, d;

	void *h;

	tt_callers_depth = depth;
	tt_callers_landing_lo = (uintptr_t)tt_bodies_start;
	tt_callers_landing_hi = (uintptr_t)tt_bodies_end;
	if (depth <= 1)
		return;
	clock_mono = mono;
	h = TT_REAL(dlopen)("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
	if (h) {
		*(void **)&unwind_backtrace = TT_REAL(dlsym)(h, "unw_backtrace");
		load_cursor(h);
		if (unwind_backtrace)
			tt_callers_pipe_take((const void *)unwind_backtrace);
	}
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
	tt_elf_foreach(find_own_code, NULL);
	if (!mono && !only_libunwind)
		start_fast_walk();
	tt_xsave_bytes = b + 64; /* room to align down to 64 bytes */
	tt_callers_exit_c = callers_exit_deep;
	tt_exit_fn = tt_callers_exit_xsave;
}

void tt_callers_start(unsigned int depth, bool mono, bool only_libunwind)
{
	start(depth, mono, only_libunwind);
	tt_exit_path_update();
}

/* The enclosing shadow frame (below f) a body frame stood for: the one whose caller the
 * unwinder reached next, at ip. NULL when none matches. */
static struct tt_frame *enclosing(struct tt_frame *f, uint64_t ip)
{
	struct tt_frame *p, *base = tt_tls.thread ? tt_tls.thread->frames : f;

	for (p = f - 1; p >= base; p--)
		if (p->ret == ip)
			return p;
	return NULL;
}

/* A context to unwind on from the caller of the shadow frame p: its return address, %rsp
 * and %rbx from p, the other callee-saved registers as cursor c has them there. */
static int restart(unw_cursor_t *c, unw_context_t *uc, const struct tt_frame *p)
{
	static const struct {
		int greg;
		unw_regnum_t reg;
	} kept[] = { { REG_RBP, UNW_X86_64_RBP },
		     { REG_R12, UNW_X86_64_R12 },
		     { REG_R13, UNW_X86_64_R13 },
		     { REG_R14, UNW_X86_64_R14 },
		     { REG_R15, UNW_X86_64_R15 } };
	unw_word_t v;
	size_t i;

	memset(uc, 0, sizeof(*uc));
	for (i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		if (unwind_get_reg(c, kept[i].reg, &v) < 0)
			return -1;
		uc->uc_mcontext.gregs[kept[i].greg] = (greg_t)v;
	}
	uc->uc_mcontext.gregs[REG_RIP] = (greg_t)p->ret;
	uc->uc_mcontext.gregs[REG_RSP] = (greg_t)p->sp;
	uc->uc_mcontext.gregs[REG_RBX] = (greg_t)p->rbx;
	return unwind_init(c, uc);
}

/*
 * The path of f's call with the cursor, into path[n..depth): from f->ret on, each body of an
 * enclosing traced call left out and unwinding restarted past it from its shadow frame.
 * A tail re-entry (path[0..n) its tail frames) returns to a body's landing: where the cursor
 * meets it, unwinding restarts from `from`, the call the re-entries came from, whose
 * callee-saved registers the landing still has (every jump restored them). Returns the
 * frames in path.
 */
static int walk_cursor(struct tt_frame *f, struct tt_frame *from, uint64_t *path, int n, int depth)
{
	unw_context_t uc[2]; /* the one the cursor reads from, and the next one */
	unw_cursor_t c;
	unw_word_t ip;
	int which = 0, steps = 0;
	bool started = false;

	if (unwind_getcontext(&uc[0]) < 0 || unwind_init(&c, &uc[0]) < 0)
		return n;
	for (;;) {
		if (unwind_get_reg(&c, UNW_REG_IP, &ip) < 0)
			break;
		if (!started && ip == f->ret) {
			started = true;
			if (from != f) {
				which ^= 1;
				if (restart(&c, &uc[which], from) < 0)
					break;
				f = from; /* the cursor is at from's caller */
				continue;
			}
		}
		if (started && n && own_code(ip)) {
			struct tt_frame *p;

			if (unwind_step(&c) <= 0 || unwind_get_reg(&c, UNW_REG_IP, &ip) < 0 ||
			    !(p = enclosing(f, ip)))
				break;
			which ^= 1;
			if (restart(&c, &uc[which], p) < 0)
				break;
			f = p;	  /* the next body met stands for a frame below this one */
			continue; /* the cursor is at p's caller, not yet taken */
		}
		if (started) {
			if (!ip)
				break;
			path[n++] = ip;
			if (n == depth)
				break;
		}
		if (++steps >= 4 * TT_PATH_MAX || unwind_step(&c) <= 0)
			break;
	}
	return n;
}

/*
 * A tail re-entry's frames (see tt_callers_tail_origin) into path: one per traced call it
 * came from, innermost first, until a call that was called. *from: that call (f when f was
 * called). The frame count, at most max.
 */
static int tail_frames(struct tt_frame *f, uint64_t *path, int max, struct tt_frame **from)
{
	const struct tt_frame *p;
	int n = 0;

	*from = f;
	while (n < max && (p = tt_callers_tail_origin(*from))) {
		path[n++] = TT_TAIL_FRAME | p->func;
		*from = (struct tt_frame *)p;
	}
	return n;
}

/* The path of f's call into path (at most tt_callers_depth frames); the frame count. */
static int take_path(struct tt_frame *f, uint64_t *path)
{
	void *ips[TT_PATH_MAX + 8];
	struct tt_frame *from;
	int n, k, depth = tail_frames(f, path, (int)tt_callers_depth, &from);

	if (from != f) { /* beyond the landing, only the cursor unwinds right (see above) */
		int tails = depth;

		if (depth < (int)tt_callers_depth && unwind_getcontext)
			depth = walk_cursor(f, from, path, depth, (int)tt_callers_depth);
		if (depth == tails && depth < (int)tt_callers_depth)
			path[depth++] = from->ret; /* no unwinding: the real caller at least */
		return depth;
	}
	n = unwind_backtrace(ips, (int)(sizeof(ips) / sizeof(ips[0])));
	for (k = 0; k < n && (uint64_t)ips[k] != f->ret; k++)
		;
	for (; k < n && depth < (int)tt_callers_depth; k++) {
		/* An enclosing call's body (see above); the call's own return address may be the
		 * shim's: its calibration calls traced functions. */
		if (depth && own_code((uint64_t)ips[k])) {
			if (unwind_getcontext)
				depth = walk_cursor(f, f, path, 0, (int)tt_callers_depth);
			break;
		}
		path[depth++] = (uint64_t)ips[k];
	}
	if (!depth) /* could not unwind to the caller: its return address at least */
		path[depth++] = f->ret;
	return depth;
}

struct rule_query {
	uintptr_t pc;
	struct tt_cfi_rule rule;
};

static int rule_in(struct tt_elf *o, void *ctx)
{
	struct rule_query *q = ctx;

	if (!tt_elf_in_exec(o, q->pc))
		return 0;
	tt_cfi_rule_at(o, q->pc, &q->rule);
	return 1;
}

/* The rule of return address ip for the fast walk, from its object's .eh_frame. */
static uint64_t rule_of(uint64_t ip)
{
	struct rule_query q = { .pc = ip - 1 };

	q.rule.kind = TT_CFI_NONE;
	tt_elf_foreach(rule_in, &q);
	switch (q.rule.kind) {
	case TT_CFI_RSP:
	case TT_CFI_RBP:
		return tt_rule_pack(q.rule.kind == TT_CFI_RSP ? TT_RULE_RSP : TT_RULE_RBP,
				    q.rule.cfa_off, q.rule.rbp_saved, q.rule.rbp_off);
	case TT_CFI_END: return TT_RULE_END;
	default: return TT_RULE_SLOW; /* libunwind's, every time */
	}
}

/* After a path taken by libunwind: the rules of its frames, for the fast walk next time. */
static void learn_rules(const uint64_t *path, int depth)
{
	int i;

	if (!tt_callers_fast_on)
		return;
	for (i = 0; i < depth; i++)
		if (path[i] > 1 && !(path[i] & TT_TAIL_FRAME) && !own_code(path[i]) &&
		    !tt_rule_find(path[i]))
			tt_rule_add(path[i], rule_of(path[i]));
}

static uint64_t clock_now(void)
{
	uint32_t lo, hi;

	if (clock_mono)
		return tt_clock_ns(CLOCK_MONOTONIC_RAW);
	__asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* The time from `since` to now, out of every enclosing timed call's interval. */
static void leave_out(struct tt_frame *f, uint64_t since)
{
	struct tt_frame *p, *base;
	uint64_t spent;

	if (!tt_tls.thread || tt_tls.notsc)
		return;
	spent = clock_now() - since;
	if ((int64_t)spent <= 0)
		return;
	base = tt_tls.thread->frames;
	for (p = base; p < f; p++)
		if (p->start_ticks)
			p->start_ticks += spent;
}

static void callers_exit_deep(struct tt_frame *f, uint64_t raw, uint32_t aux)
{
	uint64_t path[TT_PATH_MAX];
	struct tt_func_stats *site = NULL;
	/* The guard first: errno is __errno_location(), which may be a traced function. */
	uint8_t was = tt_shim_enter();
	int saved = errno, depth;
	/* From the call's end reading; a call sampling passed over (start 0) read none. */
	uint64_t since = f->start_ticks ? f->start_ticks + raw : tt_tls.notsc ? 0 : clock_now();

	depth = take_path(f, path);
	learn_rules(path, depth);
	if (tt_tls.thread)
		site = tt_callers_site(tt_tls.thread, f->func, path, (uint32_t)depth);
	leave_out(f, since);
	errno = saved;
	tt_shim_leave(was);
	tt_call_finish(f, raw, aux, site);
}
