/*
 * nest.c - libnest.so, the callees of the self-time and per-thread tests (t_self, t_thr4):
 * traced functions that call traced functions, with known costs in TSC ticks.
 *
 *	nest_child	spins 10,000 ticks
 *	nest_parent	spins 20,000 ticks, then calls nest_child: self 20,000, total 30,000
 *	nest_rec(n)	spins 2,000 ticks, then calls itself with n - 1 while n > 0
 *	nest_jumper(b)	spins 1,000 ticks, then longjmps to b
 *	nest_ljparent	spins 5,000 ticks, calls nest_jumper (which never returns), then
 *			nest_child: its self time is unknown
 *	nest_leaf	does nothing (the per-thread test's counted function)
 *
 * Exported and noipa, built without sibling calls: every call goes through the PLT, the
 * path the shim hooks. The spins read the TSC as spin.c's do: N ticks plus at most one loop
 * iteration.
 */
#include "tp_tsc.h"
#include <setjmp.h>
#include <stdint.h>

#define EXPORT __attribute__((visibility("default"), noipa))

void nest_child(void);
void nest_parent(void);
void nest_rec(int n);
void nest_jumper(jmp_buf *b);
void nest_ljparent(void);
void nest_leaf(void);

static int nest_rdtscp;

__attribute__((constructor)) static void nest_init(void)
{
	nest_rdtscp = tp_rdtscp_announced();
}

static inline __attribute__((always_inline)) void spin_ticks(uint64_t n)
{
	uint64_t t0;

	if (nest_rdtscp) {
		t0 = rd_lfence_rdtsc();
		while (rd_rdtscp_lfence() - t0 < n)
			;
	} else {
		t0 = rd_fenced();
		while (rd_fenced() - t0 < n)
			;
	}
}

EXPORT void nest_child(void)
{
	spin_ticks(10000);
}

EXPORT void nest_parent(void)
{
	spin_ticks(20000);
	nest_child();
}

EXPORT void nest_rec(int n)
{
	spin_ticks(2000);
	if (n > 0)
		nest_rec(n - 1);
}

EXPORT void nest_jumper(jmp_buf *b)
{
	spin_ticks(1000);
	longjmp(*b, 1);
}

EXPORT void nest_ljparent(void)
{
	jmp_buf b;

	spin_ticks(5000);
	if (!setjmp(b))
		nest_jumper(&b);
	nest_child();
}

EXPORT void nest_leaf(void)
{
	__asm__ volatile("" ::: "memory");
}
