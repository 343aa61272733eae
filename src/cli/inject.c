/*
 * inject.c - see inject.h.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/inject.h"

#define RED_ZONE 128
#define SCRATCH_BYTES 65536 /* the most written below a thread's stack pointer */
#define STOP_WAIT_MS 2000   /* a thread seized must stop within this */

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static void on_alarm(int sig)
{
	(void)sig; /* only to interrupt waitpid */
}

/* Wait for tid's next stop or end, within timeout_ms: a blocking waitpid, which an interval
 * timer's SIGALRM interrupts (a handler without SA_RESTART), so that a thread that stops is
 * seen at once, not at the next turn of a polling loop. 1 stopped, 0 timed out, -1 gone. */
static int wait_stop(int tid, int *status, int timeout_ms)
{
	static bool armed;
	struct itimerval t = { { 0, 0 }, { timeout_ms / 1000, (timeout_ms % 1000) * 1000 } };
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	pid_t r;

	if (!armed) {
		struct sigaction sa;

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_alarm;
		sigaction(SIGALRM, &sa, NULL);
		armed = true;
	}
	if (timeout_ms <= 0)
		t.it_value.tv_usec = 1000;
	setitimer(ITIMER_REAL, &t, NULL);
	r = waitpid(tid, status, __WALL);
	setitimer(ITIMER_REAL, &off, NULL);
	if (r == tid)
		return WIFSTOPPED(*status) ? 1 : -1;
	return r < 0 && errno == EINTR ? 0 : -1;
}

static struct tt_inject_thread *add_thread(struct tt_inject *in, int tid)
{
	if (in->n == in->cap) {
		size_t cap = in->cap ? 2 * in->cap : 16;
		struct tt_inject_thread *t = realloc(in->threads, cap * sizeof(*t));

		if (!t)
			return NULL;
		in->threads = t;
		in->cap = cap;
	}
	in->threads[in->n] = (struct tt_inject_thread){ tid, 0, false };
	return &in->threads[in->n++];
}

static bool known(const struct tt_inject *in, int tid)
{
	size_t i;

	for (i = 0; i < in->n; i++)
		if (in->threads[i].tid == tid)
			return true;
	return false;
}

/* Seize t and ask it to stop (await_stop waits for it): every thread of a pass is asked
 * first, so that they stop together rather than one after the other's wake-up. A thread
 * that exits meanwhile is dropped (0 all the same). */
static int seize(struct tt_inject *in, struct tt_inject_thread *t)
{
	if (ptrace(PTRACE_SEIZE, t->tid, 0, 0) < 0) {
		if (errno == ESRCH)
			return 0; /* gone */
		snprintf(in->why, sizeof(in->why), "ptrace(PTRACE_SEIZE, %d): %s", t->tid,
			 strerror(errno));
		return -1;
	}
	t->held = true;
	if (ptrace(PTRACE_INTERRUPT, t->tid, 0, 0) < 0 && errno != ESRCH) {
		snprintf(in->why, sizeof(in->why), "ptrace(PTRACE_INTERRUPT, %d): %s", t->tid,
			 strerror(errno));
		return -1;
	}
	return 0;
}

static int await_stop(struct tt_inject *in, struct tt_inject_thread *t)
{
	int status, r;

	while (t->held) {
		r = wait_stop(t->tid, &status, STOP_WAIT_MS);
		if (r < 0) {
			t->held = false;
			return 0;
		}
		if (r == 0) {
			snprintf(in->why, sizeof(in->why), "thread %d did not stop within %d ms",
				 t->tid, STOP_WAIT_MS);
			return -1;
		}
		if ((status >> 16) == PTRACE_EVENT_STOP)
			return 0; /* the interrupt's stop (or a group stop) */
		/* A signal on its way to the thread stopped it first: kept for the detach, and
		 * the interrupt's own stop is awaited. */
		t->pending_sig = WSTOPSIG(status);
		if (ptrace(PTRACE_CONT, t->tid, 0, 0) < 0 ||
		    ptrace(PTRACE_INTERRUPT, t->tid, 0, 0) < 0)
			t->held = false;
	}
	return 0;
}

static int open_mem(struct tt_inject *in, int pid)
{
	char path[64];

	in->pid = pid;
	in->borrowed = -1;
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	in->mem_fd = open(path, O_RDWR | O_CLOEXEC);
	if (in->mem_fd < 0) {
		snprintf(in->why, sizeof(in->why), "%s: %s", path, strerror(errno));
		return -1;
	}
	return 0;
}

int tt_inject_hold_all(struct tt_inject *in, int pid)
{
	char path[64];
	bool grew = true;

	if (open_mem(in, pid) < 0)
		return -1;
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	/* A thread held creates no other: a pass that finds no new one saw them all. */
	while (grew) {
		DIR *d = opendir(path);
		struct dirent *e;
		size_t first = in->n, i;

		if (!d) {
			snprintf(in->why, sizeof(in->why), "%s: %s", path, strerror(errno));
			tt_inject_end(in);
			return -1;
		}
		while ((e = readdir(d)) != NULL) {
			int tid = atoi(e->d_name);
			struct tt_inject_thread *t;

			if (tid <= 0 || known(in, tid))
				continue;
			t = add_thread(in, tid);
			if (!t || seize(in, t) < 0) {
				if (!t)
					snprintf(in->why, sizeof(in->why), "out of memory");
				closedir(d);
				tt_inject_end(in);
				return -1;
			}
		}
		closedir(d);
		for (i = first; i < in->n; i++)
			if (await_stop(in, &in->threads[i]) < 0) {
				tt_inject_end(in);
				return -1;
			}
		grew = in->n > first;
	}
	return 0;
}

int tt_inject_hold_one(struct tt_inject *in, int pid, int tid)
{
	struct tt_inject_thread *t;

	if (open_mem(in, pid) < 0)
		return -1;
	t = add_thread(in, tid);
	if (!t || seize(in, t) < 0 || await_stop(in, t) < 0 || !t->held) {
		if (t && !t->held && !in->why[0])
			snprintf(in->why, sizeof(in->why), "thread %d has exited", tid);
		tt_inject_end(in);
		return -1;
	}
	return 0;
}

/* How suitable a held thread is to borrow: asleep in a system call other than futex best
 * (it holds no lock of libc's a call could need), then the main thread. */
static int score(const struct tt_inject *in, size_t i, struct user_regs_struct *r)
{
	int s = 0;

	if (ptrace(PTRACE_GETREGS, in->threads[i].tid, 0, r) < 0)
		return -1;
	if ((long)r->orig_rax >= 0 && r->orig_rax != SYS_futex)
		s += 2;
	if (in->threads[i].tid == in->pid)
		s += 1;
	return s;
}

int tt_inject_borrow(struct tt_inject *in)
{
	struct user_regs_struct r;
	int best = -1, s;
	size_t i;

	for (i = 0; i < in->n; i++) {
		if (!in->threads[i].held)
			continue;
		s = score(in, i, &r);
		if (s > best) {
			best = s;
			in->borrowed = (int)i;
			in->saved = r;
		}
	}
	if (in->borrowed < 0) {
		snprintf(in->why, sizeof(in->why), "no thread of process %d could be held",
			 in->pid);
		return -1;
	}
	in->scratch = ((uintptr_t)in->saved.rsp - RED_ZONE) & ~(uintptr_t)15;
	in->scratch_low = in->scratch - SCRATCH_BYTES;
	return 0;
}

/* The system call tid sleeps in (from /proc: "running" and "-1" give -1). */
static long sleeping_in(int pid, int tid)
{
	char path[64], buf[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/syscall", pid, tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	return buf[0] >= '0' && buf[0] <= '9' ? strtol(buf, NULL, 10) : -1;
}

/* Whether tid has ended (a zombie: the main thread after pthread_exit), never to stop. */
static bool ended(int pid, int tid)
{
	char path[64], buf[512];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	return n <= 0 || strstr(buf, ") Z ") || strstr(buf, ") X ");
}

int tt_inject_pick_thread(int pid)
{
	char path[64];
	struct dirent *e;
	int best = -1, tid = pid, s;
	long nr;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	while (d && (e = readdir(d)) != NULL) {
		int t = atoi(e->d_name);

		if (t <= 0 || ended(pid, t))
			continue;
		nr = sleeping_in(pid, t);
		s = (nr >= 0 && nr != SYS_futex ? 2 : 0) + (t == pid ? 1 : 0);
		if (s > best) {
			best = s;
			tid = t;
		}
	}
	if (d)
		closedir(d);
	return tid;
}

static void let_go(struct tt_inject_thread *t)
{
	if (t->held)
		ptrace(PTRACE_DETACH, t->tid, 0, (void *)(long)t->pending_sig);
	t->held = false;
}

void tt_inject_release_others(struct tt_inject *in)
{
	size_t i;

	for (i = 0; i < in->n; i++)
		if ((int)i != in->borrowed)
			let_go(&in->threads[i]);
}

int tt_inject_read(struct tt_inject *in, uintptr_t addr, void *buf, size_t n)
{
	if (pread(in->mem_fd, buf, n, (off_t)addr) != (ssize_t)n) {
		snprintf(in->why, sizeof(in->why), "cannot read the target's memory at %#lx",
			 (unsigned long)addr);
		return -1;
	}
	return 0;
}

int tt_inject_write(struct tt_inject *in, uintptr_t addr, const void *buf, size_t n)
{
	if (pwrite(in->mem_fd, buf, n, (off_t)addr) != (ssize_t)n) {
		snprintf(in->why, sizeof(in->why), "cannot write the target's memory at %#lx",
			 (unsigned long)addr);
		return -1;
	}
	return 0;
}

int tt_inject_read_string(struct tt_inject *in, uintptr_t addr, char *buf, size_t size)
{
	ssize_t r = pread(in->mem_fd, buf, size - 1, (off_t)addr);

	buf[r > 0 ? r : 0] = 0;
	return r > 0 ? 0 : -1;
}

uintptr_t tt_inject_push(struct tt_inject *in, const void *data, size_t n)
{
	uintptr_t at = (in->scratch - n) & ~(uintptr_t)7;

	if (at < in->scratch_low || tt_inject_write(in, at, data, n) < 0)
		return 0;
	in->scratch = at;
	return at;
}

int tt_inject_call(struct tt_inject *in, uintptr_t fn, uint64_t a0, uint64_t a1, uint64_t *ret,
		   int timeout_ms)
{
	struct tt_inject_thread *t = &in->threads[in->borrowed];
	struct user_regs_struct r = in->saved;
	uint64_t zero = 0, end = now_ms() + (uint64_t)timeout_ms;
	int status, w, sig;

	/* A return address of 0: the function's ret faults there, and the fault stops it. */
	r.rsp = ((in->scratch - 256) & ~(uintptr_t)15) - 8;
	if (tt_inject_write(in, r.rsp, &zero, sizeof(zero)) < 0)
		return -1;
	r.rip = fn;
	r.rdi = a0;
	r.rsi = a1;
	r.rax = 0;
	r.orig_rax = (unsigned long long)-1; /* no system call restart around the call */
	r.eflags &= ~0x400ull;		     /* DF clear, as the ABI has it at a call */
	if (ptrace(PTRACE_SETREGS, t->tid, 0, &r) < 0 || ptrace(PTRACE_CONT, t->tid, 0, 0) < 0) {
		snprintf(in->why, sizeof(in->why), "cannot start the call in thread %d: %s", t->tid,
			 strerror(errno));
		return -1;
	}
	for (;;) {
		long left = (long)(end - now_ms());

		w = wait_stop(t->tid, &status, left > 0 ? (int)left : 0);
		if (w < 0) {
			t->held = false;
			snprintf(in->why, sizeof(in->why), "thread %d ended during the call",
				 t->tid);
			return -1;
		}
		if (w == 0) {
			snprintf(in->why, sizeof(in->why),
				 "the call in thread %d did not return within %d ms (a lock held "
				 "by a thread stopped meanwhile?)",
				 t->tid, timeout_ms);
			return -1;
		}
		sig = (status >> 16) == PTRACE_EVENT_STOP ? 0 : WSTOPSIG(status);
		if (sig == SIGSEGV && ptrace(PTRACE_GETREGS, t->tid, 0, &r) == 0 && r.rip == 0) {
			*ret = r.rax;
			return 0;
		}
		if (sig == SIGSEGV || sig == SIGBUS || sig == SIGILL) {
			snprintf(in->why, sizeof(in->why),
				 "the call in thread %d faulted (signal %d at %#llx)", t->tid, sig,
				 (unsigned long long)r.rip);
			return -1;
		}
		ptrace(PTRACE_CONT, t->tid, 0, (void *)(long)sig);
	}
}

void tt_inject_end(struct tt_inject *in)
{
	size_t i;

	if (in->borrowed >= 0 && in->threads[in->borrowed].held) {
		struct tt_inject_thread *t = &in->threads[in->borrowed];

		/* A call that has not returned is stopped where it is first: its registers are
		 * set back only on a stopped thread. */
		if (ptrace(PTRACE_SETREGS, t->tid, 0, &in->saved) < 0 && errno == ESRCH) {
			int status;

			ptrace(PTRACE_INTERRUPT, t->tid, 0, 0);
			wait_stop(t->tid, &status, STOP_WAIT_MS);
			ptrace(PTRACE_SETREGS, t->tid, 0, &in->saved);
		}
	}
	for (i = 0; i < in->n; i++)
		let_go(&in->threads[i]);
	free(in->threads);
	in->threads = NULL;
	in->n = in->cap = 0;
	in->borrowed = -1;
	if (in->mem_fd >= 0)
		close(in->mem_fd);
	in->mem_fd = -1;
}
