/*
 * t_sig_runtime.c - a program whose runtime handles signals the way Go's does, without Go.
 *
 *   t_sig_runtime foreign SIDE  installs its SIGUSR2 handler with the raw system call (the
 *                               handler it found kept aside, never called for a signal sent
 *                               to it), then sends SIGUSR2 to every thread of the process:
 *                               a delivery on a thread it did not create ends the process
 *                               with status 2 (Go without cgo prints "bad g in signal
 *                               handler"); one that stays blocked there is fine.
 *   t_sig_runtime chain DIR SIDE  installs a SA_SIGINFO handler for SIGUSR2 with sigaction()
 *                               and raises it 3 times: the handler must see each, with its
 *                               siginfo; under TSC_DUMP_SIGNAL=USR2 it waits for the dump
 *                               (DIR/r.PID.json) and moves it to DIR/dump.json.
 *   t_sig_runtime fatal SIDE    installs its SIGTERM handler with the raw system call; the
 *                               handler calls the handler it found (a function) as Go does
 *                               for a signal it gives up, or puts SIG_DFL back and raises:
 *                               the process must die of SIGTERM, with our handler between.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "tp.h"

long work_add(long a, long b);

#define MAX_THREADS 64

/* The kernel's struct sigaction, as a runtime without libc passes it. */
struct ksigaction {
	void *handler;
	unsigned long flags;
	void *restorer;
	uint64_t mask;
};

void tp_restore_rt(void); /* below: what the kernel returns through */
__asm__(".text\n"
	"tp_restore_rt:\n"
	"	mov $15, %eax\n" /* rt_sigreturn */
	"	syscall\n");

#define KSA_RESTORER 0x04000000
#define KSA_SIGINFO 4
#define KSA_ONSTACK 0x08000000
#define KSA_RESTART 0x10000000

static void *found; /* the handler that was installed before ours */
static unsigned long found_flags;
static int known[2];
static volatile int handled, on_foreign;

static void raw_install(int sig, void (*h)(int, siginfo_t *, void *))
{
	struct ksigaction sa = { (void *)h, KSA_SIGINFO | KSA_ONSTACK | KSA_RESTART | KSA_RESTORER,
				 (void *)tp_restore_rt, ~0ull },
			  old;

	if (syscall(SYS_rt_sigaction, sig, &sa, &old, 8) != 0) {
		perror("rt_sigaction");
		exit(3);
	}
	found = old.handler;
	found_flags = old.flags;
}

static void on_usr2(int sig, siginfo_t *si, void *uc)
{
	int tid = (int)syscall(SYS_gettid);

	(void)sig, (void)si, (void)uc;
	if (tid != known[0] && tid != known[1]) {
		static const char msg[] = "fatal: signal on a thread the runtime does not know\n";

		write(2, msg, sizeof(msg) - 1);
		_exit(2);
	}
	handled++;
}

static int blocked_pending(int tid, int sig)
{
	char path[64], line[256];
	unsigned long long pnd = 0, blk = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/status", tid);
	f = fopen(path, "r");
	if (!f)
		return 1; /* gone */
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "SigPnd: %llx", &pnd);
		sscanf(line, "SigBlk: %llx", &blk);
	}
	fclose(f);
	return (pnd & blk) >> (sig - 1) & 1;
}

static void *idle(void *arg)
{
	known[1] = (int)syscall(SYS_gettid);
	for (;;)
		pause();
	return arg;
}

static int foreign(FILE *side)
{
	int tids[MAX_THREADS], n = 0, i, waits;
	pthread_t t;
	struct dirent *e;
	DIR *d;

	known[0] = (int)syscall(SYS_gettid);
	raw_install(SIGUSR2, on_usr2);
	pthread_create(&t, NULL, idle, NULL);
	while (!__atomic_load_n(&known[1], __ATOMIC_ACQUIRE))
		usleep(1000);
	d = opendir("/proc/self/task");
	while (d && (e = readdir(d)) && n < MAX_THREADS)
		if (e->d_name[0] != '.')
			tids[n++] = atoi(e->d_name);
	if (d)
		closedir(d);
	for (i = 0; i < n; i++)
		syscall(SYS_tgkill, getpid(), tids[i], SIGUSR2);
	/* Each thread has either taken it (a program thread) or holds it blocked. */
	for (i = 0; i < n; i++)
		for (waits = 0; waits < 2000; waits++) {
			if (tids[i] == known[0] || tids[i] == known[1])
				break;
			if (blocked_pending(tids[i], SIGUSR2))
				break;
			usleep(1000);
		}
	while (handled < 2)
		usleep(1000);
	printf("work_add %ld\n", work_add(20, 22));
	printf("SIGUSR2 handled on the program's threads: %d\n", handled);
	fprintf(side, "threads %d\n", n);
	tp_expect(stdout, "work_add", 1);
	return 0;
}

static int chained;

static void on_usr2_info(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (sig == SIGUSR2 && si && si->si_signo == SIGUSR2 && si->si_pid == getpid())
		chained++;
}

static int chain(const char *dir, FILE *side)
{
	struct sigaction sa;
	char path[4096], to[4096];
	struct stat st;
	int i, w;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_usr2_info;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR2, &sa, NULL);
	for (i = 0; i < 3; i++) {
		work_add(i, 1);
		raise(SIGUSR2);
	}
	printf("SIGUSR2 reached the program's handler with its siginfo: %d of 3\n", chained);
	tp_expect(stdout, "work_add", 3);
	if (getenv("TSC_DUMP_SIGNAL")) {
		snprintf(path, sizeof(path), "%s/r.%d.json", dir, (int)getpid());
		snprintf(to, sizeof(to), "%s/dump.json", dir);
		for (w = 0; w < 10000 && stat(path, &st) != 0; w++)
			usleep(1000);
		/* The dump thread may still be writing: it renames a finished file in place. */
		fprintf(side, "dump %s\n",
			stat(path, &st) == 0 && rename(path, to) == 0 ? "ok" : "missing");
	}
	return 0;
}

static void on_term(int sig, siginfo_t *si, void *uc)
{
	struct ksigaction dfl = { SIG_DFL, 0, NULL, 0 };
	uint64_t bit = 1ull << (sig - 1);

	if (found != (void *)SIG_DFL && found != (void *)SIG_IGN) {
		if (found_flags & KSA_SIGINFO)
			((void (*)(int, siginfo_t *, void *))found)(sig, si, uc);
		else
			((void (*)(int))found)(sig);
		return;
	}
	syscall(SYS_rt_sigaction, sig, &dfl, NULL, 8);
	syscall(SYS_rt_sigprocmask, SIG_UNBLOCK, &bit, NULL, 8);
	raise(sig);
}

static int fatal(void)
{
	int i;

	alarm(5); /* a handler that sends the signal back to us for ever ends here */
	raw_install(SIGTERM, on_term);
	for (i = 0; i < 5; i++)
		work_add(i, i);
	tp_expect(stdout, "work_add", 5);
	fflush(stdout);
	kill(getpid(), SIGTERM);
	pause();
	return 1;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && strcmp(argv[1], "foreign") == 0)
		return foreign(tp_side_open(argc, argv, 2));
	if (argc >= 4 && strcmp(argv[1], "chain") == 0)
		return chain(argv[2], tp_side_open(argc, argv, 3));
	if (argc >= 2 && strcmp(argv[1], "fatal") == 0)
		return fatal();
	fprintf(stderr, "usage: %s foreign SIDE | chain DIR SIDE | fatal\n", argv[0]);
	return 2;
}
