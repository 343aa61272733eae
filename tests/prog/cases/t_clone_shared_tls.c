/*
 * t_clone_shared_tls.c - a raw clone(CLONE_VM | SIGCHLD) child, not a pthread: it shares the
 * parent's memory and, without CLONE_SETTLS, its thread pointer, so the shim's TLS block too.
 * The parent calls work_add 300 times before the clone, 300 while the child makes its 300 at
 * the same time, and 300 once the child is gone. The child's calls must not disturb the
 * parent's: the shim passes calls on the shared block through, counted apart, and times the
 * parent's again once the child has returned. With the argument `exit` the child leaves by
 * _exit instead of returning: the shim never sees it end, and the block stays shared. Exit
 * status 0 when both computed right.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tp.h"

#define CALLS 300

long work_add(long a, long b);

static volatile int go;
static int leave_by_exit;
static long child_sum;

static long add_up(void)
{
	long s = 0;
	int i;

	for (i = 0; i < CALLS; i++)
		s = work_add(s, i);
	return s;
}

static int child(void *arg)
{
	(void)arg;
	while (!go)
		;
	child_sum = add_up();
	if (leave_by_exit)
		_exit(0);
	return 0;
}

int main(int argc, char **argv)
{
	static char stack[256 * 1024] __attribute__((aligned(16)));
	long before, during, after;
	int st;
	pid_t pid;

	leave_by_exit = argc > 1 && strcmp(argv[1], "exit") == 0;
	before = add_up();
	pid = clone(child, stack + sizeof(stack), CLONE_VM | SIGCHLD, NULL);
	if (pid < 0) {
		perror("clone");
		return 2;
	}
	go = 1;
	during = add_up();
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		printf("child failed: status %#x\n", st);
		return 1;
	}
	after = add_up();
	printf("parent %ld %ld %ld child %ld\n", before, during, after, child_sum);
	/* Timed for certain: the calls before the clone and, when the child returned, after. */
	if (leave_by_exit)
		tp_expect(stdout, "work_add", CALLS);
	else
		tp_expect_min(stdout, "work_add", 2 * CALLS);
	printf("all_calls %d\n", 4 * CALLS);
	return before == child_sum && during == child_sum && after == child_sum ? 0 : 1;
}
