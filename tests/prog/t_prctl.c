/*
 * t_prctl.c - a program that forbids itself the TSC after start-up, as sandboxes do
 * (prctl PR_SET_TSC, PR_TSC_SIGSEGV: any rdtsc in the thread is then fatal), while traced
 * calls are in flight, and keeps calling traced functions that do not read the TSC.
 *
 *   1. main: 100 calls of sw_add, 2 of sw_apply(sw_add0); thread A is started and waits;
 *   2. main: sw_apply(sw_forbid): the prctl happens inside two traced calls (sw_apply and
 *      sw_forbid), whose ends come after it;
 *   3. main: 1000 calls of sw_add; thread B, started now, inherits the ban: 50 calls;
 *   4. thread A, started before the ban (which is per thread): 100 calls;
 *   5. exit from main, in the thread without the TSC.
 * Nothing here reads the time: with the kernel's clocksource on the TSC, even the vDSO's
 * clock_gettime would fault after the ban.
 */
#include "tp.h"

#include <pthread.h>

long sw_add(long a, long b);
long sw_apply(long (*fn)(void));
long sw_forbid(void);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int forbidden;
static long sums[2];

static long sw_add0(void)
{
	return 0;
}

static void *before_ban(void *arg)
{
	int i;

	(void)arg;
	pthread_mutex_lock(&lock);
	while (!forbidden)
		pthread_cond_wait(&cond, &lock);
	pthread_mutex_unlock(&lock);
	for (i = 0; i < 100; i++)
		sums[0] += sw_add(i, 1);
	return NULL;
}

static void *after_ban(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < 50; i++)
		sums[1] += sw_add(i, 2);
	return NULL;
}

int main(void)
{
	pthread_t a, b;
	long sum = 0;
	int i, rc;

	for (i = 0; i < 100; i++)
		sum += sw_add(i, 3);
	sum += sw_apply(sw_add0) + sw_apply(sw_add0);
	if (pthread_create(&a, NULL, before_ban, NULL) != 0)
		return 2;
	rc = (int)sw_apply(sw_forbid);
	for (i = 0; i < 1000; i++)
		sum += sw_add(i, 4);
	if (pthread_create(&b, NULL, after_ban, NULL) != 0)
		return 2;
	pthread_join(b, NULL);
	pthread_mutex_lock(&lock);
	forbidden = 1;
	pthread_cond_signal(&cond);
	pthread_mutex_unlock(&lock);
	pthread_join(a, NULL);

	printf("prctl %d, sums %ld %ld %ld\n", rc, sum, sums[0], sums[1]);
	tp_expect(stdout, "sw_add", 1250);
	tp_expect(stdout, "sw_apply", 3);
	tp_expect(stdout, "sw_forbid", 1);
	return rc != 0;
}
