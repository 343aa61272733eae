/*
 * tp_cpu.h - CPU-affinity helpers for the pinning and migration tests (header-only).
 *
 * Masks are written as plain comma lists of CPU numbers ("0,1,5"), never as ranges, so that
 * run.sh can compare and count them with simple text tools.
 */
#ifndef TP_CPU_H
#define TP_CPU_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define TP_CPU_LIST_MAX 8192

/*
 * The calling thread's affinity mask as the kernel enforces it, or exit 2. Read with the
 * raw system call: the shim's sched_getaffinity shows a pinned thread its own mask from
 * before the pin (so that programs sizing themselves by their CPUs are not misled), and
 * these tests check what is really in force.
 */
static inline void tp_cpu_get(cpu_set_t *set)
{
	CPU_ZERO(set);
	if (syscall(SYS_sched_getaffinity, 0, sizeof(*set), set) < 0) {
		perror("sched_getaffinity");
		exit(2);
	}
}

/* The calling thread's affinity mask as libc's sched_getaffinity reports it. */
static inline void tp_cpu_seen(cpu_set_t *set)
{
	CPU_ZERO(set);
	if (sched_getaffinity(0, sizeof(*set), set) != 0) {
		perror("sched_getaffinity");
		exit(2);
	}
}

/* "0,1,5" into out (TP_CPU_LIST_MAX bytes); "-" for an empty set. */
static inline char *tp_cpu_list(const cpu_set_t *set, char *out)
{
	size_t n = 0;
	int cpu;

	out[0] = '\0';
	for (cpu = 0; cpu < CPU_SETSIZE && n + 8 < TP_CPU_LIST_MAX; cpu++) {
		if (CPU_ISSET(cpu, set))
			n += (size_t)snprintf(out + n, TP_CPU_LIST_MAX - n, "%s%d", n ? "," : "",
					      cpu);
	}
	if (!n)
		strcpy(out, "-");
	return out;
}

/* The n-th (0-based) CPU of set, or -1. */
static inline int tp_cpu_nth(const cpu_set_t *set, int n)
{
	int cpu;

	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (CPU_ISSET(cpu, set) && n-- == 0)
			return cpu;
	}
	return -1;
}

/* Restrict the calling thread to one CPU, or exit 2. */
static inline void tp_cpu_only(int cpu)
{
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one) != 0) {
		perror("sched_setaffinity");
		exit(2);
	}
}

#endif /* TP_CPU_H */
