/*
 * t_dlstress.c same|diff THREADS MS SIDE-FILE - concurrent dlopen/dlsym/call/dlclose.
 *
 * THREADS threads each loop: dlopen a library that defines traced functions (by its path
 * beside this program), dlsym its DS_fn and DS_outer, call each CALLS times checking every
 * result, dlclose. `diff`: even threads use libdsa.so (RTLD_NOW), odd ones libdsb.so
 * (RTLD_LAZY: the PLT slot of DS_outer is bound by the shim, or on first call). `same`: all use
 * libdsa.so, so one thread's dlclose may unload what another is about to open, or merely
 * drop a reference to what another is calling. Each thread stops after ITERS iterations or
 * MS milliseconds, whichever comes first; neither program may run longer than that plus its
 * start-up.
 *
 * Every call is made while its library is loaded by the caller's own handle, so a shim must
 * count each one: SIDE-FILE gets `expect` lines with the exact totals (DS_fn counts the
 * direct calls and DS_outer's internal ones), plus `iterations N`. stdout is the same in
 * every run.
 */
#define _GNU_SOURCE
#include "tp.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAXT 8
#define ITERS 4000
#define CALLS 20

typedef unsigned (*fn_t)(unsigned);

static const char *const libs[2] = { "libdsa.so", "libdsb.so" };
static const char *const fns[2] = { "dsa_fn", "dsb_fn" };
static const char *const outers[2] = { "dsa_outer", "dsb_outer" };
static char paths[2][PATH_MAX + 16];
static long long deadline;

struct worker {
	pthread_t tid;
	int lib;
	unsigned long iters, fn_calls, outer_calls, bad;
	char err[256];
};

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static unsigned ref_fn(unsigned x)
{
	unsigned y = (x ^ (x >> 7)) * 0x9e3779b1u;

	return y ^ (y >> 16);
}

static void *worker(void *arg)
{
	struct worker *w = arg;
	int mode = w->lib ? RTLD_LAZY : RTLD_NOW;
	unsigned x = (unsigned)w->lib * 7919u + 1;

	while (w->iters < ITERS && now_ns() < deadline) {
		void *h = dlopen(paths[w->lib], mode | RTLD_LOCAL);
		fn_t f, o;
		int i;

		if (!h) {
			snprintf(w->err, sizeof(w->err), "dlopen: %s", dlerror());
			return NULL;
		}
		*(void **)&f = dlsym(h, fns[w->lib]);
		*(void **)&o = dlsym(h, outers[w->lib]);
		if (!f || !o) {
			snprintf(w->err, sizeof(w->err), "dlsym: %s", dlerror());
			return NULL;
		}
		for (i = 0; i < CALLS; i++, x++) {
			w->bad += f(x) != ref_fn(x);
			w->bad += o(x) != ref_fn(x + 1) + 1;
		}
		w->fn_calls += 2 * CALLS; /* CALLS direct, CALLS from DS_outer */
		w->outer_calls += CALLS;
		if (dlclose(h) != 0) {
			snprintf(w->err, sizeof(w->err), "dlclose: %s", dlerror());
			return NULL;
		}
		w->iters++;
	}
	return NULL;
}

int main(int argc, char **argv)
{
	struct worker w[MAXT];
	unsigned long fn_calls[2] = { 0, 0 }, outer_calls[2] = { 0, 0 }, iters = 0;
	int nt, i, same, ms;
	char dir[PATH_MAX], *slash;
	ssize_t n;
	FILE *side;

	if (argc != 5 || (strcmp(argv[1], "same") != 0 && strcmp(argv[1], "diff") != 0) ||
	    (nt = atoi(argv[2])) < 1 || nt > MAXT || (ms = atoi(argv[3])) < 1) {
		fprintf(stderr, "usage: t_dlstress same|diff THREADS(1-%d) MS SIDE-FILE\n", MAXT);
		return 2;
	}
	same = strcmp(argv[1], "same") == 0;
	side = tp_side_open(argc, argv, 4);
	n = readlink("/proc/self/exe", dir, sizeof(dir) - 16);
	if (n <= 0 || !(slash = memrchr(dir, '/', (size_t)n))) {
		perror("readlink /proc/self/exe");
		return 2;
	}
	*slash = 0;
	for (i = 0; i < 2; i++)
		snprintf(paths[i], sizeof(paths[i]), "%s/%s", dir, libs[i]);
	deadline = now_ns() + ms * 1000000LL;
	memset(w, 0, sizeof(w));
	for (i = 0; i < nt; i++) {
		w[i].lib = same ? 0 : i % 2;
		if (pthread_create(&w[i].tid, NULL, worker, &w[i]) != 0) {
			fprintf(stderr, "pthread_create failed\n");
			return 2;
		}
	}
	for (i = 0; i < nt; i++) {
		pthread_join(w[i].tid, NULL);
		if (w[i].err[0]) {
			fprintf(stderr, "thread %d: %s\n", i, w[i].err);
			return 2;
		}
		if (w[i].bad) {
			fprintf(stderr, "thread %d: %lu wrong results\n", i, w[i].bad);
			return 1;
		}
		fn_calls[w[i].lib] += w[i].fn_calls;
		outer_calls[w[i].lib] += w[i].outer_calls;
		iters += w[i].iters;
	}
	printf("%s: %d threads, every result right\n",
	       same ? "same library" : "different libraries", nt);
	fprintf(side, "iterations %lu\n", iters);
	for (i = 0; i < 2; i++) {
		if (!fn_calls[i])
			continue;
		tp_expect(side, fns[i], fn_calls[i]);
		tp_expect(side, outers[i], outer_calls[i]);
	}
	fclose(side);
	return 0;
}
