/*
 * clock.c - see clock.h.
 *
 * Why these choices: the default end-read `rdtscp` is what seeds 002 and 004 recommend, but
 * AMD EPYC VMs hide it in CPUID while running it, and the rule is never to execute what CPUID
 * does not announce (a hypervisor may fault it: SIGILL in the host program). So without the
 * bit the default becomes `lfence; rdtsc; lfence`, which serializes as well and only lacks
 * the CPU id. CPUID itself exits to the hypervisor under virtualization (12,600-17,700 ticks
 * measured here), so the `cpuid` mode warns when CPUID.1:ECX[31] says we are a guest.
 */
#include <cpuid.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "clock.h"
#include "log.h"
#include "tramp_layout.h"

uint64_t tt_clock_ns(int clock_id)
{
	struct timespec ts;

	if (clock_gettime(clock_id, &ts) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t tt_clock_tsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

static bool cpuinfo_has_flags(const char *a, const char *b)
{
	char line[4096];
	bool found = false;
	FILE *f = fopen("/proc/cpuinfo", "re");

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "flags", 5) != 0)
			continue;
		found = strstr(line, a) && strstr(line, b);
		break;
	}
	fclose(f);
	return found;
}

/*
 * Under a hypervisor every cpuid exits to it (~6 us here), so each leaf is asked once and
 * __cpuid is used after the maximum leaf is known (__get_cpuid asks for it again each time).
 */
static void brand(char out[64], unsigned int max_ext)
{
	unsigned int r[12], i;
	char *p;

	out[0] = 0;
	if (max_ext < 0x80000004)
		return;
	for (i = 0; i < 3; i++)
		__cpuid(0x80000002 + i, r[4 * i], r[4 * i + 1], r[4 * i + 2], r[4 * i + 3]);
	memcpy(out, r, 48);
	out[48] = 0;
	for (p = out; *p == ' '; p++)
		;
	memmove(out, p, strlen(p) + 1);
	for (p = out + strlen(out); p > out && p[-1] == ' '; p--)
		p[-1] = 0;
}

/* One pair of (TSC, CLOCK_MONOTONIC_RAW): the TSC taken as the midpoint around the read. */
static void pair(uint64_t *tsc, uint64_t *ns)
{
	uint64_t a = tt_clock_tsc();

	*ns = tt_clock_ns(CLOCK_MONOTONIC_RAW);
	*tsc = a + (tt_clock_tsc() - a) / 2;
}

void tt_clock_probe(struct tt_clock *c)
{
	unsigned int a, b, cx, d, max = __get_cpuid_max(0, NULL);
	unsigned int max_ext = __get_cpuid_max(0x80000000, NULL);
	int mode = 0;

	memset(c, 0, sizeof(*c));
	c->readable = prctl(PR_GET_TSC, &mode, 0, 0, 0) != 0 || mode != PR_TSC_SIGSEGV;
	if (max >= 1) {
		__cpuid(1, a, b, cx, d);
		c->hypervisor = (cx >> 31) & 1;
	}
	if (max_ext >= 0x80000001) {
		__cpuid(0x80000001, a, b, cx, d);
		c->rdtscp = (d >> 27) & 1;
	}
	if (max_ext >= 0x80000007) {
		__cpuid(0x80000007, a, b, cx, d);
		c->invariant = (d >> 8) & 1;
	}
	if (!c->invariant)
		c->invariant = cpuinfo_has_flags(" constant_tsc", " nonstop_tsc");
	brand(c->cpu, max_ext);
	/* Leaf 15H: TSC = crystal (ECX Hz) * EBX / EAX; often incomplete (0) in VMs. */
	if (max >= 0x15) {
		__cpuid(0x15, a, b, cx, d);
		if (a && b && cx)
			c->cpuid_hz = (uint64_t)cx * b / a;
	}
	c->start_real_ns = tt_clock_ns(CLOCK_REALTIME);
	c->start_wall_ns = tt_clock_ns(CLOCK_MONOTONIC);
	if (c->readable)
		pair(&c->start_tsc, &c->start_mono_ns);
}

static sigjmp_buf probe_jmp;

static void probe_sigill(int sig)
{
	(void)sig;
	siglongjmp(probe_jmp, 1);
}

/* Does rdtscp run here although CPUID does not announce it? Start-up only (one thread). */
static bool rdtscp_runs(void)
{
	struct sigaction sa, old;
	volatile bool ok = false;
	uint32_t lo, hi, aux;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = probe_sigill;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGILL, &sa, &old) != 0)
		return false;
	if (sigsetjmp(probe_jmp, 1) == 0) {
		__asm__ volatile("rdtscp" : "=a"(lo), "=d"(hi), "=c"(aux));
		ok = true;
	}
	sigaction(SIGILL, &old, NULL);
	return ok;
}

/* Whether to time with the TSC at all (CONTRACT.md section 5), saying why not. */
static bool use_tsc(const struct tt_clock *c, const struct tt_config *cfg)
{
	switch (cfg->clock) {
	case TT_CLK_MONOTONIC:
		tt_info("TSC_CLOCK=monotonic: times are CLOCK_MONOTONIC_RAW nanoseconds");
		return false;
	case TT_CLK_TSC:
		if (c->readable) {
			if (!c->invariant)
				tt_warn("TSC_CLOCK=tsc: this TSC is not invariant, ticks are not a "
					"steady clock");
			return true;
		}
		tt_warn("TSC_CLOCK=tsc: the TSC cannot be read in this process (prctl "
			"PR_SET_TSC), using CLOCK_MONOTONIC_RAW nanoseconds");
		return false;
	default:
		if (!c->readable) {
			tt_warn("the TSC cannot be read in this process (prctl PR_SET_TSC): using "
				"CLOCK_MONOTONIC_RAW nanoseconds");
			return false;
		}
		if (!c->invariant) {
			tt_warn("the TSC is not invariant on this CPU: using CLOCK_MONOTONIC_RAW "
				"nanoseconds");
			return false;
		}
		return true;
	}
}

void tt_clock_choose(struct tt_clock *c, const struct tt_config *cfg)
{
	static const char *const names[TT_VAR_COUNT] = {
		"rdtscp", "lfence", "mfence", "cpuid", "cpuid", "none", "clock_gettime",
	};

	c->source = "tsc";
	if (!use_tsc(c, cfg)) {
		c->source = "monotonic";
		c->variant = TT_VAR_MONO;
		c->serialize = names[c->variant];
		return;
	}
	switch (cfg->serialize) {
	case TT_SER_LFENCE:
		c->variant = TT_VAR_LFENCE;
		break;
	case TT_SER_MFENCE:
		c->variant = TT_VAR_MFENCE;
		break;
	case TT_SER_NONE:
		c->variant = TT_VAR_NONE;
		break;
	case TT_SER_CPUID:
		c->variant = c->rdtscp ? TT_VAR_CPUID : TT_VAR_CPUID_NORDTSCP;
		if (c->hypervisor)
			tt_warn("TSC_SERIALIZE=cpuid under a hypervisor: every cpuid exits to it "
				"(~15,000 ticks), so each traced call costs that twice");
		break;
	default:
		c->variant = TT_VAR_RDTSCP;
		if (c->rdtscp)
			break;
		if (cfg->serialize_set && rdtscp_runs()) {
			tt_info("rdtscp is not announced by CPUID but runs: using it as "
				"TSC_SERIALIZE=rdtscp asks");
			break;
		}
		c->variant = TT_VAR_LFENCE;
		if (cfg->serialize_set)
			tt_warn("TSC_SERIALIZE=rdtscp: this CPU cannot run rdtscp, using lfence");
		else
			tt_info("rdtscp is not announced by CPUID: serializing with "
				"lfence;rdtsc;lfence at both ends");
		break;
	}
	c->serialize = names[c->variant];
}

uint64_t tt_clock_hz(const struct tt_clock *c, const char **source)
{
	uint64_t tsc, ns;

	*source = "none";
	if (!c->readable || !c->start_mono_ns || c->variant == TT_VAR_MONO)
		return 0;
	if (c->cpuid_hz) {
		*source = "cpuid";
		return c->cpuid_hz;
	}
	*source = "calibrated";
	do
		pair(&tsc, &ns);
	while (ns && ns - c->start_mono_ns < 2000000);
	if (!ns || ns <= c->start_mono_ns || tsc <= c->start_tsc)
		return 0;
	return (uint64_t)((double)(tsc - c->start_tsc) * 1e9 / (double)(ns - c->start_mono_ns) + 0.5);
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

uint64_t tt_clock_granularity(const struct tt_clock *c, uint64_t seen)
{
	uint64_t g = seen;
	volatile unsigned int sink = 0;
	unsigned int i, k;

	for (i = 0; i < 500 && c->variant != TT_VAR_MONO; i++) {
		uint64_t a = tt_clock_tsc(), b;

		for (k = 0; k < i % 37; k++)
			sink += k;
		b = tt_clock_tsc();
		if (b > a)
			g = gcd(g, b - a);
	}
	return g ? g : 1;
}
