/*
 * clock.h - what the TSC of this machine can be trusted for (docs/clock.md): is it
 * readable and invariant, which fences exist, how fast it ticks, and which trampoline
 * variant reads it the way TSC_SERIALIZE asks.
 */
#ifndef TT_CLOCK_H
#define TT_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "config/config.h"
#include "config/variant.h"

struct tt_clock {
	bool readable;		/* rdtsc allowed (prctl PR_GET_TSC) */
	bool invariant;		/* CPUID 80000007H:EDX[8], or constant_tsc + nonstop_tsc */
	bool hypervisor;	/* CPUID.1:ECX[31] (tt_clock_describe) */
	bool rdtscp;		/* CPUID 80000001H:EDX[27] */
	char cpu[64];		/* brand string (tt_clock_describe) */
	uint32_t signature;	/* CPUID.1:EAX, family, model, stepping (tt_clock_describe) */
	uint64_t start_tsc;	/* pair taken at start-up ... */
	uint64_t start_mono_ns; /* ... with CLOCK_MONOTONIC_RAW */
	uint64_t start_window;	/* TSC ticks between the two reads around that clock read */
	uint64_t start_real_ns; /* CLOCK_REALTIME at start-up */
	uint64_t start_wall_ns; /* CLOCK_MONOTONIC at start-up */
	int variant;		/* TT_VAR_* in use */
	const char *serialize;	/* its name for the report */
	const char *source;	/* "tsc", or "monotonic" (ticks are then nanoseconds) */
	uint64_t cpuid_hz;	/* TSC rate from CPUID leaf 15H when it is complete, else 0 */
	uint64_t hypervisor_hz; /* TSC rate from the hypervisor's leaf 40000010H, else 0 */
	bool described;		/* tt_clock_describe has run */
	unsigned int max_ext;	/* an extended CPUID leaf known to exist (tt_clock_describe) */
	uint32_t step;		/* TSC_CPU step=N being emulated, else 0 */
};

/* Fill c with what start-up decides on (rdtscp, invariant, readable: the CPUID leaves glibc
 * kept, prctl, and /proc/cpuinfo only when CPUID does not say invariant), and take the
 * start-up time pairs. */
void tt_clock_probe(struct tt_clock *c);

/* The rest, for the report (each cpuid exits to a hypervisor, ~6 us): brand, hypervisor bit
 * and signature (leaf 1, as glibc kept it), the TSC rate where leaf 15H or the hypervisor's
 * leaf 40000010H states it. Once. k (or NULL): what an earlier run learnt (cpu_cache.h),
 * taken as that file allows when k->loaded, else filled from what was asked now; k->changed
 * says it is to be stored. */
struct tt_cpu_kept;
void tt_clock_describe(struct tt_clock *c, struct tt_cpu_kept *k);

/*
 * Choose the clock (TSC_CLOCK: the TSC when it is readable and invariant, else
 * CLOCK_MONOTONIC_RAW nanoseconds) and the trampoline variant for the configured
 * serialization, never one that executes an instruction CPUID does not announce (an explicit
 * TSC_SERIALIZE=rdtscp is honoured when a probe shows the instruction runs). Prints the lines
 * the choice calls for. Sets c->variant, c->serialize and c->source.
 */
void tt_clock_choose(struct tt_clock *c, const struct tt_config *cfg);

/*
 * TSC ticks per second: CPUID leaf 15H's figure when the CPU gives it whole (*source
 * "cpuid", *error_ppm 0: as stated), else the hypervisor's timing leaf 40000010H (*source
 * "hypervisor", kHz as stated; tt_clock_describe must have run), else measured between start-up and now against
 * CLOCK_MONOTONIC_RAW (*source "calibrated"), without waiting: *error_ppm bounds how far the
 * figure may be off, from the two pairs' read windows, the TSC's granularity (a read may be
 * up to one step behind) and the clock's 1 ns steps, over the time the run lasted (about
 * 100 ppm for a 1 ms run, 1 ppm for a second). 0 (*source "none") without a TSC.
 */
uint64_t tt_clock_hz(const struct tt_clock *c, uint64_t granularity, const char **source,
		     uint32_t *error_ppm);

/*
 * The TSC's step in ticks (config/tsc_step.h): from the differences between serialized reads
 * around amounts of work one cycle apart (some CPUs advance the counter by more than 1: 21 or
 * 24.5 on AMD EPYC VMs here, reported as 25). `seen` is a gcd observed elsewhere (the
 * overhead calibration's readings), or 0. `expect`: the step an earlier whole measure found
 * (cpu_cache.h), or 0: returned after a quarter of the reads when they show the same step.
 */
uint64_t tt_clock_granularity(const struct tt_clock *c, uint64_t seen, uint64_t expect);

/* Nanoseconds of a clock (CLOCK_MONOTONIC etc.); by raw syscall in a thread that has
 * forbidden itself the TSC (the vDSO may read it). */
uint64_t tt_clock_ns(int clock_id);

/* This thread is about to forbid itself the TSC: take the last (TSC, ns) pair for tt_clock_hz
 * and have tt_clock_ns and tt_clock_hz ask, from now on, whether the TSC may be read. */
void tt_clock_forbidding(void);

/* False when the calling thread has forbidden itself the TSC (prctl PR_SET_TSC); one
 * syscall, and only once some thread has done so (tt_clock_forbidding). */
bool tt_clock_tsc_allowed_here(void);

#endif /* TT_CLOCK_H */
