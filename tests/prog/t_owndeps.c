/*
 * t_owndeps.c SIDE-FILE - a program that calls, itself, the functions the shim depends on
 * (malloc, memcpy, write, locks, clock_gettime, mprotect, sched_setaffinity, sigaction,
 * dlopen, dlsym, pthread_create, ...), from several threads, from a signal handler, from an
 * atexit function and from a dlopen'd plugin (libodp.so), while the shim traces all of them.
 * It counts its own calls (built -fno-builtin: each is a real call through the PLT); the
 * expectations go to SIDE-FILE: `expect` where only the program can call the function through
 * a PLT, `expect_min` where libc calls it through its own PLT too (malloc from stdio, ...).
 * In the traced run it also asks the shim for a report half-way (tsctrace_dump, found with
 * dlsym), with all of these traced.
 */
#define _GNU_SOURCE
#include "tp.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

enum {
	MALLOC,
	FREE,
	CALLOC,
	REALLOC,
	MEMCPY,
	MEMMOVE,
	MEMSET,
	STRLEN,
	WRITE,
	OPEN,
	CLOSE,
	SNPRINTF,
	LOCK,
	UNLOCK,
	GETSPECIFIC,
	CLOCK,
	MPROTECT,
	SETAFFINITY,
	SIGACTION,
	DLSYM,
	DLOPEN,
	PTHREAD_CREATE,
	NCOUNT
};

/* The sanitizer runtimes call pthread_getspecific through their own PLT. */
#ifdef __SANITIZE_ADDRESS__
#define GETSPECIFIC_EXACT 0
#else
#define GETSPECIFIC_EXACT 1
#endif

/* Exact where nothing but this program calls the function through a PLT. */
static const struct {
	const char *name;
	int exact;
} fns[NCOUNT] = {
	[MALLOC] = { "malloc", 0 },
	[FREE] = { "free", 0 },
	[CALLOC] = { "calloc", 0 },
	[REALLOC] = { "realloc", 0 },
	[MEMCPY] = { "memcpy", 0 },
	[MEMMOVE] = { "memmove", 0 },
	[MEMSET] = { "memset", 0 },
	[STRLEN] = { "strlen", 0 },
	[WRITE] = { "write", 1 },
	[OPEN] = { "open", 1 },
	[CLOSE] = { "close", 1 },
	[SNPRINTF] = { "snprintf", 1 },
	[LOCK] = { "pthread_mutex_lock", 1 },
	[UNLOCK] = { "pthread_mutex_unlock", 1 },
	[GETSPECIFIC] = { "pthread_getspecific", GETSPECIFIC_EXACT },
	[CLOCK] = { "clock_gettime", 1 },
	[MPROTECT] = { "mprotect", 1 },
	[SETAFFINITY] = { "sched_setaffinity", 1 },
	[SIGACTION] = { "sigaction", 1 },
	[DLSYM] = { "dlsym", 1 },
	[DLOPEN] = { "dlopen", 1 },
	[PTHREAD_CREATE] = { "pthread_create", 1 },
};

static unsigned long count[NCOUNT];
#define CALLED(i, n) __atomic_add_fetch(&count[i], (n), __ATOMIC_RELAXED)

#define NTHREADS 4
#define ROUNDS 1000

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_key_t key;
static unsigned long shared_total;
static volatile sig_atomic_t handled;
static char handler_text[] = "signal";
static size_t handler_len;

static void on_usr1(int sig)
{
	(void)sig;
	handler_len = strlen(handler_text); /* strlen is async-signal-safe in practice */
	CALLED(STRLEN, 1);
	handled++;
}

static void at_exit_a(void)
{
	static const char msg[] = "atexit a\n";

	if (write(2, msg, strlen(msg)) < 0)
		_exit(1);
}

static void at_exit_b(void)
{
	static const char msg[] = "atexit b\n";

	if (write(2, msg, strlen(msg)) < 0)
		_exit(1);
}

static void *worker(void *arg)
{
	long id = (long)arg, local = 0;
	struct timespec ts;
	int i;

	if (pthread_setspecific(key, arg) != 0)
		return (void *)1;
	for (i = 0; i < ROUNDS; i++) {
		char *p = malloc(64);

		if (!p)
			return (void *)1;
		memset(p, (int)id, 64);
		pthread_mutex_lock(&mu);
		shared_total += (unsigned char)p[i % 64];
		pthread_mutex_unlock(&mu);
		free(p);
		if (pthread_getspecific(key) != arg)
			return (void *)1;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		local += ts.tv_nsec >= 0;
	}
	CALLED(MALLOC, ROUNDS);
	CALLED(MEMSET, ROUNDS);
	CALLED(LOCK, ROUNDS);
	CALLED(UNLOCK, ROUNDS);
	CALLED(FREE, ROUNDS);
	CALLED(GETSPECIFIC, ROUNDS);
	CALLED(CLOCK, ROUNDS);
	return local == ROUNDS ? NULL : (void *)1;
}

static long memory_calls(void)
{
	char a[256], b[256];
	char *p, *q;
	long sum = 0;
	int i;

	for (i = 0; i < 100; i++) {
		memset(a, 'a' + i % 26, sizeof(a) - 1);
		a[sizeof(a) - 1] = 0;
		memcpy(b, a, sizeof(a));
		memmove(b + 1, b, 100);
		sum += (long)strlen(b + i);
		p = calloc(4, 16);
		q = realloc(p, 128);
		if (!q)
			return -1;
		sum += q[3];
		free(q);
	}
	CALLED(MEMSET, 100);
	CALLED(MEMCPY, 100);
	CALLED(MEMMOVE, 100);
	CALLED(STRLEN, 100);
	CALLED(CALLOC, 100);
	CALLED(REALLOC, 100);
	CALLED(FREE, 100);
	return sum;
}

static long formatting(void)
{
	char buf[64];
	long sum = 0;
	int i;

	for (i = 0; i < 100; i++)
		sum += snprintf(buf, sizeof(buf), "value %d of %s", i, "formatting");
	CALLED(SNPRINTF, 100);
	return sum;
}

/* open, write, close a file; then open it again, read it back, close. */
static long file_calls(void)
{
	char line[32], back[4096];
	ssize_t n, got = 0;
	int fd, i;

	fd = open("owndeps.txt", O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0644);
	CALLED(OPEN, 1);
	if (fd < 0)
		return -1;
	for (i = 0; i < 50; i++) {
		int len = snprintf(line, sizeof(line), "line %d\n", i);

		if (write(fd, line, (size_t)len) != len)
			return -1;
	}
	CALLED(SNPRINTF, 50);
	CALLED(WRITE, 50);
	close(fd);
	CALLED(CLOSE, 1);
	fd = open("owndeps.txt", O_RDONLY | O_CLOEXEC);
	CALLED(OPEN, 1);
	if (fd < 0)
		return -1;
	while ((n = read(fd, back + got, sizeof(back) - (size_t)got)) > 0)
		got += n;
	close(fd);
	CALLED(CLOSE, 1);
	return (long)got;
}

/* mprotect a page of our own read-only and back; set our CPU mask to what it already is. */
static int system_calls(void)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		       0);
	cpu_set_t set;
	int ok;

	if (p == MAP_FAILED)
		return -1;
	p[0] = 1;
	ok = mprotect(p, (size_t)page, PROT_READ) == 0 && p[0] == 1 &&
	     mprotect(p, (size_t)page, PROT_READ | PROT_WRITE) == 0;
	CALLED(MPROTECT, 2);
	p[1] = 2;
	munmap(p, (size_t)page);
	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return -1;
	ok = ok && sched_setaffinity(0, sizeof(set), &set) == 0;
	CALLED(SETAFFINITY, 1);
	return ok ? 0 : -1;
}

static int signal_calls(void)
{
	struct sigaction sa, old;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, NULL) != 0 || sigaction(SIGUSR1, NULL, &old) != 0)
		return -1;
	CALLED(SIGACTION, 2);
	raise(SIGUSR1);
	return old.sa_handler == on_usr1 && handled == 1 && handler_len == 6 ? 0 : -1;
}

static long plugin_calls(void)
{
	char path[PATH_MAX], *slash;
	unsigned long *c_malloc, *c_free, *c_strlen, *c_snprintf, *c_memcpy;
	long (*work)(int);
	ssize_t len;
	void *h;
	long r;

	len = readlink("/proc/self/exe", path, sizeof(path) - 32);
	if (len <= 0)
		return -1;
	path[len] = 0;
	slash = strrchr(path, '/');
	snprintf(slash + 1, 32, "%s", "libodp.so");
	CALLED(SNPRINTF, 1);
	if (dlopen("libtsctrace-no-such-plugin.so", RTLD_NOW) != NULL)
		return -1;
	h = dlopen(path, RTLD_NOW);
	CALLED(DLOPEN, 2);
	if (!h) {
		fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
		return -1;
	}
	work = (long (*)(int))dlsym(h, "odp_work");
	c_malloc = dlsym(h, "odp_malloc");
	c_free = dlsym(h, "odp_free");
	c_strlen = dlsym(h, "odp_strlen");
	c_snprintf = dlsym(h, "odp_snprintf");
	c_memcpy = dlsym(h, "odp_memcpy");
	CALLED(DLSYM, 6);
	if (dlsym(h, "odp_no_such_symbol") != NULL)
		return -1;
	CALLED(DLSYM, 1);
	if (!work || !c_malloc || !c_free || !c_strlen || !c_snprintf || !c_memcpy)
		return -1;
	r = work(200);
	CALLED(MALLOC, *c_malloc);
	CALLED(FREE, *c_free);
	CALLED(STRLEN, *c_strlen);
	CALLED(SNPRINTF, *c_snprintf);
	CALLED(MEMCPY, *c_memcpy);
	return r;
}

int main(int argc, char **argv)
{
	FILE *side = tp_side_open(argc, argv, 1);
	pthread_t t[NTHREADS];
	int (*dump)(void);
	long i;
	size_t k;
	void *ret;

	if (atexit(at_exit_a) != 0 || atexit(at_exit_b) != 0)
		return 1;
	/* What the two atexit functions will do, after the expectations are written. */
	CALLED(WRITE, 2);
	CALLED(STRLEN, 2);

	if (signal_calls() != 0) {
		fprintf(stderr, "signal calls failed\n");
		return 1;
	}
	printf("memory: %ld\n", memory_calls());
	printf("formatting: %ld\n", formatting());
	printf("file: %ld bytes read back\n", file_calls());
	if (system_calls() != 0) {
		fprintf(stderr, "mprotect or sched_setaffinity failed\n");
		return 1;
	}
	printf("system calls: ok\n");

	/* In the traced run only: a report half-way, with everything above traced. */
	dump = (int (*)(void))dlsym(RTLD_DEFAULT, "tsctrace_dump");
	CALLED(DLSYM, 1);
	if (dump && dump() != 0)
		fprintf(stderr, "tsctrace_dump failed\n");

	if (pthread_key_create(&key, NULL) != 0)
		return 1;
	for (i = 0; i < NTHREADS; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)(i + 1)) != 0) {
			fprintf(stderr, "pthread_create failed\n");
			return 1;
		}
	CALLED(PTHREAD_CREATE, NTHREADS);
	for (i = 0; i < NTHREADS; i++)
		if (pthread_join(t[i], &ret) != 0 || ret != NULL) {
			fprintf(stderr, "worker %ld failed\n", i);
			return 1;
		}
	printf("threads: total %lu\n", shared_total);
	printf("plugin: %ld\n", plugin_calls());

	for (k = 0; k < NCOUNT; k++) {
		if (fns[k].exact)
			tp_expect(side, fns[k].name, count[k]);
		else
			tp_expect_min(side, fns[k].name, count[k]);
	}
	fclose(side);
	return 0;
}
