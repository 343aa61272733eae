/*
 * t_signals.c SIDE-FILE - traced calls from signal handlers running on an alternate stack:
 * first synchronously (raise between two traced calls), then from an interval timer that
 * interrupts the main loop's traced calls at arbitrary instructions, the shim's included.
 * Every result is checked; counts that depend on timing go to SIDE-FILE.
 */
#include "tp.h"

#include <signal.h>
#include <string.h>
#include <sys/time.h>

#define N 1000
#define TICKS 300

long work_add(long a, long b);
long work_leaf(long x);

static volatile sig_atomic_t leaf_calls, leaf_wrong, alarms;

static void on_usr1(int sig)
{
	long k;

	(void)sig;
	for (k = 0; k < 3; k++) {
		if (work_leaf(k + 100) != (k + 100) * 3 + 1)
			leaf_wrong++;
		leaf_calls++;
	}
}

static void on_alrm(int sig)
{
	(void)sig;
	if (work_leaf(alarms) != alarms * 3L + 1)
		leaf_wrong++;
	leaf_calls++;
	alarms++;
}

int main(int argc, char **argv)
{
	FILE *side = tp_side_open(argc, argv, 1);
	static char altstack[1 << 16];
	struct itimerval it;
	struct sigaction sa;
	unsigned long wrong = 0;
	long i, n;
	stack_t ss;

	ss.ss_sp = altstack;
	ss.ss_size = sizeof(altstack);
	ss.ss_flags = 0;
	if (sigaltstack(&ss, NULL) != 0) {
		perror("sigaltstack");
		return 1;
	}
	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_ONSTACK | SA_RESTART;
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = on_alrm;
	sigaction(SIGALRM, &sa, NULL);

	for (i = 0; i < N; i++) {
		if (work_add(i, 1) != i + 1)
			wrong++;
		if (i % 10 == 0)
			raise(SIGUSR1);
	}
	printf("raise: %lu wrong, %d handler calls, %d wrong in handler\n", wrong, (int)leaf_calls,
	       (int)leaf_wrong);

	memset(&it, 0, sizeof(it));
	it.it_interval.tv_usec = 500;
	it.it_value.tv_usec = 500;
	setitimer(ITIMER_REAL, &it, NULL);
	for (n = 0; alarms < TICKS; n++)
		if (work_add(n, 2) != n + 2)
			wrong++;
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_REAL, &it, NULL);
	printf("timer: %lu wrong in total, %d wrong in handler\n", wrong, (int)leaf_wrong);

	tp_expect(side, "work_add", N + n);
	tp_expect(side, "work_leaf", leaf_calls);
	fclose(side);
	return 0;
}
