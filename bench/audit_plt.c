/*
 * audit_plt.c - libaudit_plt.so, the LD_AUDIT peer of bench/run.sh.
 *
 * The dynamic loader's audit interface (rtld-audit(7)) can call an auditor before and after
 * every PLT call: la_x86_64_gnu_pltenter and la_x86_64_gnu_pltexit. No prototype is needed and
 * no code is patched, but every audited call goes through glibc's _dl_runtime_profile
 * (registers saved into La_x86_64_regs, the auditor called, the stack frame copied for
 * pltexit, the auditor called again) and the PLT slot is never bound, so it takes that path
 * on every call.
 *
 *	LD_AUDIT=libaudit_plt.so BENCH_AUDIT_FUNC=bench_fn BENCH_AUDIT_OUT=file ./percall plain N
 *
 * la_symbind64 asks for pltenter/pltexit only for BENCH_AUDIT_FUNC (default bench_fn); other
 * symbols get LA_SYMB_NOPLTENTER|LA_SYMB_NOPLTEXIT. The TSC is read as late as possible in
 * pltenter and as early as possible in pltexit, with tsctrace's default mode (bench/tsc.h),
 * and the sample goes into a per-thread struct tt_hist (src/hist/hist.h), as in wrap_typed.c.
 * pltenter sets *framesizep to 0 (bench_fn takes no stack arguments): without a frame size
 * glibc skips pltexit.
 *
 * At exit BENCH_AUDIT_OUT gets `calls=N min=M median=D` like wrap_typed's.
 */
#define _GNU_SOURCE
#include <link.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hist/hist.h"

#include "hist_median.h"
#include "tsc.h"

#define EXPORT __attribute__((visibility("default")))
#define DEPTH 256

struct audit_thread {
	uint32_t depth;
	uint64_t start[DEPTH];
	struct tt_hist hist;
	struct audit_thread *next;
};

static int use_rdtscp = -1;
static const char *audit_func = "bench_fn";
static pthread_mutex_t all_lock = PTHREAD_MUTEX_INITIALIZER;
static struct audit_thread *all;
static __thread struct audit_thread *self;

EXPORT unsigned int la_version(unsigned int version)
{
	const char *f = getenv("BENCH_AUDIT_FUNC");

	if (f && *f)
		audit_func = f;
	use_rdtscp = bench_has_rdtscp();
	return version < LAV_CURRENT ? version : LAV_CURRENT;
}

EXPORT unsigned int la_objopen(struct link_map *map, Lmid_t lmid, uintptr_t *cookie)
{
	(void)map;
	(void)lmid;
	(void)cookie;
	return LA_FLG_BINDTO | LA_FLG_BINDFROM;
}

EXPORT uintptr_t la_symbind64(Elf64_Sym *sym, unsigned int ndx, uintptr_t *refcook,
			      uintptr_t *defcook, unsigned int *flags, const char *symname)
{
	(void)ndx;
	(void)refcook;
	(void)defcook;
	if (strcmp(symname, audit_func))
		*flags |= LA_SYMB_NOPLTENTER | LA_SYMB_NOPLTEXIT;
	return sym->st_value;
}

__attribute__((noinline)) static struct audit_thread *audit_thread_new(void)
{
	struct audit_thread *t = calloc(1, sizeof(*t));

	if (!t)
		abort();
	t->hist.min = UINT64_MAX;
	pthread_mutex_lock(&all_lock);
	t->next = all;
	all = t;
	pthread_mutex_unlock(&all_lock);
	self = t;
	return t;
}

EXPORT Elf64_Addr la_x86_64_gnu_pltenter(Elf64_Sym *sym, unsigned int ndx, uintptr_t *refcook,
					 uintptr_t *defcook, La_x86_64_regs *regs,
					 unsigned int *flags, const char *symname,
					 long int *framesizep)
{
	struct audit_thread *t = self;

	(void)ndx;
	(void)refcook;
	(void)defcook;
	(void)regs;
	(void)flags;
	(void)symname;
	if (!t)
		t = audit_thread_new();
	*framesizep = 0;
	if (t->depth < DEPTH)
		t->start[t->depth] = use_rdtscp ? tsc_lfence_rdtsc() : tsc_lfenced();
	t->depth++;
	return sym->st_value;
}

EXPORT unsigned int la_x86_64_gnu_pltexit(Elf64_Sym *sym, unsigned int ndx, uintptr_t *refcook,
					  uintptr_t *defcook, const La_x86_64_regs *inregs,
					  La_x86_64_retval *outregs, const char *symname)
{
	uint64_t t1 = use_rdtscp ? tsc_rdtscp_lfence() : tsc_lfenced();
	struct audit_thread *t = self;

	(void)sym;
	(void)ndx;
	(void)refcook;
	(void)defcook;
	(void)inregs;
	(void)outregs;
	(void)symname;
	if (!t || !t->depth)
		return 0;
	t->depth--;
	if (t->depth < DEPTH) {
		uint64_t t0 = t->start[t->depth];

		tt_hist_record(&t->hist, t1 > t0 ? t1 - t0 : 0);
	}
	return 0;
}

__attribute__((destructor)) static void audit_fini(void)
{
	const char *path = getenv("BENCH_AUDIT_OUT");
	uint64_t calls = 0, min = UINT64_MAX, median = 0;
	struct audit_thread *t;
	FILE *f;

	if (!path)
		return;
	pthread_mutex_lock(&all_lock);
	for (t = all; t; t = t->next) {
		calls += t->hist.count;
		if (t->hist.min < min)
			min = t->hist.min;
		median = bench_hist_median(&t->hist);
	}
	pthread_mutex_unlock(&all_lock);
	f = fopen(path, "w");
	if (!f)
		return;
	fprintf(f, "calls=%llu min=%llu median=%llu\n", (unsigned long long)calls,
		(unsigned long long)(calls ? min : 0), (unsigned long long)median);
	fclose(f);
}
