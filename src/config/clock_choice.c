/*
 * clock_choice.c - see clock_choice.h.
 *
 * Why these choices: the default end-read `rdtscp` is what the classic RDTSC articles
 * recommend, but AMD EPYC VMs hide it in CPUID while running it, and the rule is never to
 * execute what CPUID does not announce (a hypervisor may fault it: SIGILL in the host
 * program). So without the bit the default becomes `lfence; rdtsc; lfence`, which serializes
 * as well and only lacks the CPU id. CPUID itself exits to the hypervisor under
 * virtualization (12,600-17,700 ticks measured here), so the `cpuid` mode warns when
 * CPUID.1:ECX[31] says we are a guest.
 */
#include "config/clock_choice.h"
#include "config/variant.h"

/* Whether to time with the TSC at all, saying why not. */
static bool use_tsc(const struct tt_clock_facts *f, const struct tt_config *cfg,
		    tt_clock_say_fn say, void *ctx)
{
	switch (cfg->clock) {
	case TT_CLK_MONOTONIC:
		say(ctx, false, "TSC_CLOCK=monotonic: times are CLOCK_MONOTONIC_RAW nanoseconds");
		return false;
	case TT_CLK_TSC:
		if (f->readable) {
			if (!f->cpu.invariant)
				say(ctx, true,
				    "TSC_CLOCK=tsc: this TSC is not invariant, "
				    "ticks are not a steady clock");
			return true;
		}
		say(ctx, true,
		    "TSC_CLOCK=tsc: the TSC cannot be read in this process (prctl "
		    "PR_SET_TSC), using CLOCK_MONOTONIC_RAW nanoseconds");
		return false;
	default:
		if (!f->readable) {
			say(ctx, true,
			    "the TSC cannot be read in this process (prctl PR_SET_TSC): "
			    "using CLOCK_MONOTONIC_RAW nanoseconds");
			return false;
		}
		if (!f->cpu.invariant) {
			say(ctx, true,
			    "the TSC is not invariant on this CPU: using "
			    "CLOCK_MONOTONIC_RAW nanoseconds");
			return false;
		}
		return true;
	}
}

/* The default and TSC_SERIALIZE=rdtscp: rdtscp where announced, else lfence. An rdtscp that
 * CPUID hides is never tried, asked for or not: it may run today (AMD EPYC VMs) and fault or
 * misbehave on the next host, and its TSC_AUX there is not a Linux CPU number. */
static int rdtscp_or_lfence(const struct tt_clock_facts *f, const struct tt_config *cfg,
			    tt_clock_say_fn say, void *ctx)
{
	if (f->cpu.rdtscp)
		return TT_VAR_RDTSCP;
	if (cfg->serialize_set)
		say(ctx, true,
		    "TSC_SERIALIZE=rdtscp: CPUID does not announce rdtscp, using "
		    "lfence;rdtsc;lfence at both ends");
	else
		say(ctx, false,
		    "rdtscp is not announced by CPUID: serializing with "
		    "lfence;rdtsc;lfence at both ends");
	return TT_VAR_LFENCE;
}

int tt_clock_decide(const struct tt_clock_facts *f, const struct tt_config *cfg,
		    tt_clock_say_fn say, void *ctx)
{
	if (!use_tsc(f, cfg, say, ctx))
		return TT_VAR_MONO;
	switch (cfg->serialize) {
	case TT_SER_LFENCE: return TT_VAR_LFENCE;
	case TT_SER_MFENCE: return TT_VAR_MFENCE;
	case TT_SER_NONE: return TT_VAR_NONE;
	case TT_SER_CPUID:
		if (f->cpu.hypervisor)
			say(ctx, true,
			    "TSC_SERIALIZE=cpuid under a hypervisor: every cpuid exits "
			    "to it (~15,000 ticks), so each traced call costs that twice");
		return f->cpu.rdtscp ? TT_VAR_CPUID : TT_VAR_CPUID_NORDTSCP;
	default: return rdtscp_or_lfence(f, cfg, say, ctx);
	}
}

const char *tt_clock_variant_name(int variant)
{
	static const char *const names[TT_VAR_COUNT] = {
		"rdtscp", "lfence", "mfence", "cpuid", "cpuid", "none", "clock_gettime",
	};

	return variant >= 0 && variant < TT_VAR_COUNT ? names[variant] : "unknown";
}
