/*
 * t_accuracy.c SIDE-FILE - functions of known duration (libspin.so: spin_1k, spin_10k,
 * spin_100k busy-wait 1,000 / 10,000 / 100,000 TSC ticks; spin_empty does nothing), called
 * through the PLT and, in the same run, timed by the program itself, for run.sh to compare
 * with what tsctrace reports.
 *
 * The rounds of the four functions alternate in passes, so that every figure is taken over
 * the same stretch of the machine's load. Each round calls the function once through the PLT
 * (a plain call, untimed here) and once through a pointer from dlsym at run time (the same
 * target: under the shim's GOT hook its stub; an address the program took itself would stay
 * the function's own, and its calls through that pointer untraced), bracketed inline by hand:
 *   - with rdtscp announced by CPUID 0x80000001 EDX[27]: `lfence; rdtsc` ... `rdtscp; lfence`;
 *   - without it: `lfence; rdtsc; lfence` at both ends, and rdtscp is never executed.
 *
 * The reference of a function is the median of its own bracketed samples minus the program's
 * calibrated overhead: the median of the same bracket around spin_empty, called the same way.
 * Calibrating with the empty *call* rather than an empty bracket matters in the traced run:
 * there the pointer calls go through the shim too, so every bracket also holds the shim's
 * trampoline; bracketing an empty function the same way cancels that exactly as it cancels the
 * call itself (and the shim's own overhead is calibrated with an empty function too). The
 * empty bracket alone is written to SIDE-FILE for information.
 *
 * A spin lasts its N ticks plus up to one iteration of its loop (one serialized read), so two
 * medians of the same spin may sit one iteration apart: the iteration's median length goes to
 * SIDE-FILE as spin_iteration, part of run.sh's bound.
 *
 * SIDE-FILE gets `name value` lines (ref_spin_1k ...); stdout is deterministic: what was called
 * and the expected call counts (both calls of each round go through the shim and are counted).
 * The thread pins itself to the CPU it starts on, as the shim does at a first traced call.
 */
#define _GNU_SOURCE
#include "tp.h"

#include "tp_tsc.h"
#include <dlfcn.h>
#include <sched.h>
#include <string.h>

#define N_EMPTY 20000
#define N_1K 2000
#define N_10K 1000
#define N_100K 300
#define N_MAX N_EMPTY
/* The rounds of the four functions alternate in this many passes (each N a multiple), so
 * that the empty call's median, the reference's overhead, is measured over the same stretch
 * of the machine's load as the spins it is subtracted from. */
#define PASSES 10
_Static_assert(N_MAX % PASSES == 0 && N_EMPTY % PASSES == 0 && N_1K % PASSES == 0 &&
		       N_10K % PASSES == 0 && N_100K % PASSES == 0,
	       "each function's rounds split evenly into the passes");

typedef void (*fn_t)(void);

void spin_1k(void);
void spin_10k(void);
void spin_100k(void);
void spin_empty(void);

/* Set at run time from dlsym (after the shim patched); volatile: read at each call, and the
 * compiler cannot turn the pointer call back into a direct one. */
static fn_t volatile p_spin_1k, p_spin_10k, p_spin_100k, p_spin_empty;

static fn_t lookup(const char *name)
{
	fn_t f;

	*(void **)&f = dlsym(RTLD_DEFAULT, name);
	if (!f) {
		fprintf(stderr, "dlsym %s: %s\n", name, dlerror());
		exit(2);
	}
	return f;
}

static uint64_t s_empty[N_EMPTY], s_1k[N_1K], s_10k[N_10K], s_100k[N_100K], s_bracket[N_MAX],
	s_period[N_MAX];
static int rdtscp_ok;

static inline uint64_t delta(uint64_t t0, uint64_t t1)
{
	return t1 > t0 ? t1 - t0 : 0;
}

/* One bracketed call of *pp. The pointer is loaded before the first read. */
static inline __attribute__((always_inline)) uint64_t bracket_rdtscp(fn_t volatile *pp)
{
	fn_t f = *pp;
	uint64_t t0, t1;

	t0 = rd_lfence_rdtsc();
	f();
	t1 = rd_rdtscp_lfence();
	return delta(t0, t1);
}

static inline __attribute__((always_inline)) uint64_t bracket_lfence(fn_t volatile *pp)
{
	fn_t f = *pp;
	uint64_t t0, t1;

	t0 = rd_fenced();
	f();
	t1 = rd_fenced();
	return delta(t0, t1);
}

/* Pass P of PASSES over FN's N rounds: FN() through the PLT, then one bracketed call through
 * the pointer p_FN, into S's P-th slice. */
#define ROUNDS(FN, N, S, P)                                                                      \
	do {                                                                                     \
		long i_;                                                                         \
		for (i_ = (P) * ((N) / PASSES); i_ < ((P) + 1) * ((N) / PASSES); i_++) {         \
			FN();                                                                    \
			(S)[i_] = rdtscp_ok ? bracket_rdtscp(&p_##FN) : bracket_lfence(&p_##FN); \
		}                                                                                \
	} while (0)

static void empty_brackets(uint64_t *s, long n)
{
	uint64_t t0, t1;
	long i;

	for (i = 0; i < n; i++) {
		if (rdtscp_ok) {
			t0 = rd_lfence_rdtsc();
			t1 = rd_rdtscp_lfence();
		} else {
			t0 = rd_fenced();
			t1 = rd_fenced();
		}
		s[i] = delta(t0, t1);
	}
}

/* Back-to-back reads with the instructions of spin.c's loop: the loop's period. */
static void read_periods(uint64_t *s, long n)
{
	uint64_t t0, t1;
	long i;

	t0 = rdtscp_ok ? rd_rdtscp_lfence() : rd_fenced();
	for (i = 0; i < n; i++) {
		t1 = rdtscp_ok ? rd_rdtscp_lfence() : rd_fenced();
		s[i] = delta(t0, t1);
		t0 = t1;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The sample of nearest rank ceil(n / 2); sorts s. */
static uint64_t median(uint64_t *s, long n)
{
	qsort(s, (size_t)n, sizeof(*s), cmp_u64);
	return s[(n - 1) / 2];
}

static void pin_here(void)
{
	cpu_set_t set;
	int cpu = sched_getcpu();

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	(void)sched_setaffinity(0, sizeof(set), &set); /* best effort: medians tolerate a move */
}

int main(int argc, char **argv)
{
	FILE *side = tp_side_open(argc, argv, 1);
	uint64_t over, over_bracket, m;
	long pass;

	rdtscp_ok = tp_rdtscp_announced();
	pin_here();
	p_spin_1k = lookup("spin_1k");
	p_spin_10k = lookup("spin_10k");
	p_spin_100k = lookup("spin_100k");
	p_spin_empty = lookup("spin_empty");

	empty_brackets(s_bracket, N_MAX);
	for (pass = 0; pass < PASSES; pass++) {
		ROUNDS(spin_empty, N_EMPTY, s_empty, pass);
		ROUNDS(spin_1k, N_1K, s_1k, pass);
		ROUNDS(spin_10k, N_10K, s_10k, pass);
		ROUNDS(spin_100k, N_100K, s_100k, pass);
		read_periods(s_period + pass * (N_MAX / PASSES), N_MAX / PASSES);
	}

	over = median(s_empty, N_EMPTY);
	over_bracket = median(s_bracket, N_MAX);
	fprintf(side, "serialize %s\n", rdtscp_ok ? "rdtscp" : "lfence");
	fprintf(side, "overhead_empty_call %" PRIu64 "\n", over);
	/* How far its own calibration may be off: the empty call's median above its minimum. */
	fprintf(side, "overhead_empty_call_spread %" PRIu64 "\n", over - s_empty[0]);
	fprintf(side, "overhead_empty_bracket %" PRIu64 "\n", over_bracket);
	fprintf(side, "spin_iteration %" PRIu64 "\n", median(s_period, N_MAX));
	fprintf(side, "ref_spin_empty 0\n");
	m = median(s_1k, N_1K);
	fprintf(side, "ref_spin_1k %" PRIu64 "\n", m > over ? m - over : 0);
	m = median(s_10k, N_10K);
	fprintf(side, "ref_spin_10k %" PRIu64 "\n", m > over ? m - over : 0);
	m = median(s_100k, N_100K);
	fprintf(side, "ref_spin_100k %" PRIu64 "\n", m > over ? m - over : 0);
	if (fclose(side) != 0) {
		perror("t_accuracy: side file");
		return 1;
	}

	printf("spin_empty %d rounds, spin_1k %d, spin_10k %d, spin_100k %d\n", N_EMPTY, N_1K,
	       N_10K, N_100K);
	tp_expect(stdout, "spin_empty", 2 * N_EMPTY);
	tp_expect(stdout, "spin_1k", 2 * N_1K);
	tp_expect(stdout, "spin_10k", 2 * N_10K);
	tp_expect(stdout, "spin_100k", 2 * N_100K);
	return 0;
}
