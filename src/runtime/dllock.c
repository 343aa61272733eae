/*
 * dllock.c - see dllock.h. A plain mutex made recursive by hand (owner and depth), so that
 * the child of a fork, whose only thread is the one that took it in tt_dl_fork_prepare,
 * can release it as its owner (pthread_self() is the same in the child).
 *
 * Not built with sanitizers (like interpose.c, which calls it from dlsym): a sanitizer
 * runtime preloaded ahead of us calls dlsym before it is initialised. The pthread calls are
 * still seen by ThreadSanitizer's interceptors.
 */
#include <pthread.h>

#include "runtime/dllock.h"

/* 8-byte aligned: linked among the small variables start-up touches anyway (Makefile,
 * --sort-section=alignment), not alone on a page of its own where pthread_mutex_lock's read
 * and then its write fault twice. */
static pthread_mutex_t mutex __attribute__((aligned(8))) = PTHREAD_MUTEX_INITIALIZER;
static unsigned long owner; /* pthread_self() of the holder, 0 when free */
static unsigned int depth;  /* the holder's nesting; only the holder touches it */
static unsigned int busy;   /* tt_dl_lock calls not yet matched by tt_dl_unlock */
static bool tracking;

static bool mine(void)
{
	return __atomic_load_n(&owner, __ATOMIC_RELAXED) == (unsigned long)pthread_self();
}

void tt_dl_lock(void)
{
	__atomic_add_fetch(&busy, 1, __ATOMIC_SEQ_CST);
	if (mine()) {
		depth++;
		return;
	}
	pthread_mutex_lock(&mutex);
	__atomic_store_n(&owner, (unsigned long)pthread_self(), __ATOMIC_RELAXED);
	depth = 1;
}

void tt_dl_unlock(void)
{
	if (--depth == 0) {
		__atomic_store_n(&owner, 0, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&mutex);
	}
	/* Release: a reader that sees the count drop sees the bookkeeping done before it. */
	__atomic_sub_fetch(&busy, 1, __ATOMIC_RELEASE);
}

bool tt_dl_busy(void)
{
	return __atomic_load_n(&busy, __ATOMIC_ACQUIRE) != 0;
}

void tt_dl_set_tracking(void)
{
	__atomic_store_n(&tracking, true, __ATOMIC_RELEASE);
}

bool tt_dl_tracking(void)
{
	return __atomic_load_n(&tracking, __ATOMIC_ACQUIRE);
}

void tt_dl_fork_prepare(void)
{
	tt_dl_lock();
}

void tt_dl_fork_parent(void)
{
	tt_dl_unlock();
}

void tt_dl_fork_child(void)
{
	/* Only this thread's own calls are left (a fork from a constructor under dlopen). */
	__atomic_store_n(&busy, depth, __ATOMIC_RELAXED);
	tt_dl_unlock();
}
