/*
 * t_sigstorm.c SIDE-FILE - a 10 kHz timer whose handler makes a traced call, while the main
 * thread calls another traced function in a loop for ~0.4 s. Run with TSC_CALLERS=4 by
 * run.sh, so that most of each traced call is spent inside the shim (taking its call path):
 * many handler calls then interrupt the shim's own code, and must be counted all the same.
 * The program counts both itself; the expectations (which depend on how often the timer
 * fired) go to SIDE-FILE.
 */
#define _GNU_SOURCE
#include "tp.h"

#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

long work_add(long a, long b);
long work_leaf(long x);

static volatile sig_atomic_t handler_calls;
static volatile long handler_sum;

static void on_alarm(int sig)
{
	(void)sig;
	handler_sum += work_leaf(handler_calls);
	handler_calls++;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	FILE *side = tp_side_open(argc, argv, 1);
	struct itimerval every = { { 0, 100 }, { 0, 100 } }, off;
	struct sigaction sa;
	unsigned long calls = 0;
	long sum = 0;
	double t0;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL) != 0 || setitimer(ITIMER_REAL, &every, NULL) != 0)
		return 2;
	t0 = now_s();
	do {
		int i;

		for (i = 0; i < 100; i++, calls++)
			sum += work_add((long)calls, 1);
	} while (now_s() - t0 < 0.4);
	memset(&off, 0, sizeof(off));
	setitimer(ITIMER_REAL, &off, NULL);
	signal(SIGALRM, SIG_IGN);

	printf("timer stopped; handler ran: %s\n", handler_calls > 100 ? "yes" : "no");
	fprintf(side, "handler_calls %d\n", (int)handler_calls);
	tp_expect(side, "work_add", calls);
	tp_expect(side, "work_leaf", (unsigned long)handler_calls);
	fclose(side);
	(void)sum;
	return 0;
}
