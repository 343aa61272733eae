/*
 * t_trap.c - short static functions traced through a trap (trapfn.S), and a program with its
 * own SIGTRAP, which must see no difference:
 *   t_trap calls        call_tiny(2000): tiny_ret, tiny_endbr, tiny_inc 2000 times each.
 *   t_trap own          its own SIGTRAP handler (SA_SIGINFO), 300 SIGTRAPs of its own (int3
 *                       and raise) among traced calls; then signal() with a plain handler,
 *                       100 more. Prints how often each ran and what sigaction/signal report.
 *   t_trap die-raise    SIGTRAP at its default, raise(SIGTRAP): dies of it.
 *   t_trap die-int3     the same with an int3 of its own.
 *   t_trap ign          SIGTRAP ignored: raise(SIGTRAP) is ignored, an int3 still kills.
 *   t_trap blocked      call_tiny(100) with every signal blocked: by pthread_sigmask in main,
 *                       by sigprocmask in a thread, in a thread started with every signal
 *                       blocked (pthread_attr_setsigmask_np), in a SIGUSR1 handler whose
 *                       sa_mask is full; each but the thread started so (see sigmask.c) is
 *                       told SIGTRAP is blocked, as it asked.
 *   t_trap masks        a SIGUSR1 left pending, then delivered inside each call that sets a
 *                       mask for its duration, a full one but SIGUSR1 (sigsuspend, pselect,
 *                       ppoll, epoll_pwait, epoll_pwait2): its handler calls call_tiny(100)
 *                       and prints whether it is told SIGTRAP is blocked (as it asked); each
 *                       call returns -1 EINTR.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <unistd.h>

#include "tp.h"

int call_tiny(int n);

static volatile sig_atomic_t info_runs, plain_runs;

static void info_handler(int sig, siginfo_t *si, void *uc)
{
	(void)si;
	(void)uc;
	if (sig == SIGTRAP)
		info_runs++;
}

static void plain_handler(int sig)
{
	if (sig == SIGTRAP)
		plain_runs++;
}

static void own_int3(void)
{
	__asm__ volatile("int3");
}

static int own(void)
{
	struct sigaction sa, old;
	int i, sum = 0;
	void *was;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = info_handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGTRAP, &sa, NULL) != 0)
		return 1;
	for (i = 0; i < 150; i++) {
		sum += call_tiny(3);
		own_int3();
		sum += call_tiny(1);
		raise(SIGTRAP);
	}
	memset(&old, 0, sizeof(old));
	sigaction(SIGTRAP, NULL, &old);
	printf("info handler ran %d times; sum %d; sigaction shows %s, SA_SIGINFO %s\n",
	       (int)info_runs, sum, old.sa_sigaction == info_handler ? "it" : "another",
	       old.sa_flags & SA_SIGINFO ? "set" : "clear");
	was = (void *)signal(SIGTRAP, plain_handler);
	printf("signal() returned %s\n", was == (void *)info_handler ? "it" : "another");
	for (i = 0; i < 50; i++) {
		sum += call_tiny(2);
		own_int3();
		raise(SIGTRAP);
	}
	sigaction(SIGTRAP, NULL, &old);
	printf("plain handler ran %d times; sum %d; sigaction shows %s\n", (int)plain_runs, sum,
	       old.sa_handler == plain_handler ? "it" : "another");
	tp_expect(stdout, "tiny_ret", 150 * 4 + 50 * 2);
	tp_expect(stdout, "tiny_inc", 150 * 4 + 50 * 2);
	return 0;
}

static int blocked_sum;

/* call_tiny(100) where SIGTRAP was asked to be blocked; prints whether it is said to be. */
static void *tiny_blocked(void *what)
{
	sigset_t now;

	pthread_sigmask(SIG_SETMASK, NULL, &now);
	__atomic_add_fetch(&blocked_sum, call_tiny(100), __ATOMIC_RELAXED);
	if (what)
		printf("%s: SIGTRAP %s\n", (const char *)what,
		       sigismember(&now, SIGTRAP) == 1 ? "blocked" : "NOT blocked");
	return NULL;
}

static void *by_sigprocmask(void *arg)
{
	sigset_t all;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, NULL);
	return tiny_blocked(arg);
}

static void usr1_handler(int sig)
{
	(void)sig;
	tiny_blocked("SIGUSR1 handler, full sa_mask");
}

static int blocked(void)
{
	struct sigaction sa, old;
	pthread_attr_t attr;
	sigset_t all;
	pthread_t t;

	sigfillset(&all);
	pthread_create(&t, NULL, by_sigprocmask, "thread, sigprocmask");
	pthread_join(t, NULL);
	pthread_attr_init(&attr);
	pthread_attr_setsigmask_np(&attr, &all);
	pthread_create(&t, &attr, tiny_blocked, NULL);
	pthread_join(t, NULL);
	pthread_attr_destroy(&attr);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = usr1_handler;
	sigfillset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	sigaction(SIGUSR1, NULL, &old);
	printf("SIGUSR1's sa_mask shown with SIGTRAP: %s\n",
	       sigismember(&old.sa_mask, SIGTRAP) == 1 ? "yes" : "no");
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	tiny_blocked("main, pthread_sigmask");
	printf("sum %d\n", blocked_sum);
	tp_expect(stdout, "tiny_ret", 4 * 100);
	tp_expect(stdout, "tiny_inc", 4 * 100);
	return 0;
}

static int masks_sum, masks_blocked;

static void usr1_in_call(int sig)
{
	sigset_t now;

	(void)sig;
	pthread_sigmask(SIG_SETMASK, NULL, &now);
	masks_blocked = sigismember(&now, SIGTRAP) == 1;
	masks_sum += call_tiny(100);
}

static void masks_said(const char *call, int r)
{
	printf("%s: returned %d, errno %s; handler told SIGTRAP %s\n", call, r,
	       r < 0 ? strerror(errno) : "0", masks_blocked ? "blocked" : "NOT blocked");
	masks_blocked = -1;
}

static int masks(void)
{
	struct sigaction sa;
	struct epoll_event ev;
	sigset_t usr1, all_but;
	int ep = epoll_create1(0);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = usr1_in_call;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, NULL);
	sigfillset(&all_but);
	sigdelset(&all_but, SIGUSR1);
	raise(SIGUSR1);
	masks_said("sigsuspend", sigsuspend(&all_but));
	raise(SIGUSR1);
	masks_said("pselect", pselect(0, NULL, NULL, NULL, NULL, &all_but));
	raise(SIGUSR1);
	masks_said("ppoll", ppoll(NULL, 0, NULL, &all_but));
	raise(SIGUSR1);
	masks_said("epoll_pwait", epoll_pwait(ep, &ev, 1, -1, &all_but));
	raise(SIGUSR1);
	masks_said("epoll_pwait2", epoll_pwait2(ep, &ev, 1, NULL, &all_but));
	close(ep);
	printf("sum %d\n", masks_sum);
	tp_expect(stdout, "tiny_ret", 5 * 100);
	tp_expect(stdout, "tiny_inc", 5 * 100);
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "calls";

	setvbuf(stdout, NULL, _IONBF, 0); /* the dying modes print before they die */
	if (strcmp(mode, "calls") == 0) {
		printf("sum %d\n", call_tiny(2000));
		tp_expect(stdout, "tiny_ret", 2000);
		tp_expect(stdout, "tiny_endbr", 2000);
		tp_expect(stdout, "tiny_inc", 2000);
		return 0;
	}
	if (strcmp(mode, "own") == 0)
		return own();
	if (strcmp(mode, "blocked") == 0)
		return blocked();
	if (strcmp(mode, "masks") == 0)
		return masks();
	printf("sum %d\n", call_tiny(10));
	if (strcmp(mode, "die-raise") == 0)
		raise(SIGTRAP);
	else if (strcmp(mode, "die-int3") == 0)
		own_int3();
	else if (strcmp(mode, "ign") == 0) {
		signal(SIGTRAP, SIG_IGN);
		raise(SIGTRAP);
		printf("raise ignored; sum %d\n", call_tiny(10));
		own_int3();
	}
	printf("still alive\n");
	return 0;
}
