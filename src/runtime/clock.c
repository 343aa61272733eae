/*
 * clock.c - see clock.h. What to choose from the facts is clock_choice.c (pure); here the
 * facts are probed, TSC_CPU is laid over them, and the TSC is read for set-up and reports.
 *
 * A thread may forbid itself the TSC at any time (prctl PR_SET_TSC, PR_TSC_SIGSEGV: sandboxes
 * do). After that any rdtsc in that thread kills the process, and so does the vDSO's
 * clock_gettime when the kernel's clocksource is the TSC. So the shim takes a last (TSC,
 * CLOCK_MONOTONIC_RAW) pair just before the prctl (notsc.c), and in a thread that cannot read
 * the TSC reads the time with a raw syscall and calibrates the rate up to that pair.
 */
#include <cpuid.h>
#include <stdio.h>
#include <string.h>
#include <sys/platform/x86.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>

#include "base/sys.h"
#include "config/clock_choice.h"
#include "config/tsc_step.h"
#include "config/variant.h"
#include "hot/thread.h"
#include "hot/tramp_layout.h"
#include "log/log.h"
#include "runtime/clock.h"
#include "runtime/cpu_cache.h"

static uint32_t emulated_step; /* TSC_CPU step=N: set-up reads are rounded down to it */
static uint64_t last_tsc, last_mono_ns, last_window; /* the pair taken just before that */

bool tt_clock_tsc_allowed_here(void)
{
	int mode = 0;

	if (!__atomic_load_n(&tt_clock_forbidden_seen, __ATOMIC_ACQUIRE))
		return true;
	return tt_syscall3(SYS_prctl, PR_GET_TSC, &mode, 0) != 0 || mode != PR_TSC_SIGSEGV;
}

uint64_t tt_clock_ns(int clock_id)
{
	struct timespec ts;

	if (tt_clock_tsc_allowed_here()) {
		if (clock_gettime(clock_id, &ts) != 0)
			return 0;
	} else if (tt_syscall3(SYS_clock_gettime, clock_id, &ts, 0) != 0) {
		return 0;
	}
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Serialized TSC read for setup code (not the hot path), rounded to an emulated step. Never
 * in a thread where tt_clock_tsc_allowed_here() is false. */
static uint64_t tt_clock_tsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) : : "memory");
	return tt_cpu_persona_quantize(((uint64_t)hi << 32) | lo,
				       __atomic_load_n(&emulated_step, __ATOMIC_RELAXED));
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
/* A (TSC, CLOCK_MONOTONIC_RAW) pair: the clock read between two TSC reads, the TSC taken
 * as their midpoint. Returns the ticks between the two reads: the pair's uncertainty. */
static uint64_t pair(uint64_t *tsc, uint64_t *ns)
{
	uint64_t a = tt_clock_tsc(), b;

	*ns = tt_clock_ns(CLOCK_MONOTONIC_RAW);
	b = tt_clock_tsc();
	*tsc = a + (b - a) / 2;
	return b - a;
}

void tt_clock_forbidding(void)
{
	uint64_t tsc, ns, window = pair(&tsc, &ns);

	__atomic_store_n(&last_window, window, __ATOMIC_RELAXED);
	__atomic_store_n(&last_tsc, tsc, __ATOMIC_RELAXED);
	__atomic_store_n(&last_mono_ns, ns, __ATOMIC_RELAXED);
	__atomic_store_n(&tt_clock_forbidden_seen, true, __ATOMIC_RELEASE);
}

/*
 * The leaves the dynamic loader already asked at start-up (1, 80000001H, 80000007H,
 * 80000008H) are read from what glibc kept of them (raw CPUID output, the same registers):
 * no exit to a hypervisor. An index glibc does not know gives zeros, as an absent leaf.
 */
static const unsigned int *kept_leaf(unsigned int index)
{
	return __x86_get_cpuid_feature_leaf(index)->cpuid_array; /* eax, ebx, ecx, edx */
}

/* The facts the start-up decisions need: no cpuid of its own (kept_leaf). */
void tt_clock_probe(struct tt_clock *c)
{
	int mode = 0;

	memset(c, 0, sizeof(*c));
	c->readable = tt_syscall3(SYS_prctl, PR_GET_TSC, &mode, 0) != 0 || mode != PR_TSC_SIGSEGV;
	c->rdtscp = (kept_leaf(CPUID_INDEX_80000001)[3] >> 27) & 1;
	c->invariant = (kept_leaf(CPUID_INDEX_80000007)[3] >> 8) & 1;
	if (!c->invariant)
		c->invariant = cpuinfo_has_flags(" constant_tsc", " nonstop_tsc");
	c->start_real_ns = tt_clock_ns(CLOCK_REALTIME);
	c->start_wall_ns = tt_clock_ns(CLOCK_MONOTONIC);
	if (c->readable)
		c->start_window = pair(&c->start_tsc, &c->start_mono_ns);
}

/* Leaf 15H: TSC = crystal (ECX Hz) * EBX / EAX; often incomplete (0) in VMs. */
static uint64_t leaf15_hz(void)
{
	unsigned int a, b, cx, d;

	__cpuid(0x15, a, b, cx, d);
	return a && b && cx ? (uint64_t)cx * b / a : 0;
}

/* The timing leaf some hypervisors announce (VMware's, adopted by others): the TSC's rate in
 * kHz in EAX of 40000010H, when 40000000H (its EAX: hv_max) says the leaf exists. */
static uint64_t hypervisor_leaf_hz(unsigned int hv_max)
{
	unsigned int a, b, cx, d;

	if (hv_max < 0x40000010 || hv_max >= 0x40010000)
		return 0;
	__cpuid(0x40000010, a, b, cx, d);
	return (uint64_t)a * 1000;
}

void tt_clock_describe(struct tt_clock *c, struct tt_cpu_kept *k)
{
	bool kept = k && k->loaded, ask15;
	unsigned int max, hv, a, b, cx, d;

	if (c->described)
		return;
	c->described = true;
	c->signature = kept_leaf(CPUID_INDEX_1)[0];
	c->hypervisor = (kept_leaf(CPUID_INDEX_1)[2] >> 31) & 1;
	/* A kept 80000008H means the brand's leaves (80000002H-4H) exist: no need to ask. */
	c->max_ext = kept_leaf(CPUID_INDEX_80000008)[0] ? 0x80000008
							: __get_cpuid_max(0x80000000, NULL);
	/* cpu_cache.h: an earlier run's label, and the leaves that stated nothing then are not
	 * asked; a leaf that stated a rate is asked again, its maximum first. */
	if (kept) {
		memcpy(c->cpu, k->brand, sizeof(c->cpu));
		c->cpu[sizeof(c->cpu) - 1] = 0;
	} else {
		brand(c->cpu, c->max_ext);
	}
	ask15 = !kept || k->rate15;
	max = ask15 ? __get_cpuid_max(0, NULL) : k->max_basic;
	if (ask15 && max >= 0x15)
		c->cpuid_hz = leaf15_hz();
	/* 40000000H when the rate is still unknown, unless a kept run found no timing leaf
	 * there (a run whose 15H stated the rate did not ask it). */
	hv = kept ? k->hv_max : 0;
	if (c->hypervisor && !c->cpuid_hz && (!kept || k->rate15 || k->hv_max >= 0x40000010)) {
		__cpuid(0x40000000, a, b, cx, d);
		hv = a;
		c->hypervisor_hz = hypervisor_leaf_hz(hv);
	}
	if (!k)
		return;
	if (!kept || max != k->max_basic || (c->cpuid_hz != 0) != k->rate15 || hv != k->hv_max) {
		k->max_basic = max;
		k->rate15 = c->cpuid_hz != 0;
		k->hv_max = hv;
		k->changed = true;
	}
	if (!kept)
		memcpy(k->brand, c->cpu, sizeof(k->brand));
}

static void say(void *ctx, bool warn, const char *line)
{
	(void)ctx;
	if (warn)
		tt_warn("%s", line);
	else
		tt_info("%s", line);
}

/* TSC_CPU: another family's facts over the probed ones, said once (tests; docs/clock.md). */
static void apply_persona(struct tt_clock *c, const struct tt_cpu_persona *p)
{
	struct tt_cpu_facts f = { c->rdtscp, c->invariant, c->hypervisor };
	char step[32];

	if (!p->set)
		return;
	if (!tt_cpu_persona_apply(p, &f))
		tt_warn("TSC_CPU=%s: CPUID does not announce rdtscp here, it stays hidden",
			p->text);
	c->rdtscp = f.rdtscp;
	c->invariant = f.invariant;
	c->hypervisor = f.hypervisor;
	c->step = p->step;
	__atomic_store_n(&emulated_step, p->step, __ATOMIC_RELAXED);
	if (p->step)
		snprintf(step, sizeof(step), "%u ticks", p->step);
	tt_warn("TSC_CPU=%s: emulating another CPU (rdtscp %s, %sinvariant, %shypervisor, TSC "
		"step %s): for tests, not for measuring",
		p->text, c->rdtscp ? "announced" : "hidden", c->invariant ? "" : "not ",
		c->hypervisor ? "" : "no ", p->step ? step : "as the hardware's");
}

void tt_clock_choose(struct tt_clock *c, const struct tt_config *cfg)
{
	struct tt_clock_facts f;

	/* What the persona overrides, and what TSC_SERIALIZE=cpuid's warning reads, first. */
	if (cfg->cpu.set || cfg->serialize == TT_SER_CPUID)
		tt_clock_describe(c, NULL);
	apply_persona(c, &cfg->cpu);
	f.readable = c->readable;
	f.cpu.rdtscp = c->rdtscp;
	f.cpu.invariant = c->invariant;
	f.cpu.hypervisor = c->hypervisor;
	c->variant = tt_clock_decide(&f, cfg, say, NULL);
	c->serialize = tt_clock_variant_name(c->variant);
	c->source = c->variant == TT_VAR_MONO ? "monotonic" : "tsc";
	if (c->variant == TT_VAR_MONO)
		c->step = 0;
}

uint64_t tt_clock_hz(const struct tt_clock *c, uint64_t granularity, const char **source,
		     uint32_t *error_ppm)
{
	uint64_t tsc, ns, window = 0, dt, dns;
	double off_ticks, err;

	*source = "none";
	*error_ppm = 0;
	if (!c->readable || !c->start_mono_ns || c->variant == TT_VAR_MONO)
		return 0;
	if (c->cpuid_hz) {
		*source = "cpuid";
		return c->cpuid_hz;
	}
	if (c->hypervisor_hz) {
		*source = "hypervisor";
		return c->hypervisor_hz;
	}
	*source = "calibrated";
	if (!tt_clock_tsc_allowed_here()) {
		/* This thread forbade itself the TSC: up to the pair taken just before. */
		tsc = __atomic_load_n(&last_tsc, __ATOMIC_RELAXED);
		ns = __atomic_load_n(&last_mono_ns, __ATOMIC_RELAXED);
		window = __atomic_load_n(&last_window, __ATOMIC_RELAXED);
	} else {
		window = pair(&tsc, &ns);
	}
	if (!ns || ns <= c->start_mono_ns || tsc <= c->start_tsc)
		return 0;
	dt = tsc - c->start_tsc;
	dns = ns - c->start_mono_ns;
	/* Each midpoint is within half its window, plus a step of the TSC, of the clock read;
	 * each clock read within 1 ns of the time it stands for. */
	off_ticks = (double)(c->start_window + window) / 2 + 2.0 * (double)(granularity ?: 1);
	err = (off_ticks / (double)dt + 2.0 / (double)dns) * 1e6;
	*error_ppm = err >= 4e9 ? UINT32_MAX : (uint32_t)err + 1;
	return (uint64_t)((double)dt * 1e9 / (double)dns + 0.5);
}

/* Reads behind the step's measure: 4 rounds of one at each of 64 amounts of work (~25 us
 * here); a step an earlier run found is taken when the first round shows it too. */
#define STEP_READS 256
#define STEP_AMOUNTS 64

/*
 * Whether the differences show the step `expect` by themselves: a coarser step by the same
 * analysis as the whole measure (a whole gcd, or runs on a grid: nothing a finer TSC gives);
 * a step of 1 only by three adjacent values, since the analysis also says 1 when a quarter of
 * the reads found no step at all.
 */
static bool shows_step(const uint64_t *d, unsigned int n, uint64_t seen, uint64_t expect)
{
	unsigned int i, j;
	bool next, after;

	if (expect > 1)
		return tt_tsc_step(d, n, seen) == expect;
	for (i = 0; i < n; i++) {
		next = after = false;
		for (j = 0; j < n; j++) {
			next |= d[j] == d[i] + 1;
			after |= d[j] == d[i] + 2;
		}
		if (next && after)
			return true;
	}
	return false;
}

uint64_t tt_clock_granularity(const struct tt_clock *c, uint64_t seen, uint64_t expect)
{
	uint64_t d[STEP_READS];
	unsigned int i, k, n = 0;

	if (c->variant == TT_VAR_MONO)
		return seen ? seen : 1;
	for (i = 0; i < STEP_READS; i++) {
		uint64_t a = tt_clock_tsc(), b;

		/* One more cycle of work per amount (the loop's counter is its only chain), so
		 * the differences of a TSC that ticks by 1 fill every value of a range, and a
		 * coarser step shows as gaps however fast the core is. */
		for (k = 0; k < i % STEP_AMOUNTS; k++)
			__asm__ volatile("");
		b = tt_clock_tsc();
		if (b > a)
			d[n++] = b - a;
		if (i + 1 == STEP_AMOUNTS && expect && shows_step(d, n, seen, expect))
			return expect;
	}
	return tt_tsc_step(d, n, seen);
}
