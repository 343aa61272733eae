/*
 * clock_choice.h - which clock and which TSC reads to use, from the CPU's facts and the
 * configuration (pure: unit-tested with the facts of every CPU family, tests/unit).
 */
#ifndef TT_CLOCK_CHOICE_H
#define TT_CLOCK_CHOICE_H

#include <stdbool.h>

#include "config/config.h"
#include "config/cpu_persona.h"
#include "config/variant.h"

struct tt_clock_facts {
	bool readable;		 /* rdtsc allowed in this process (prctl PR_GET_TSC) */
	struct tt_cpu_facts cpu; /* rdtscp announced, invariant, hypervisor */
};

/* Receives each line the choice calls for; warn: printed even under TSC_QUIET. */
typedef void (*tt_clock_say_fn)(void *ctx, bool warn, const char *line);

/*
 * The trampoline variant (TT_VAR_*) for cfg on a CPU with facts f: the TSC when it is readable
 * and invariant (or forced with TSC_CLOCK=tsc and readable), else TT_VAR_MONO; never one that
 * executes an instruction CPUID does not announce, even asked for (TSC_SERIALIZE=rdtscp on a
 * CPU that hides it gets lfence and a warning). The lines the choice calls for go to say.
 */
int tt_clock_decide(const struct tt_clock_facts *f, const struct tt_config *cfg,
		    tt_clock_say_fn say, void *ctx);

/* The report's name of a variant: "rdtscp", "lfence", ... "clock_gettime". */
const char *tt_clock_variant_name(int variant);

#endif /* TT_CLOCK_CHOICE_H */
