/*
 * startup.c - what the shim adds to a process's start-up and exit.
 *
 *	startup RUNS LIB FUNCS REPORT PROGRAM [ARGS...]
 *
 * Runs PROGRAM RUNS times bare and RUNS times with LD_PRELOAD=LIB TSC_FUNCS=FUNCS
 * TSC_OUTPUT=REPORT TSC_QUIET=1 added to the environment, alternating (bare, preloaded,
 * preloaded, bare, ...), each with posix_spawn and wait4, timed with CLOCK_MONOTONIC from
 * just before the spawn to just after the wait. The launcher itself is never preloaded.
 * Prints one line: runs=, bare_median_ns=, pre_median_ns=, bare_min_ns=, pre_min_ns=,
 * added_median_ns= (pre median - bare median), bare_faults=, pre_faults= (median page faults
 * of the child, as wait4 reports them). Exits 1 if any run did not exit 0.
 */
#define _GNU_SOURCE
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "now_ns.h"

extern char **environ;

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static uint64_t median(uint64_t *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_u64);
	return v[(n - 1) / 2];
}

/* Spawn argv with envp, wait; the elapsed ns, or 0 on failure. *faults: the child's page
 * faults (minor and major), which the kernel counts for it. */
static uint64_t run_once(char **argv, char **envp, uint64_t *faults)
{
	uint64_t t0 = now_ns(), t1;
	struct rusage ru;
	pid_t pid;
	int st;

	if (posix_spawn(&pid, argv[0], NULL, NULL, argv, envp))
		return 0;
	if (wait4(pid, &st, 0, &ru) != pid)
		return 0;
	t1 = now_ns();
	*faults = (uint64_t)ru.ru_minflt + (uint64_t)ru.ru_majflt;
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return 0;
	return t1 - t0 ? t1 - t0 : 1;
}

int main(int argc, char **argv)
{
	int runs, i, n = 0, k;
	char **bare_env, **pre_env, *pre_add[4];
	uint64_t *bare, *pre, *bare_faults, *pre_faults;

	if (argc < 6 || (runs = atoi(argv[1])) < 1) {
		fprintf(stderr, "usage: startup RUNS LIB FUNCS REPORT PROGRAM [ARGS...]\n");
		return 2;
	}
	while (environ[n])
		n++;
	bare_env = calloc((size_t)n + 1, sizeof(char *));
	pre_env = calloc((size_t)n + 5, sizeof(char *));
	bare = calloc((size_t)runs, sizeof(*bare));
	pre = calloc((size_t)runs, sizeof(*pre));
	bare_faults = calloc((size_t)runs, sizeof(*bare_faults));
	pre_faults = calloc((size_t)runs, sizeof(*pre_faults));
	if (!bare_env || !pre_env || !bare || !pre || !bare_faults || !pre_faults)
		return 1;
	if (asprintf(&pre_add[0], "LD_PRELOAD=%s", argv[2]) < 0 ||
	    asprintf(&pre_add[1], "TSC_FUNCS=%s", argv[3]) < 0 ||
	    asprintf(&pre_add[2], "TSC_OUTPUT=%s", argv[4]) < 0)
		return 1;
	pre_add[3] = "TSC_QUIET=1";
	/* The same environment for both, less any LD_PRELOAD/TSC_ the launcher was given. */
	for (i = 0, k = 0; i < n; i++)
		if (strncmp(environ[i], "LD_PRELOAD=", 11) && strncmp(environ[i], "TSC_", 4)) {
			bare_env[k] = pre_env[k] = environ[i];
			k++;
		}
	for (i = 0; i < 4; i++)
		pre_env[k + i] = pre_add[i];

	for (i = 0; i < runs; i++) {
		int pre_first = i & 1;
		uint64_t a, b;

		if (pre_first) {
			b = run_once(argv + 5, pre_env, &pre_faults[i]);
			a = run_once(argv + 5, bare_env, &bare_faults[i]);
		} else {
			a = run_once(argv + 5, bare_env, &bare_faults[i]);
			b = run_once(argv + 5, pre_env, &pre_faults[i]);
		}
		if (!a || !b) {
			fprintf(stderr, "startup: run %d of %s failed (%s)\n", i, argv[5],
				!a ? "bare" : "preloaded");
			return 1;
		}
		bare[i] = a;
		pre[i] = b;
	}
	{
		uint64_t bmin = bare[0], pmin = pre[0], bm, pm;

		for (i = 1; i < runs; i++) {
			if (bare[i] < bmin)
				bmin = bare[i];
			if (pre[i] < pmin)
				pmin = pre[i];
		}
		bm = median(bare, runs);
		pm = median(pre, runs);
		printf("runs=%d bare_median_ns=%llu pre_median_ns=%llu bare_min_ns=%llu "
		       "pre_min_ns=%llu added_median_ns=%lld bare_faults=%llu pre_faults=%llu\n",
		       runs, (unsigned long long)bm, (unsigned long long)pm,
		       (unsigned long long)bmin, (unsigned long long)pmin,
		       (long long)pm - (long long)bm, (unsigned long long)median(bare_faults, runs),
		       (unsigned long long)median(pre_faults, runs));
	}
	return 0;
}
