/*
 * schedw.c - libschedw.so: callees for the pinning, migration and clock tests.
 *   sw_add    a trivial function (a traced call that does nothing special)
 *   sw_hop    moves the calling thread to CPU `target` *inside* the call: sets its affinity to
 *             that CPU alone and yields until it runs there (at most 2 s). Returns 1 when the
 *             call started and ended on different CPUs, 0 when not, -1 on error.
 *   sw_nap    sleeps about 1 ms (nanosleep), a call whose duration is known in nanoseconds
 *   sw_apply  calls fn() and returns its result (a traced call around another)
 *   sw_forbid forbids the calling thread the TSC (prctl PR_SET_TSC, PR_TSC_SIGSEGV): 0 or -1
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <sys/prctl.h>
#include <time.h>

long sw_add(long a, long b);
int sw_hop(int target);
void sw_nap(void);
long sw_apply(long (*fn)(void));
long sw_forbid(void);

__attribute__((noipa)) long sw_add(long a, long b)
{
	return a + b;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

__attribute__((noipa)) int sw_hop(int target)
{
	int start = sched_getcpu(), now;
	double t0 = now_s();
	cpu_set_t one;

	if (target < 0 || target >= CPU_SETSIZE)
		return -1;
	CPU_ZERO(&one);
	CPU_SET(target, &one);
	if (sched_setaffinity(0, sizeof(one), &one) != 0)
		return -1;
	while ((now = sched_getcpu()) != target && now_s() - t0 < 2.0)
		sched_yield();
	return now != start;
}

__attribute__((noipa)) void sw_nap(void)
{
	struct timespec ts = { 0, 1000000 };

	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

__attribute__((noipa)) long sw_apply(long (*fn)(void))
{
	return fn();
}

__attribute__((noipa)) long sw_forbid(void)
{
	return prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0);
}
