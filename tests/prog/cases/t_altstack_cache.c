/*
 * t_altstack_cache.c - traced calls with call paths (altstack_cache.sh): MAIN_CALLS from the
 * thread's stack, then a signal stack set through libc's sigaltstack (argv[1] "libc") or
 * syscall(SYS_sigaltstack) ("syscall"), then HANDLER_CALLS from a handler running on it, then
 * MAIN_CALLS more. The shim keeps the signal stack's range from its first answer; a stack set
 * after that must be seen, or the handler's unwinds would leave signals unblocked.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tp.h"

#define MAIN_CALLS 1000
#define HANDLER_CALLS 50

long work_add(long a, long b);

static char altstack[64 * 1024] __attribute__((aligned(16)));
static volatile long handler_sum;

static void handler(int sig)
{
	long s = 0;

	(void)sig;
	for (int i = 0; i < HANDLER_CALLS; i++)
		s = work_add(s, i);
	handler_sum = s;
}

static long main_calls(long s)
{
	for (int i = 0; i < MAIN_CALLS; i++)
		s = work_add(s, i);
	return s;
}

int main(int argc, char **argv)
{
	stack_t ss = { .ss_sp = altstack, .ss_size = sizeof(altstack) };
	struct sigaction sa;
	long s = main_calls(0);
	int rc;

	if (argc > 1 && strcmp(argv[1], "syscall") == 0)
		rc = (int)syscall(SYS_sigaltstack, &ss, NULL);
	else
		rc = sigaltstack(&ss, NULL);
	if (rc != 0) {
		perror("sigaltstack");
		return 2;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = SA_ONSTACK;
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	s = main_calls(s);
	printf("sum %ld handler sum %ld\n", s, handler_sum);
	tp_expect(stdout, "work_add", 2 * MAIN_CALLS + HANDLER_CALLS);
	return 0;
}
