/*
 * cpu_persona.h - TSC_CPU: make the shim see another CPU's clock facts, so that the code paths
 * of both CPU families this project runs on are exercised on whichever machine runs the tests.
 *
 * The families differ in what CPUID announces and in how the TSC advances (docs/clock.md):
 *   intel-vm  rdtscp announced, TSC step 2, invariant, under a hypervisor;
 *   amd-vm    rdtscp NOT announced (though it runs), TSC step 21, invariant, hypervisor.
 * A persona overrides the facts the shim probed; it cannot add what the hardware lacks: a
 * finer step than the hardware's is impossible, and an rdtscp that CPUID hides stays hidden
 * (the shim never executes an instruction CPUID does not announce).
 *
 * Pure: string in, struct out; the shim applies it in clock.c and emul_step.c.
 */
#ifndef TT_CPU_PERSONA_H
#define TT_CPU_PERSONA_H

#include <stdbool.h>
#include <stdint.h>

#define TT_PERSONA_KEEP (-1) /* a fact left as probed */
#define TT_PERSONA_MAX_STEP 4096

struct tt_cpu_persona {
	bool set;	   /* TSC_CPU given and valid */
	int8_t rdtscp;	   /* 0 hide, 1 announce, or TT_PERSONA_KEEP */
	int8_t invariant;  /* 0, 1, or TT_PERSONA_KEEP */
	int8_t hypervisor; /* 0, 1, or TT_PERSONA_KEEP */
	uint32_t step;	   /* TSC ticks per step to emulate (>= 2), 0 for the hardware's */
	char text[64];	   /* the value as given, for messages and the report */
};

/* The probed facts a persona may override (a subset of struct tt_clock). */
struct tt_cpu_facts {
	bool rdtscp, invariant, hypervisor;
};

/*
 * Parse a TSC_CPU value: a preset (`intel-vm`, `amd-vm`, `host`) and/or a comma-separated list
 * of `rdtscp=0|1`, `invariant=0|1`, `hypervisor=0|1`, `step=N` (1..4096; 1 = the hardware's),
 * later items overriding earlier ones ("amd-vm,invariant=0"). 0 with *out filled, or -1 with
 * *why set to a short reason and *out left unset.
 */
int tt_cpu_persona_parse(const char *val, struct tt_cpu_persona *out, const char **why);

/*
 * Apply p to the probed facts f. An rdtscp the persona announces although CPUID hides it
 * stays hidden: returns false in that case (the caller says so), else true.
 */
bool tt_cpu_persona_apply(const struct tt_cpu_persona *p, struct tt_cpu_facts *f);

/* v rounded down to the emulated step (v itself when step < 2). */
static inline uint64_t tt_cpu_persona_quantize(uint64_t v, uint32_t step)
{
	return step > 1 ? v - v % step : v;
}

#endif /* TT_CPU_PERSONA_H */
