/*
 * t_clone_shared_tls.c - a raw clone(CLONE_VM | SIGCHLD) child, not a pthread: it shares the
 * parent's memory and, without CLONE_SETTLS, its thread pointer, so the shim's TLS block too.
 * Parent and child call work_add 300 times each, at the same time; the child's calls must not
 * disturb the parent's, whose count is exact. Exit status 0 when both computed right.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

#include "tp.h"

#define CALLS 300

long work_add(long a, long b);

static volatile int go;
static long child_sum;

static int child(void *arg)
{
	long s = 0;
	int i;

	(void)arg;
	while (!go)
		;
	for (i = 0; i < CALLS; i++)
		s = work_add(s, i);
	child_sum = s;
	return 0;
}

int main(void)
{
	static char stack[256 * 1024] __attribute__((aligned(16)));
	long s = 0;
	int i, st;
	pid_t pid;

	pid = clone(child, stack + sizeof(stack), CLONE_VM | SIGCHLD, NULL);
	if (pid < 0) {
		perror("clone");
		return 2;
	}
	go = 1;
	for (i = 0; i < CALLS; i++)
		s = work_add(s, i);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		printf("child failed: status %#x\n", st);
		return 1;
	}
	printf("parent %ld child %ld\n", s, child_sum);
	tp_expect(stdout, "work_add", CALLS);
	return s == child_sum ? 0 : 1;
}
