/*
 * cputime.c - run a command and say what it cost: cputime FILE PROGRAM [ARGS...] runs PROGRAM
 * (found on PATH, with this environment and these descriptors), waits for it, and writes
 * "wall_ns cpu_ns" to FILE: the time from the spawn to the end of the wait, and the child's
 * user + system time as wait4 reports it. Exits with the child's status (1 for a signal).
 *
 * sampling.sh holds a single-threaded program's CPU time against its untraced run beside its
 * wall time: on a shared VM the wall time also holds whatever else the host ran meanwhile.
 */
#define _GNU_SOURCE
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "now_ns.h"

extern char **environ;

static uint64_t tv_ns(struct timeval tv)
{
	return (uint64_t)tv.tv_sec * 1000000000u + (uint64_t)tv.tv_usec * 1000u;
}

int main(int argc, char **argv)
{
	struct rusage ru;
	uint64_t t0, t1;
	FILE *out;
	pid_t pid;
	int st;

	if (argc < 3) {
		fprintf(stderr, "usage: cputime FILE PROGRAM [ARGS...]\n");
		return 2;
	}
	t0 = now_ns();
	if (posix_spawnp(&pid, argv[2], NULL, NULL, argv + 2, environ) != 0) {
		perror(argv[2]);
		return 127;
	}
	if (wait4(pid, &st, 0, &ru) != pid) {
		perror("wait4");
		return 1;
	}
	t1 = now_ns();
	out = fopen(argv[1], "w");
	if (!out) {
		perror(argv[1]);
		return 1;
	}
	fprintf(out, "%llu %llu\n", (unsigned long long)(t1 - t0),
		(unsigned long long)(tv_ns(ru.ru_utime) + tv_ns(ru.ru_stime)));
	fclose(out);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
