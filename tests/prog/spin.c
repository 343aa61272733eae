/*
 * spin.c - libspin.so, the callees of the accuracy test (t_accuracy) and of bench's accuracy
 * table: functions whose true duration is known in TSC ticks.
 *
 *	spin_1k, spin_10k, spin_100k	busy-wait until 1,000 / 10,000 / 100,000 TSC ticks have
 *					passed since their own entry
 *	spin_empty			does nothing
 *
 * The TSC is read with the serialized sequences tsctrace's default mode uses (docs/clock.md):
 * with rdtscp announced by CPUID 0x80000001 EDX[27], `lfence; rdtsc` at entry and
 * `rdtscp; lfence` in the loop; without it (AMD EPYC VMs), `lfence; rdtsc; lfence` everywhere,
 * and rdtscp is never executed. Each spin lasts N ticks rounded up to the TSC's step (21 ticks
 * on those AMD VMs), plus at most one loop iteration.
 *
 * Exported and noipa: every call from another object goes through its PLT/GOT, the path the
 * shim hooks, and the compiler cannot fold or clone the bodies.
 */
#include "tp_tsc.h"
#include <stdint.h>

#define EXPORT __attribute__((visibility("default"), noipa))

void spin_1k(void);
void spin_10k(void);
void spin_100k(void);
void spin_empty(void);

static int spin_rdtscp;

__attribute__((constructor)) static void spin_init(void)
{
	spin_rdtscp = tp_rdtscp_announced();
}

/* Returns once at least n ticks have passed since its first read. */
static inline __attribute__((always_inline)) void spin_ticks(uint64_t n)
{
	uint64_t t0;

	if (spin_rdtscp) {
		t0 = rd_lfence_rdtsc();
		while (rd_rdtscp_lfence() - t0 < n)
			;
	} else {
		t0 = rd_fenced();
		while (rd_fenced() - t0 < n)
			;
	}
}

EXPORT void spin_1k(void)
{
	spin_ticks(1000);
}

EXPORT void spin_10k(void)
{
	spin_ticks(10000);
}

EXPORT void spin_100k(void)
{
	spin_ticks(100000);
}

EXPORT void spin_empty(void)
{
}
