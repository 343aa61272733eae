/*
 * affinity.c - keeping TSC_PIN invisible to the program.
 *
 * A program that sizes itself by its CPUs (sort, make -j, thread pools: sched_getaffinity
 * through nproc) would see the single CPU we pinned its thread to and run with one thread.
 * So a pinned thread asking for its own affinity is told the mask it had before we pinned
 * it; and when the program sets the affinity itself, its choice replaces our pin.
 */
#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include "elf/real.h"
#include "hot/pin.h"
#include "wrap/interpose.h"

static void *real_sched_getaffinity, *real_sched_setaffinity, *real_pthread_getaffinity_np,
	*real_pthread_setaffinity_np;

static bool is_self(pid_t pid)
{
	return pid == 0 || pid == gettid();
}

TT_EXPORT int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *mask)
{
	int ret = TT_REAL(sched_getaffinity)(pid, size, mask);

	if (ret == 0 && is_self(pid))
		tt_pin_own_mask(mask, size);
	return ret;
}

TT_EXPORT int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *mask)
{
	int ret = TT_REAL(sched_setaffinity)(pid, size, mask);

	if (ret == 0 && is_self(pid))
		tt_pin_forget();
	return ret;
}

TT_EXPORT int pthread_getaffinity_np(pthread_t thread, size_t size, cpu_set_t *mask)
{
	int ret = TT_REAL(pthread_getaffinity_np)(thread, size, mask);

	if (ret == 0 && pthread_equal(thread, pthread_self()))
		tt_pin_own_mask(mask, size);
	return ret;
}

TT_EXPORT int pthread_setaffinity_np(pthread_t thread, size_t size, const cpu_set_t *mask)
{
	int ret = TT_REAL(pthread_setaffinity_np)(thread, size, mask);

	if (ret == 0 && pthread_equal(thread, pthread_self()))
		tt_pin_forget();
	return ret;
}
