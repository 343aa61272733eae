/*
 * t_self_dump.c DIR SIDE-FILE - self time across TSC_DUMP_SIGNAL dumps, when the calls of one
 * function make few or many traced calls by turns (a server's command loop).
 *
 *	sd_outer(n)	spins WORK ticks, then calls sd_inner n times: self ~ WORK whatever n
 *	sd_inner	spins INNER ticks (a leaf)
 *	sd_leaf		spins WORK ticks (a leaf): the measured length of sd_outer's own work
 *
 * Phase 1: ROUNDS x (sd_outer(1), sd_leaf), dump1; phase 2: ROUNDS x (sd_outer(MANY),
 * sd_leaf), dump2; phase 3 as phase 1, dump3; the final report at exit. Each dump is
 * raised by the program and waited for (at most 5 s), then moved aside as DIR/dumpN.json;
 * TSC_OUTPUT is DIR/r.%p.json. Only the traced run (TSC_DUMP_SIGNAL set) raises SIGUSR2, whose
 * default action would end the untraced one. stdout: the expected counts; SIDE-FILE: each
 * wait's outcome ("dump1 ok"), sd_outer's calls before each dump ("dump1_outer 300") and
 * spin_iteration (the median gap between two reads of the spins' loop).
 * The thread pins itself to the CPU it starts on, as the shim does.
 */
#define _GNU_SOURCE
#include "tp.h"

#include "tp_tsc.h"
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define WORK 20000
#define INNER 300
#define MANY 200
#define ROUNDS 300

void sd_inner(void);
void sd_leaf(void);
void sd_outer(int n);

static int use_rdtscp;
static unsigned long outer_calls;

static inline __attribute__((always_inline)) uint64_t now(void)
{
	return use_rdtscp ? rd_rdtscp_lfence() : rd_fenced();
}

static inline __attribute__((always_inline)) void spin_ticks(uint64_t n)
{
	uint64_t t0 = use_rdtscp ? rd_lfence_rdtsc() : rd_fenced();

	while (now() - t0 < n)
		;
}

__attribute__((noipa)) void sd_inner(void)
{
	spin_ticks(INNER);
}

__attribute__((noipa)) void sd_leaf(void)
{
	spin_ticks(WORK);
}

__attribute__((noipa)) void sd_outer(int n)
{
	int i;

	spin_ticks(WORK);
	for (i = 0; i < n; i++)
		sd_inner();
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The median gap between two reads of the spins' loop (a spin lasts N ticks plus up to one). */
static uint64_t spin_iteration(void)
{
	static uint64_t d[1001];
	uint64_t prev = now(), t;
	int i;

	for (i = 0; i < 1001; i++) {
		t = now();
		d[i] = t - prev;
		prev = t;
	}
	qsort(d, 1001, sizeof(d[0]), cmp_u64);
	return d[500];
}

static void phase(int inner)
{
	int i;

	for (i = 0; i < ROUNDS; i++) {
		sd_outer(inner);
		sd_leaf();
	}
	outer_calls += ROUNDS;
}

/* Raise the dump signal, wait for the report (renamed into place: complete once there), move
 * it aside as DIR/NAME.json. */
static void dump(const char *dir, FILE *side, const char *name)
{
	char path[4096], aside[4096];
	struct timespec ts = { 0, 2 * 1000 * 1000 };
	int i;

	fprintf(side, "%s_outer %lu\n", name, outer_calls);
	if (!getenv("TSC_DUMP_SIGNAL"))
		return;
	snprintf(path, sizeof(path), "%s/r.%ld.json", dir, (long)getpid());
	snprintf(aside, sizeof(aside), "%s/%s.json", dir, name);
	if (raise(SIGUSR2) != 0) {
		fprintf(side, "%s raise failed: %s\n", name, strerror(errno));
		return;
	}
	for (i = 0; i < 2500 && access(path, F_OK) != 0; i++) /* 2500 x 2 ms = 5 s */
		nanosleep(&ts, NULL);
	if (rename(path, aside) != 0) {
		fprintf(side, "%s missing after 5 s\n", name);
		return;
	}
	fprintf(side, "%s ok\n", name);
}

int main(int argc, char **argv)
{
	FILE *side;
	cpu_set_t one;

	if (argc < 3) {
		fprintf(stderr, "usage: t_self_dump DIR SIDE-FILE\n");
		return 2;
	}
	side = tp_side_open(argc, argv, 2);
	setvbuf(side, NULL, _IONBF, 0);
	use_rdtscp = tp_rdtscp_announced();
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu(), &one);
	sched_setaffinity(0, sizeof(one), &one);

	phase(1);
	dump(argv[1], side, "dump1");
	phase(MANY);
	dump(argv[1], side, "dump2");
	phase(1);
	dump(argv[1], side, "dump3");

	fprintf(side, "spin_iteration %" PRIu64 "\n", spin_iteration());
	fprintf(side, "many %d\n", MANY);
	tp_expect(stdout, "sd_outer", 3 * ROUNDS);
	tp_expect(stdout, "sd_leaf", 3 * ROUNDS);
	tp_expect(stdout, "sd_inner", (unsigned long)ROUNDS * (2 + MANY));
	fclose(side);
	return 0;
}
