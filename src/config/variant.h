/*
 * variant.h - the trampoline variants: one entry/return body per way of reading the TSC,
 * chosen at start-up from TSC_SERIALIZE, TSC_CLOCK and the CPU (clock_choice.h). Numbers,
 * because the assembly (src/tramp/) builds one body per variant from them.
 */
#ifndef TT_VARIANT_H
#define TT_VARIANT_H

#define TT_VAR_RDTSCP 0		/* lfence;rdtsc ... rdtscp;lfence (CPU id from TSC_AUX) */
#define TT_VAR_LFENCE 1		/* lfence;rdtsc;lfence at both ends */
#define TT_VAR_MFENCE 2		/* mfence;lfence;rdtsc at both ends */
#define TT_VAR_CPUID 3		/* cpuid;rdtsc ... rdtscp;cpuid (Intel white paper) */
#define TT_VAR_CPUID_NORDTSCP 4 /* cpuid;rdtsc at both ends, for CPUs without rdtscp */
#define TT_VAR_NONE 5		/* bare rdtsc */
#define TT_VAR_MONO 6		/* clock_gettime(CLOCK_MONOTONIC_RAW) by syscall: no usable TSC */
#define TT_VAR_COUNT 7

#endif /* TT_VARIANT_H */
