/*
 * tsc.h - the TSC read sequences of tsctrace's TSC_SERIALIZE modes (libtsctrace(7), ENVIRONMENT),
 * written out by hand for the benchmark's references and peers (percall, wrap_typed,
 * audit_plt). Inline, header only; nothing here is shared with the shim's sources.
 *
 *	mode	start of an interval		end of an interval
 *	rdtscp	lfence; rdtsc			rdtscp; lfence
 *	lfence	lfence; rdtsc; lfence		lfence; rdtsc; lfence
 *	mfence	mfence; lfence; rdtsc		mfence; lfence; rdtsc
 *	cpuid	cpuid; rdtsc			rdtscp; cpuid  (cpuid; rdtsc without rdtscp)
 *	none	rdtsc				rdtsc
 *
 * rdtscp is executed only when CPUID 80000001H:EDX[27] announces it (bench_has_rdtscp()).
 */
#ifndef BENCH_TSC_H
#define BENCH_TSC_H

#include <cpuid.h>
#include <stdint.h>
#include <string.h>

enum bench_mode { BM_RDTSCP, BM_LFENCE, BM_MFENCE, BM_CPUID, BM_NONE, BM_COUNT };

static inline const char *bench_mode_name(int m)
{
	static const char *const names[BM_COUNT] = {
		"rdtscp", "lfence", "mfence", "cpuid", "none",
	};

	return m >= 0 && m < BM_COUNT ? names[m] : "?";
}

static inline int bench_has_rdtscp(void)
{
	unsigned int a, b, c, d;

	if (!__get_cpuid(0x80000001, &a, &b, &c, &d))
		return 0;
	return (d >> 27) & 1;
}

/* tsctrace's default: rdtscp where CPUID announces it, else lfence (docs/clock.md). */
static inline enum bench_mode bench_default_mode(void)
{
	return bench_has_rdtscp() ? BM_RDTSCP : BM_LFENCE;
}

/* Mode by name; -1 if unknown. */
static inline int bench_mode_parse(const char *s)
{
	int i;

	for (i = 0; i < BM_COUNT; i++)
		if (!strcmp(s, bench_mode_name(i)))
			return i;
	return -1;
}

#define BENCH_TSC(lo, hi) (((uint64_t)(hi) << 32) | (lo))

static inline __attribute__((always_inline)) uint64_t tsc_lfence_rdtsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return BENCH_TSC(lo, hi);
}

static inline __attribute__((always_inline)) uint64_t tsc_rdtscp_lfence(void)
{
	uint32_t lo, hi, aux;

	__asm__ volatile("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) : : "memory");
	return BENCH_TSC(lo, hi);
}

static inline __attribute__((always_inline)) uint64_t tsc_lfenced(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
	return BENCH_TSC(lo, hi);
}

static inline __attribute__((always_inline)) uint64_t tsc_mfenced(void)
{
	uint32_t lo, hi;

	__asm__ volatile("mfence\n\tlfence\n\trdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return BENCH_TSC(lo, hi);
}

/* cpuid (leaf 0) then rdtsc: cpuid waits for everything before it to finish. */
static inline __attribute__((always_inline)) uint64_t tsc_cpuid_rdtsc(void)
{
	uint32_t lo, hi, b, c;

	__asm__ volatile("xorl %%eax, %%eax\n\tcpuid\n\trdtsc"
			 : "=a"(lo), "=d"(hi), "=b"(b), "=c"(c)
			 :
			 : "memory");
	return BENCH_TSC(lo, hi);
}

/* rdtscp then cpuid: the Intel white paper's end read. */
static inline __attribute__((always_inline)) uint64_t tsc_rdtscp_cpuid(void)
{
	uint32_t lo, hi, a, b, c, d;

	__asm__ volatile("rdtscp\n\tmovl %%eax, %0\n\tmovl %%edx, %1\n\t"
			 "xorl %%eax, %%eax\n\tcpuid"
			 : "=r"(lo), "=r"(hi), "=a"(a), "=b"(b), "=c"(c), "=d"(d)
			 :
			 : "memory");
	return BENCH_TSC(lo, hi);
}

static inline __attribute__((always_inline)) uint64_t tsc_bare(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi) : : "memory");
	return BENCH_TSC(lo, hi);
}

#endif /* BENCH_TSC_H */
