/*
 * t_fds_above_program.c DIR - a daemon-style program that closes every descriptor from 3 after
 * its first traced calls and opens its own files there, while TSC_DUMP_SIGNAL=USR2 and
 * TSC_CALLERS=4 are on (run by cases/fds_above_program.sh).
 *
 *   1. 200 work_add calls from frames without unwind information (this file is built with
 *      -fno-asynchronous-unwind-tables: libunwind falls back on the frame pointer there and
 *      checks each address it reads through a pipe of its own);
 *   2. the descriptors from 3 up, as /proc/self/fd has them, into DIR/fds1.<u|t>: "N cloexec
 *      C", C 1 when close-on-exec;
 *   3. close_range(3, ~0): everything from 3 closed; DIR/in1, DIR/out1.<u|t>, DIR/in2,
 *      DIR/out2.<u|t> opened (on 3, 4, 5, 6: said on stdout);
 *   4. traced only: raise(SIGUSR2), wait (at most 5 s) for the dump report DIR/r.<pid>.json
 *      and remove it;
 *   5. 8 rounds of: 50 work_add calls from those frames in a new thread, 8 bytes read from each input, written
 *      to its output, shown on stdout; the dump signal again at round 4;
 *   6. the descriptors again into DIR/fds2.<u|t>.
 * The outputs must be the inputs, and stdout the same in both runs; u/t: untraced or traced.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

long work_add(long a, long b);

static const char *dir;
static int traced;

/* A frame with no unwind information: libunwind validates what it reads beyond it. */
__attribute__((noinline)) static long calls(int n)
{
	long sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += work_add(i, n);
	__asm__ volatile("" ::: "memory"); /* keep the frame: no tail call */
	return sum;
}

/* A thread's stack is pages libunwind has not checked yet (it keeps the last few it checked,
 * per thread): each round's calls make it use its pipe again. */
static void *thread_calls(void *sum)
{
	*(long *)sum += calls(50);
	return NULL;
}

static long calls_in_thread(void)
{
	long sum = 0;
	pthread_t t;

	if (pthread_create(&t, NULL, thread_calls, &sum) != 0 || pthread_join(t, NULL) != 0)
		return -1;
	return sum;
}

static char *path(const char *name)
{
	static char p[8][4096];
	static int next;
	char *s = p[next++ % 8];

	snprintf(s, 4096, "%s/%s", dir, name);
	return s;
}

static char *run_path(const char *name)
{
	char tail[256];

	snprintf(tail, sizeof(tail), "%s.%c", name, traced ? 't' : 'u');
	return path(tail);
}

/* Descriptors from 3 up but the listing's own, into the file: "N cloexec 0|1". */
static void list_fds(const char *name)
{
	char line[64], text[4096] = "";
	struct dirent *e;
	DIR *d = opendir("/proc/self/fd");
	FILE *f;

	if (!d)
		return;
	while ((e = readdir(d))) {
		int fd = atoi(e->d_name), flags;

		if (e->d_name[0] == '.' || fd < 3 || fd == dirfd(d))
			continue;
		flags = fcntl(fd, F_GETFD);
		snprintf(line, sizeof(line), "%d cloexec %d\n", fd,
			 flags >= 0 && (flags & FD_CLOEXEC) ? 1 : 0);
		strncat(text, line, sizeof(text) - strlen(text) - 1);
	}
	closedir(d);
	f = fopen(run_path(name), "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* The dump report, written by the shim's helper thread: waited for, then removed. */
static void dump(void)
{
	struct timespec ts = { 0, 2 * 1000 * 1000 };
	char name[64];
	int i;

	if (!traced)
		return;
	snprintf(name, sizeof(name), "r.%ld.json", (long)getpid());
	raise(SIGUSR2);
	for (i = 0; i < 2500 && access(path(name), F_OK) != 0; i++)
		nanosleep(&ts, NULL);
	printf("dump %s\n", unlink(path(name)) == 0 ? "seen" : "missing");
}

int main(int argc, char **argv)
{
	int in1, out1, in2, out2, round;
	long sum;

	if (argc != 2) {
		fprintf(stderr, "usage: t_fds_above_program DIR\n");
		return 2;
	}
	dir = argv[1];
	traced = getenv("TSC_FUNCS") != NULL;
	sum = calls(200);
	list_fds("fds1");
	fflush(stdout);
	if (syscall(SYS_close_range, 3U, ~0U, 0) != 0) {
		fprintf(stderr, "close_range: %s\n", strerror(errno));
		return 3;
	}
	in1 = open(path("in1"), O_RDONLY);
	out1 = open(run_path("out1"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	in2 = open(path("in2"), O_RDONLY);
	out2 = open(run_path("out2"), O_WRONLY | O_CREAT | O_TRUNC, 0644);
	printf("opened on %d %d %d %d\n", in1, out1, in2, out2);
	if (in1 < 0 || out1 < 0 || in2 < 0 || out2 < 0)
		return 4;
	if (traced)
		dump();
	else
		printf("dump seen\n"); /* what the traced run prints */
	for (round = 0; round < 8; round++) {
		char b1[8], b2[8];
		ssize_t n1, n2;

		sum += calls_in_thread();
		n1 = read(in1, b1, sizeof(b1));
		n2 = read(in2, b2, sizeof(b2));
		printf("round %d: [%.*s] [%.*s]\n", round, n1 > 0 ? (int)n1 : 0, b1,
		       n2 > 0 ? (int)n2 : 0, b2);
		if (n1 > 0 && write(out1, b1, (size_t)n1) != n1)
			printf("write out1: %s\n", strerror(errno));
		if (n2 > 0 && write(out2, b2, (size_t)n2) != n2)
			printf("write out2: %s\n", strerror(errno));
		if (round == 4) {
			if (traced)
				dump();
			else
				printf("dump seen\n");
		}
	}
	printf("sum %ld\n", sum);
	printf("expect work_add %d\n", 200 + 8 * 50);
	list_fds("fds2");
	return 0;
}
