/*
 * cpu_cache.h - what an earlier run learnt of this CPU by asking CPUID (each leaf an exit to
 * the hypervisor, ~5-7 us on the VMs here) and by timing the TSC's step, kept in
 * $XDG_CACHE_HOME/tsctrace/ (calib_cache.h's directory) so that a short process's report
 * asks none of it again. docs/clock.md says what may be taken from it and why:
 *
 *  - the key is the CPUID leaves glibc's loader already asked in this process (1, 7,
 *    80000001H, 80000007H, 80000008H and the rest it keeps, the initial APIC ID masked out):
 *    signature, feature flags, address sizes, core counts; free to read;
 *  - under it: the brand string (a label), the highest basic leaf, whether leaf 15H stated
 *    the TSC's rate and the hypervisor's highest leaf (40000000H EAX);
 *  - never a rate: a leaf that stated one is asked again in every run; what is skipped on the
 *    cache's word is only a leaf that stated nothing, and the rate is then measured, as it
 *    would be anyway;
 *  - the TSC's step, as a hypothesis only: a quarter of the reads must show the same step
 *    (clock.h, tt_clock_granularity), else all of them are taken.
 *
 * Raw system calls only: it runs at the report, perhaps at exit. Every failure means asking
 * and measuring as before; nothing is said.
 */
#ifndef TT_CPU_CACHE_H
#define TT_CPU_CACHE_H

#include <stdbool.h>
#include <stdint.h>

struct tt_cpu_kept {
	char key[352];	      /* the leaves glibc kept, in hex */
	bool loaded;	      /* the rest was read from a file of this key */
	bool changed;	      /* learnt or corrected by this run: to be stored */
	uint32_t max_basic;   /* CPUID 0 EAX */
	bool rate15;	      /* leaf 15H stated a rate (asked again each run) */
	uint32_t hv_max;      /* 40000000H EAX; 0 when not asked (no hypervisor bit) */
	char brand[64];	      /* 80000002H-4H, trimmed ("" when absent) */
	uint64_t granularity; /* the TSC's step a whole measure found; 0 not yet */
};

/* The key of this CPU into k, and k's other fields from dir's file of that key when there is
 * one (k->loaded). dir "" (no cache): the key only. */
void tt_cpu_cache_load(const char *dir, struct tt_cpu_kept *k);

/* Keep k under its key in dir (a temporary file renamed into place); silent when it cannot. */
void tt_cpu_cache_store(const char *dir, const struct tt_cpu_kept *k);

#endif /* TT_CPU_CACHE_H */
