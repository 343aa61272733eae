/*
 * tp_tsc.h - serialized TSC reads for the test programs' own, independent measurements:
 * the same instructions as the shim's default mode (lfence;rdtsc ... rdtscp;lfence), or
 * lfence;rdtsc;lfence at both ends where CPUID does not announce rdtscp - which is then
 * never executed.
 */
#ifndef TP_TSC_H
#define TP_TSC_H

#include <cpuid.h>
#include <stdint.h>

/* CPUID 80000001H:EDX[27]. */
static inline int tp_rdtscp_announced(void)
{
	unsigned int a, b, c, d;

	if (!__get_cpuid(0x80000001, &a, &b, &c, &d))
		return 0;
	return (d >> 27) & 1;
}

static inline __attribute__((always_inline)) uint64_t rd_lfence_rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* Only ever executed when tp_rdtscp_announced(). */
static inline __attribute__((always_inline)) uint64_t rd_rdtscp_lfence(void)
{
	uint32_t lo, hi, aux;

	__asm__ volatile("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

static inline __attribute__((always_inline)) uint64_t rd_fenced(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

#endif /* TP_TSC_H */
