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
 *
 * With argv[2] "sleepers", more threads sleep in a system call during the dlopen, each woken
 * after it by main: read on a pipe, pthread_cond_wait, pthread_cond_timedwait (a deadline far
 * off), poll and epoll_wait without timeout, select with none, clock_nanosleep to an absolute
 * time, sigwaitinfo; each prints what its call returned (an EINTR the shim caused would show).
 * "timeout": one sleeps in poll with a 60 s timeout instead (a relative timeout: the shim must
 * leave it asleep). "sleep-blocked": one blocks every signal, then sleeps in read.
 * "usr1": one waits in sigsuspend (nothing blocked inside it; SIGUSR1 blocked outside) while
 * another sends it SIGUSR1 without pause until after the dlopen; its handler (every signal
 * in its sa_mask) counts its runs, and each run must end one sigsuspend with EINTR, stop or
 * no stop (stderr counts the EINTR returns no handler of the program's caused).
 */
#define _GNU_SOURCE
#include "tp.h"

#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <time.h>
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

/* ---- sleepers: each sleeps in one system call until main wakes it after the dlopen */

enum { S_READ, S_COND, S_TIMEDCOND, S_POLL, S_EPOLL, S_SELECT, S_ABSSLEEP, S_SIGWAIT, S_N };
static const char *const sleep_name[S_N] = {
	"read on a pipe",
	"pthread_cond_wait",
	"pthread_cond_timedwait",
	"poll",
	"epoll_wait, no timeout",
	"select, no timeout",
	"clock_nanosleep to an absolute time",
	"sigwaitinfo",
};

struct sleeper {
	pthread_t thread;
	int kind, pipe[2], timeout_ms, blocked;
	pid_t tid;
	long ret;
	int err;
	char what[64];
};

static pthread_mutex_t sleep_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t sleep_cond = PTHREAD_COND_INITIALIZER;
static int sleep_go;
static struct timespec wake_at; /* clock_nanosleep's deadline, CLOCK_MONOTONIC */

static void *sleeper(void *arg)
{
	struct sleeper *s = arg;
	struct timespec far;
	struct epoll_event ev = { .events = EPOLLIN }, got;
	struct pollfd pfd = { .events = POLLIN };
	fd_set rd;
	sigset_t set;
	char c = 0;
	int ep, rc = 0;

	if (s->blocked) {
		sigfillset(&set);
		pthread_sigmask(SIG_BLOCK, &set, NULL);
	}
	__atomic_store_n(&s->tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	errno = 0;
	switch (s->kind) {
	case S_READ:
		s->ret = read(s->pipe[0], &c, 1);
		snprintf(s->what, sizeof(s->what), "'%c'", c);
		break;
	case S_COND:
	case S_TIMEDCOND:
		clock_gettime(CLOCK_REALTIME, &far);
		far.tv_sec += 3600;
		pthread_mutex_lock(&sleep_lock);
		while (!sleep_go && rc == 0)
			rc = s->kind == S_COND
				     ? pthread_cond_wait(&sleep_cond, &sleep_lock)
				     : pthread_cond_timedwait(&sleep_cond, &sleep_lock, &far);
		pthread_mutex_unlock(&sleep_lock);
		s->ret = rc;
		break;
	case S_POLL:
		pfd.fd = s->pipe[0];
		s->ret = poll(&pfd, 1, s->timeout_ms);
		snprintf(s->what, sizeof(s->what), "revents %#x", pfd.revents);
		break;
	case S_EPOLL:
		ep = epoll_create1(0);
		ev.data.fd = s->pipe[0];
		epoll_ctl(ep, EPOLL_CTL_ADD, s->pipe[0], &ev);
		s->ret = epoll_wait(ep, &got, 1, -1);
		snprintf(s->what, sizeof(s->what), "fd %s",
			 got.data.fd == s->pipe[0] ? "ours" : "?");
		close(ep);
		break;
	case S_SELECT:
		FD_ZERO(&rd);
		FD_SET(s->pipe[0], &rd);
		s->ret = select(s->pipe[0] + 1, &rd, NULL, NULL, NULL);
		break;
	case S_ABSSLEEP:
		s->ret = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &wake_at, NULL);
		break;
	case S_SIGWAIT:
		sigemptyset(&set);
		sigaddset(&set, SIGUSR2); /* blocked by main before any thread started */
		s->ret = sigwaitinfo(&set, NULL);
		snprintf(s->what, sizeof(s->what), "%s", s->ret == SIGUSR2 ? "SIGUSR2" : "?");
		break;
	}
	s->err = errno;
	return NULL;
}

/* Until the thread sleeps in a system call (its /proc syscall file starts with a number). */
static void wait_asleep(struct sleeper *s)
{
	char path[64], buf[64];
	FILE *f;

	while (!__atomic_load_n(&s->tid, __ATOMIC_ACQUIRE))
		usleep(1000);
	snprintf(path, sizeof(path), "/proc/self/task/%d/syscall", (int)s->tid);
	for (;;) {
		buf[0] = 0;
		if ((f = fopen(path, "r"))) {
			if (!fgets(buf, sizeof(buf), f))
				buf[0] = 0;
			fclose(f);
		}
		if (buf[0] >= '0' && buf[0] <= '9' && strncmp(buf, "-1", 2) != 0)
			return;
		usleep(1000);
	}
}

static int start_sleepers(struct sleeper *s, int n, const char *mode)
{
	sigset_t usr2;
	int i;

	sigemptyset(&usr2);
	sigaddset(&usr2, SIGUSR2);
	pthread_sigmask(SIG_BLOCK, &usr2, NULL); /* for sigwaitinfo, in every thread */
	clock_gettime(CLOCK_MONOTONIC, &wake_at);
	wake_at.tv_sec += 2; /* woken by the clock: after the dlopen */
	for (i = 0; i < n; i++) {
		memset(&s[i], 0, sizeof(s[i]));
		s[i].kind = strcmp(mode, "sleepers") == 0  ? i
			    : strcmp(mode, "timeout") == 0 ? S_POLL
							   : S_READ;
		s[i].timeout_ms = strcmp(mode, "timeout") == 0 ? 60000 : -1;
		s[i].blocked = strcmp(mode, "sleep-blocked") == 0;
		if (pipe(s[i].pipe) != 0 || pthread_create(&s[i].thread, NULL, sleeper, &s[i]) != 0)
			return -1;
	}
	for (i = 0; i < n; i++)
		wait_asleep(&s[i]);
	return 0;
}

static void wake_sleepers(struct sleeper *s, int n)
{
	int i;

	pthread_mutex_lock(&sleep_lock);
	sleep_go = 1;
	pthread_cond_broadcast(&sleep_cond);
	pthread_mutex_unlock(&sleep_lock);
	for (i = 0; i < n; i++) {
		if (s[i].kind == S_SIGWAIT)
			pthread_kill(s[i].thread, SIGUSR2);
		if (write(s[i].pipe[1], "x", 1) != 1)
			perror("write");
	}
	for (i = 0; i < n; i++) {
		pthread_join(s[i].thread, NULL);
		printf("asleep in %s%s: returned %ld, errno %s %s\n", sleep_name[s[i].kind],
		       s[i].kind != S_POLL   ? ""
		       : s[i].timeout_ms > 0 ? " with a 60 s timeout"
					     : ", no timeout",
		       s[i].ret, s[i].err ? strerror(s[i].err) : "0", s[i].what);
	}
}

/* ---- usr1: a program's signals while the world is stopped */

static unsigned long usr1_runs, usr1_returns;
static int usr1_done;
static pid_t usr1_tid;

static void on_usr1(int sig)
{
	(void)sig;
	usr1_runs++;
}

static void *usr1_waiter(void *arg)
{
	sigset_t none;

	(void)arg;
	sigemptyset(&none);
	__atomic_store_n(&usr1_tid, (pid_t)syscall(SYS_gettid), __ATOMIC_RELEASE);
	while (!__atomic_load_n(&usr1_done, __ATOMIC_ACQUIRE))
		if (sigsuspend(&none) == -1 && errno == EINTR)
			usr1_returns++;
	return NULL;
}

static void *usr1_sender(void *arg)
{
	pthread_t *waiter = arg;

	while (__atomic_load_n(&usr1_done, __ATOMIC_ACQUIRE) < 2)
		pthread_kill(*waiter, SIGUSR1);
	return NULL;
}

static pthread_t usr1_threads[2];

static int start_usr1(void)
{
	struct sigaction sa;
	sigset_t usr1;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigfillset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &usr1, NULL); /* inherited: delivered only in sigsuspend */
	if (pthread_create(&usr1_threads[0], NULL, usr1_waiter, NULL) != 0)
		return -1;
	while (!__atomic_load_n(&usr1_tid, __ATOMIC_ACQUIRE))
		usleep(1000);
	return pthread_create(&usr1_threads[1], NULL, usr1_sender, &usr1_threads[0]);
}

static void end_usr1(void)
{
	__atomic_store_n(&usr1_done, 1, __ATOMIC_RELEASE); /* the waiter leaves at its next */
	usleep(20000);
	__atomic_store_n(&usr1_done, 2, __ATOMIC_RELEASE);
	pthread_join(usr1_threads[0], NULL);
	pthread_join(usr1_threads[1], NULL);
	/* A run without its return: an EINTR of the program's hidden. A return more: an EINTR
	 * caused by another signal (stderr says how many). */
	printf("every SIGUSR1 handler run ended a sigsuspend: %s; some ran: %s\n",
	       usr1_runs <= usr1_returns ? "yes" : "NO", usr1_runs > 0 ? "yes" : "no");
	if (usr1_runs < usr1_returns)
		fprintf(stderr, "EINTR returns without a handler run: %lu\n",
			usr1_returns - usr1_runs);
}

int main(int argc, char **argv)
{
	struct worker w[NT];
	struct sleeper sleepers[S_N];
	int nsleepers = 0;
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
	if (argc > 2 && (strcmp(argv[2], "sleepers") == 0 || strcmp(argv[2], "timeout") == 0 ||
			 strcmp(argv[2], "sleep-blocked") == 0)) {
		nsleepers = strcmp(argv[2], "sleepers") == 0 ? S_N : 1;
		if (start_sleepers(sleepers, nsleepers, argv[2]) < 0) {
			fprintf(stderr, "sleepers could not be started\n");
			return 2;
		}
	}
	if (argc > 2 && strcmp(argv[2], "usr1") == 0 && start_usr1() < 0) {
		fprintf(stderr, "the SIGUSR1 threads could not be started\n");
		return 2;
	}
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
	wake_sleepers(sleepers, nsleepers);
	if (argc > 2 && strcmp(argv[2], "usr1") == 0)
		end_usr1();
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
