/*
 * read_deadline.c - see read_deadline.h. One watchdog thread, started on first use, sleeps
 * until a deadline is set, then until it passes or is lifted.
 */
#include "cli/read_deadline.h"

#include <pthread.h>
#include <stdio.h>
#include <stdbool.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed;
static bool started, armed;
static struct timespec until; /* CLOCK_MONOTONIC */
static char what[1024];	      /* the path, cut if longer */

static bool passed(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > t->tv_sec || (now.tv_sec == t->tv_sec && now.tv_nsec >= t->tv_nsec);
}

static void *watch(void *unused)
{
	(void)unused;
	pthread_mutex_lock(&lock);
	for (;;) {
		while (!armed)
			pthread_cond_wait(&changed, &lock);
		pthread_cond_timedwait(&changed, &lock, &until);
		if (armed && passed(&until)) {
			tt_cli_err("report: %s: no answer after %d s of reading it (a hung file "
				   "system?), giving up",
				   what, TT_READ_DEADLINE_S);
			_exit(CLI_EXIT_BAD);
		}
	}
	return NULL;
}

static bool start_watchdog(void)
{
	pthread_condattr_t attr;
	pthread_t t;

	if (pthread_condattr_init(&attr) != 0)
		return false;
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	if (pthread_cond_init(&changed, &attr) != 0) {
		pthread_condattr_destroy(&attr);
		return false;
	}
	pthread_condattr_destroy(&attr);
	if (pthread_create(&t, NULL, watch, NULL) != 0) {
		pthread_cond_destroy(&changed);
		return false;
	}
	pthread_detach(t);
	return true;
}

void tt_read_deadline_start(const char *path)
{
	static bool failed;

	pthread_mutex_lock(&lock);
	if (!started && !failed)
		failed = !(started = start_watchdog());
	if (started) {
		clock_gettime(CLOCK_MONOTONIC, &until);
		until.tv_sec += TT_READ_DEADLINE_S;
		snprintf(what, sizeof(what), "%s", path);
		armed = true;
		pthread_cond_signal(&changed);
	}
	pthread_mutex_unlock(&lock);
}

void tt_read_deadline_stop(void)
{
	pthread_mutex_lock(&lock);
	armed = false;
	if (started)
		pthread_cond_signal(&changed);
	pthread_mutex_unlock(&lock);
}
