/*
 * t_stopworld.c - NT threads wait for libstraddle.so's constructor to publish straddle_fn
 * (tp_published, during main's dlopen of it: before the shim patches it at the end of that
 * dlopen), then call it through that pointer without pause until main says the dlopen has
 * returned, then N_AFTER times more each; main calls it N_MAIN times after its dlopen. A shim
 * patching straddle_fn then writes an entry across a cache line while threads run it.
 *
 * stdout is the same however the threads interleave: a checksum of main's and the last
 * N_AFTER results of each thread, and how many results were wrong (0). argv[1], if given,
 * receives the number of calls made in all (the most a report may count). With argv[2]
 * "sigmask", the threads block every signal first with pthread_sigmask (a server's threads
 * often do) and check that the mask they are told they have is the one they asked for; with
 * "raw", they block every signal with a raw rt_sigprocmask, which no wrapper sees.
 */
#define _GNU_SOURCE
#include "tp.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define NT 3
#define N_AFTER 50000
#define N_MAIN 10000

typedef unsigned (*straddle_t)(unsigned);

/* Written by libstraddle.so's constructor. */
__attribute__((visibility("default"))) void *tp_published;

static int after_dlopen, block_all, block_raw, ready;
static unsigned long mask_wrong;

struct worker {
	pthread_t tid;
	unsigned id;
	unsigned long before, wrong;
	uint64_t h;
};

static void *worker(void *arg)
{
	struct worker *w = arg;
	uint64_t h = TP_FNV_INIT;
	straddle_t f;
	unsigned i, r;
	sigset_t all;

	if (block_all) {
		sigset_t now;
		int s;

		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, NULL);
		pthread_sigmask(SIG_SETMASK, NULL, &now);
		for (s = 1; s <= 64; s++)
			if (s != SIGKILL && s != SIGSTOP && sigismember(&all, s) == 1 &&
			    sigismember(&now, s) != 1)
				__atomic_add_fetch(&mask_wrong, 1, __ATOMIC_RELAXED);
	}
	if (block_raw) {
		uint64_t every = ~0ull;

		syscall(SYS_rt_sigprocmask, SIG_BLOCK, &every, NULL, 8);
	}
	__atomic_add_fetch(&ready, 1, __ATOMIC_RELEASE);
	while (!(f = (straddle_t)__atomic_load_n(&tp_published, __ATOMIC_ACQUIRE)))
		__builtin_ia32_pause();
	for (i = 0; !__atomic_load_n(&after_dlopen, __ATOMIC_ACQUIRE); i++) {
		r = f(i * NT + w->id);
		w->wrong += r != i * NT + w->id + 3;
		w->before++;
	}
	for (i = 0; i < N_AFTER; i++) {
		r = f(i * NT + w->id);
		w->wrong += r != i * NT + w->id + 3;
		tp_fold(&h, &r, sizeof(r));
	}
	w->h = h;
	return NULL;
}

int main(int argc, char **argv)
{
	struct worker w[NT];
	unsigned long wrong = 0, total = N_MAIN;
	uint64_t h = TP_FNV_INIT;
	char path[PATH_MAX], *slash;
	ssize_t n;
	unsigned i, r;
	straddle_t f;

	n = readlink("/proc/self/exe", path, sizeof(path) - sizeof("libstraddle.so"));
	if (n <= 0 || !(slash = memrchr(path, '/', (size_t)n))) {
		perror("readlink /proc/self/exe");
		return 2;
	}
	strcpy(slash + 1, "libstraddle.so");
	block_all = argc > 2 && strcmp(argv[2], "sigmask") == 0;
	block_raw = argc > 2 && strcmp(argv[2], "raw") == 0;
	memset(w, 0, sizeof(w));
	for (i = 0; i < NT; i++) {
		w[i].id = i;
		if (pthread_create(&w[i].tid, NULL, worker, &w[i]) != 0) {
			fprintf(stderr, "pthread_create failed\n");
			return 2;
		}
	}
	while (__atomic_load_n(&ready, __ATOMIC_ACQUIRE) < NT) /* each running, its mask set */
		__builtin_ia32_pause();
	if (!dlopen(path, RTLD_NOW | RTLD_LOCAL)) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 2;
	}
	__atomic_store_n(&after_dlopen, 1, __ATOMIC_RELEASE);
	f = (straddle_t)tp_published;
	for (i = 0; i < N_MAIN; i++) {
		r = f(i);
		wrong += r != i + 3;
		tp_fold(&h, &r, sizeof(r));
	}
	for (i = 0; i < NT; i++) {
		pthread_join(w[i].tid, NULL);
		tp_fold(&h, &w[i].h, sizeof(w[i].h));
		wrong += w[i].wrong;
		total += w[i].before + N_AFTER;
	}
	if (block_all)
		printf("signals a thread asked to block but is told are not: %lu\n", mask_wrong);
	printf("%d threads x (until the dlopen returned + %d) + %d in main, checksum %016" PRIx64
	       ", %lu wrong\n",
	       NT, N_AFTER, N_MAIN, h, wrong);
	/* Every call after the dlopen returned is counted; those before may be. */
	tp_expect_min(stdout, "straddle_fn", N_MAIN + NT * (unsigned long)N_AFTER);
	if (argc > 1) {
		FILE *out = fopen(argv[1], "w");

		if (out) {
			fprintf(out, "%lu\n", total);
			fclose(out);
		}
	}
	return 0;
}
