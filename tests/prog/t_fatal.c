/*
 * t_fatal.c MODE [ARG...] - SIGTERM, SIGINT, SIGHUP and SIGABRT under the shim:
 *   raise SIG          1000 px_add calls, then px_raise(SIG) raises it from inside a traced
 *                      call: the process dies of SIG (default action), with the report written
 *   reset              the program sets SIGHUP to SIG_DFL itself (signal, then sigaction), then
 *                      dies of it as in `raise HUP`
 *   restore SIG        the program ignores SIG for a while and then puts back the action it
 *                      saved (SIG_DFL, as it was told): signal() for INT, sigaction() for TERM
 *                      and HUP; then it dies of SIG as in `raise SIG`, report written
 *   own                the program installs its own SIGTERM handler and raises SIGTERM twice:
 *                      its handler runs, the program goes on, no report appears before it
 *                      returns from main
 *   wait SIDE MODE...  100 px_add calls, then fork: the child runs MODE (raise SIG, or victim
 *                      SIG: 1000 calls, tell the parent, then call px_add forever until the
 *                      parent kills it with SIG); the parent prints how the child ended
 * Every mode first prints what sigaction(SIG, NULL, &old) says for the four signals (SIG_DFL
 * in both runs: the shim's own handlers must not show). Expectations go to stdout (those of
 * the parent, in wait mode, to SIDE). No core file is written (SIGABRT would leave one).
 */
#define _GNU_SOURCE
#include "tp.h"

#include <dirent.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define N 1000
#define M 500

extern unsigned long px_add_count, px_raise_count;
long px_add(long a, long b);
int px_raise(int sig);

/* Set by glibc on every sigaction() for the kernel, not by programs: left out of what is
 * printed, every other flag is what the program set (or the default action's 0). */
#define SA_RESTORER_BIT 0x04000000u

static const int sigs[] = { SIGTERM, SIGINT, SIGHUP, SIGABRT };
static volatile sig_atomic_t handled;

static const char *kind(void (*h)(int))
{
	return h == SIG_DFL ? "SIG_DFL" : h == SIG_IGN ? "SIG_IGN" : "a handler";
}

static void query(const char *when)
{
	struct sigaction old;
	size_t i;

	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		memset(&old, 0xa5, sizeof(old));
		if (sigaction(sigs[i], NULL, &old) != 0) {
			perror("sigaction");
			exit(1);
		}
		printf("%s: sigaction(SIG%s, NULL, &old): %s, flags %#x\n", when,
		       sigabbrev_np(sigs[i]), kind(old.sa_handler),
		       (unsigned)old.sa_flags & ~SA_RESTORER_BIT);
	}
}

static int parse_sig(const char *name)
{
	if (strcmp(name, "TERM") == 0)
		return SIGTERM;
	if (strcmp(name, "INT") == 0)
		return SIGINT;
	if (strcmp(name, "HUP") == 0)
		return SIGHUP;
	if (strcmp(name, "ABRT") == 0)
		return SIGABRT;
	fprintf(stderr, "unknown signal %s\n", name);
	exit(2);
}

static long calls(int n)
{
	long sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += px_add(i, 1);
	return sum;
}

static void die_of(int sig)
{
	printf("sum %ld\n", calls(N));
	tp_expect(stdout, "px_add", px_add_count);
	tp_expect(stdout, "px_raise", px_raise_count + 1);
	tp_expect_unwound(stdout, "px_raise", 1); /* still running when the report is taken */
	fflush(stdout);
	px_raise(sig);
	printf("still alive after SIG%s\n", sigabbrev_np(sig));
	exit(1);
}

static void on_term(int sig)
{
	(void)sig;
	handled++;
}

/* Report files (r.*) in the working directory: run.sh's TSC_OUTPUT is $T/r.%p.json. */
static int reports_now(void)
{
	DIR *d = opendir(".");
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strncmp(e->d_name, "r.", 2) == 0)
			n++;
	closedir(d);
	return n;
}

static int own(void)
{
	struct sigaction sa, old;
	void (*prev)(int);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGTERM, &sa, &old) != 0) {
		perror("sigaction");
		return 1;
	}
	printf("installing: the old SIGTERM action was %s\n", kind(old.sa_handler));
	prev = signal(SIGTERM, on_term);
	printf("signal(SIGTERM, ...) returned %s\n",
	       prev == on_term ? "the program's handler" : kind(prev));
	query("own handler");
	printf("sum %ld\n", calls(N));
	raise(SIGTERM);
	printf("after raise: handler ran %d times, %d report files\n", (int)handled, reports_now());
	px_raise(SIGTERM);
	printf("after px_raise: handler ran %d times, %d report files\n", (int)handled,
	       reports_now());
	printf("sum %ld\n", calls(M));
	tp_expect(stdout, "px_add", px_add_count);
	tp_expect(stdout, "px_raise", px_raise_count);
	tp_expect_unwound(stdout, "px_raise", 0);
	return 0;
}

static void reset(void)
{
	struct sigaction dfl, old;
	void (*prev)(int);

	prev = signal(SIGHUP, SIG_DFL);
	printf("signal(SIGHUP, SIG_DFL) returned %s\n", kind(prev));
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigemptyset(&dfl.sa_mask);
	if (sigaction(SIGHUP, &dfl, &old) != 0) {
		perror("sigaction");
		exit(1);
	}
	/* signal() set SA_RESTART: the old action must say so. */
	printf("sigaction(SIGHUP, SIG_DFL, &old): old %s, flags %#x\n", kind(old.sa_handler),
	       (unsigned)old.sa_flags & ~SA_RESTORER_BIT);
	query("after reset");
	die_of(SIGHUP);
}

static void restore(int sig)
{
	if (sig == SIGINT) {
		void (*saved)(int) = signal(sig, SIG_IGN);
		void (*was)(int);

		raise(sig);
		was = signal(sig, saved);
		printf("signal(SIG%s, SIG_IGN) returned %s; putting it back returned %s\n",
		       sigabbrev_np(sig), kind(saved), kind(was));
	} else {
		struct sigaction ign, saved, was;

		memset(&ign, 0, sizeof(ign));
		ign.sa_handler = SIG_IGN;
		sigemptyset(&ign.sa_mask);
		if (sigaction(sig, &ign, &saved) != 0)
			exit(1);
		raise(sig);
		if (sigaction(sig, &saved, &was) != 0)
			exit(1);
		printf("sigaction(SIG%s, SIG_IGN) saved %s; putting it back replaced %s\n",
		       sigabbrev_np(sig), kind(saved.sa_handler), kind(was.sa_handler));
	}
	query("restored");
	die_of(sig);
}

static void victim(int sig, int ready_fd)
{
	volatile long sink = 0;
	long i;

	(void)sig;
	sink += calls(N);
	tp_expect_min(stdout, "px_add", px_add_count);
	fflush(stdout);
	if (write(ready_fd, "r", 1) != 1)
		_exit(3);
	for (i = 0;; i++)
		sink += px_add(i, 2);
}

static int wait_child(int argc, char **argv)
{
	FILE *side = tp_side_open(argc, argv, 2);
	int pfd[2], st;
	pid_t pid;
	char c;
	int sig;

	if (argc < 5) {
		fprintf(stderr, "usage: t_fatal wait SIDE raise|victim SIG\n");
		return 2;
	}
	sig = parse_sig(argv[4]);
	printf("parent: sum %ld\n", calls(100));
	tp_expect(side, "px_add", px_add_count);
	if (pipe(pfd) != 0) {
		perror("pipe");
		return 1;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		close(pfd[0]);
		px_add_count = 0;
		if (strcmp(argv[3], "victim") == 0)
			victim(sig, pfd[1]);
		die_of(sig);
	}
	close(pfd[1]);
	fprintf(side, "child %ld\n", (long)pid);
	fclose(side);
	if (strcmp(argv[3], "victim") == 0) {
		if (read(pfd[0], &c, 1) != 1) {
			printf("the child did not get ready\n");
			return 1;
		}
		kill(pid, sig);
	}
	if (waitpid(pid, &st, 0) != pid) {
		perror("waitpid");
		return 1;
	}
	if (WIFSIGNALED(st))
		printf("child: killed by SIG%s%s\n", sigabbrev_np(WTERMSIG(st)),
		       WCOREDUMP(st) ? " (core dumped)" : "");
	else
		printf("child: exited with status %d\n", WEXITSTATUS(st));
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	struct rlimit no_core = { 0, 0 };
	struct sigaction now;
	size_t i;
	int reexec = 0;

	setrlimit(RLIMIT_CORE, &no_core);
	/* Started with one of the signals ignored (a background job of a non-interactive
	 * shell ignores SIGINT): make it default and start again, so that the shim sees the
	 * default action at start-up, as this test means. */
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if (sigaction(sigs[i], NULL, &now) == 0 && now.sa_handler == SIG_IGN) {
			signal(sigs[i], SIG_DFL);
			reexec = 1;
		}
	if (reexec) {
		execv("/proc/self/exe", argv);
		perror("execv");
		return 1;
	}
	query("start");
	if (strcmp(mode, "raise") == 0 && argc > 2)
		die_of(parse_sig(argv[2]));
	if (strcmp(mode, "reset") == 0)
		reset();
	if (strcmp(mode, "restore") == 0 && argc > 2)
		restore(parse_sig(argv[2]));
	if (strcmp(mode, "own") == 0)
		return own();
	if (strcmp(mode, "wait") == 0)
		return wait_child(argc, argv);
	fprintf(stderr, "usage: t_fatal raise SIG | reset | restore SIG | own | "
			"wait SIDE raise|victim SIG\n");
	return 2;
}
