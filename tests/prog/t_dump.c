/*
 * t_dump.c DIR SIDE-FILE - TSC_DUMP_SIGNAL=USR2: the report so far on a signal, the program
 * going on.
 *   1000 px_add calls, raise(SIGUSR2), wait (at most 5 s) until DIR/r.<pid>.json appears,
 *   rename it to DIR/dump1.json; 500 more calls, the same into dump2.json; a fork child makes
 *   300 calls and does the same with its own report (dump_child.json), then _exit(0)s; px_call,
 *   whose callback raises SIGUSR2 and waits for dump3.json from inside that traced call; 200
 *   more calls; return from main (the final report). run.sh sets TSC_OUTPUT=DIR/r.%p.json.
 * Only the traced run (TSC_DUMP_SIGNAL set) raises SIGUSR2, whose default action would kill
 * the untraced one. stdout is what both runs compute alike; the outcome of each wait and the
 * expected counts of each dump go to SIDE-FILE ("dump1 ok", "dump1_px_add 1000", ...).
 */
#define _GNU_SOURCE
#include "tp.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define N 1000
#define M 500
#define K 200

extern unsigned long px_add_count, px_call_count;
long px_add(long a, long b);
long px_call(long (*cb)(long), long x);

static const char *dir;
static FILE *side;
static int traced;

static long calls(int n)
{
	long sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += px_add(i, n);
	return sum;
}

/* Raise the dump signal, wait for the report (renamed into place, so complete once there),
 * move it aside as DIR/NAME.json. */
static void dump(const char *name)
{
	char path[4096], aside[4096];
	struct timespec ts = { 0, 2 * 1000 * 1000 };
	int i;

	if (!traced)
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

static long dump_inside(long x)
{
	dump("dump3");
	return x;
}

int main(int argc, char **argv)
{
	struct sigaction old;
	long sum;
	pid_t pid;
	int st = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: t_dump DIR SIDE-FILE\n");
		return 2;
	}
	dir = argv[1];
	side = tp_side_open(argc, argv, 2);
	setvbuf(side, NULL, _IONBF, 0);
	traced = getenv("TSC_DUMP_SIGNAL") != NULL;
	fprintf(side, "pid %ld\n", (long)getpid());
	if (sigaction(SIGUSR2, NULL, &old) != 0) {
		perror("sigaction");
		return 1;
	}
	printf("sigaction(SIGUSR2, NULL, &old): %s\n",
	       old.sa_handler == SIG_DFL ? "SIG_DFL" : "not SIG_DFL");

	sum = calls(N);
	printf("phase 1: sum %ld\n", sum);
	dump("dump1");
	fprintf(side, "dump1_px_add %lu\n", px_add_count);

	sum = calls(M);
	printf("phase 2: sum %ld\n", sum);
	dump("dump2");
	fprintf(side, "dump2_px_add %lu\n", px_add_count);

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		px_add_count = 0; /* the child's own calls, as the shim counts them */
		calls(300);
		dump("dump_child");
		fprintf(side, "dump_child_px_add %lu\nchild %ld\n", px_add_count, (long)getpid());
		_exit(0);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		printf("child: bad status %#x\n", st);
		return 1;
	}
	printf("phase 3: %ld\n", px_call(dump_inside, 42));
	fprintf(side, "dump3_px_add %lu\n", px_add_count);

	sum = calls(K);
	printf("phase 4: sum %ld\n", sum);
	tp_expect(stdout, "px_add", px_add_count);
	tp_expect(stdout, "px_call", px_call_count);
	tp_expect_unwound(stdout, "px_call", 0);
	return 0;
}
