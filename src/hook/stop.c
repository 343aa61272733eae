/*
 * stop.c - see stop.h.
 *
 * The signal is queued with rt_tgsigqueueinfo and a cookie, so that the handler tells it from
 * one the program sends (it gets the default action it would have had). The coordinator
 * numbers each stop with an odd generation; a parked thread waits on that
 * word until it changes. A signal from an earlier stop delivered late (it stayed pending
 * while the thread blocked signals, or queued behind another) finds an even generation, or
 * a table where its thread is not waited for, and returns at once. Everything here is raw
 * system calls: parked threads may hold libc's locks, and the handler runs anywhere.
 *
 * A sleeper is signalled when its system call resumes unchanged (sleep_wakes.h). One the
 * kernel made fail with EINTR (poll, epoll_wait, sigsuspend... without a timeout) is issued
 * again by the handler: its `syscall` instruction once more, with its number, when the
 * interrupted context is that call's return (the pc and the six argument registers the
 * coordinator read in /proc, and EINTR). Not when a handler of the program's returned to
 * that same point with ours pending (both were pending at that return, the program's came
 * first and its mask held ours back: the program's signal caused that EINTR and the program
 * sees it); wrap/sigaction.c's trampoline tells.
 */
#include <fcntl.h>
#include <linux/futex.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <ucontext.h>

#include "base/sys.h"
#include "elf/real.h"
#include "hook/sleep_wakes.h"
#include "hook/stop.h"

#define WAIT_SLICE_NS 10000000L /* between looks at the threads not parked yet */
#define STOP_BOUND_NS 2000000000L
#define BLOCKED_LOOKS 5 /* a thread seen blocking the signal this many times in a row */
/* What the coordinator blocks: every signal but SIGTRAP, which would end the process if a
 * trap-hooked function it calls (snprintf's helpers, sigaction) met its int3 meanwhile. */
#define SHIM_MASK (~0ull & ~(1ull << (SIGTRAP - 1)))

/* The handler must not call into a sanitizer runtime: it interrupts any code, the runtime's
 * own included. */
#define TT_SIGNAL_SAFE __attribute__((no_sanitize("address", "thread", "undefined")))

static int stop_sig;
static int sig_lock;	/* stop_sig's owner: a stop, or the program's sigaction of it */
static uint32_t gen;	/* odd while a stop is under way */
static uint32_t parked; /* threads parked in this stop */
static uint32_t inside; /* threads in the handler, whatever the stop */
static long pid;
/* The stop's signals carry this address (SI_QUEUE): a raise() or kill() of the program's,
 * even from its own pid, is told apart and gets its default action (not_ours). */
static const char cookie;
static struct tt_stop_thread *table;
static size_t count, cap;

TT_SIGNAL_SAFE __attribute__((always_inline)) static inline long
futex(uint32_t *w, int op, uint32_t val, const struct timespec *ts)
{
	return tt_syscall6(SYS_futex, (long)w, op, val, (long)ts, 0, 0);
}

/*
 * The signal sent by someone else (kill, sigqueue): the program never installed anything for
 * it, so it gets what it would have had, the default action (for a real-time signal, the end
 * of the process). The stop gives the signal up (the next takes another) and sends it again.
 */
TT_SIGNAL_SAFE static void not_ours(int sig, const siginfo_t *si)
{
	struct {
		void *handler;
		unsigned long flags;
		void *restorer;
		uint64_t mask;
	} dfl = { SIG_DFL, 0, NULL, 0 };
	uint64_t bit = 1ull << (sig - 1);

	__atomic_store_n(&stop_sig, 0, __ATOMIC_RELAXED);
	tt_syscall6(SYS_rt_sigaction, sig, (long)&dfl, 0, 8, 0, 0);
	tt_syscall6(SYS_rt_sigprocmask, SIG_UNBLOCK, (long)&bit, 0, 8, 0, 0);
	if (tt_syscall6(SYS_rt_tgsigqueueinfo, tt_syscall3(SYS_getpid, 0, 0, 0),
			tt_syscall3(SYS_gettid, 0, 0, 0), sig, (long)si, 0, 0) < 0)
		tt_syscall3(SYS_tgkill, tt_syscall3(SYS_getpid, 0, 0, 0),
			    tt_syscall3(SYS_gettid, 0, 0, 0), sig);
}

/* A handler of the program's returned, with the stop's signal pending, to a system call's
 * EINTR at this pc (0: none): that signal, delivered next, must let the EINTR through. */
static __thread uintptr_t program_eintr;

TT_SIGNAL_SAFE static long now_ns(void)
{
	struct timespec ts;

	tt_syscall3(SYS_clock_gettime, CLOCK_MONOTONIC, &ts, 0);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* The interrupted context is t's system call, which failed with EINTR because of this signal:
 * make it run again. */
TT_SIGNAL_SAFE static void issue_again(struct tt_stop_thread *t, ucontext_t *uc)
{
	greg_t *r = uc->uc_mcontext.gregs;
	static const int arg[6] = { REG_RDI, REG_RSI, REG_RDX, REG_R10, REG_R8, REG_R9 };
	int k;

	uintptr_t program = program_eintr;

	program_eintr = 0; /* said for this delivery only */
	if (t->sys_nr < 0 || (uintptr_t)r[REG_RIP] != t->sys_pc || r[REG_RAX] != -4 /* EINTR */ ||
	    program == t->sys_pc)
		return;
	for (k = 0; k < 6; k++)
		if ((unsigned long)r[arg[k]] != t->sys_args[k])
			return;
	r[REG_RIP] -= 2; /* the `syscall` instruction */
	r[REG_RAX] = t->sys_nr;
}

TT_SIGNAL_SAFE static void on_stop(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;
	struct tt_stop_thread *t;
	uint32_t g;
	size_t i, n;
	long tid;

	if (si->si_code != SI_QUEUE || si->si_pid != pid ||
	    si->si_value.sival_ptr != (void *)&cookie) {
		not_ours(sig, si);
		return;
	}
	__atomic_add_fetch(&inside, 1, __ATOMIC_SEQ_CST);
	g = __atomic_load_n(&gen, __ATOMIC_ACQUIRE);
	if (g & 1) {
		tid = tt_syscall3(SYS_gettid, 0, 0, 0);
		n = __atomic_load_n(&count, __ATOMIC_ACQUIRE);
		t = __atomic_load_n(&table, __ATOMIC_ACQUIRE);
		for (i = 0; i < n; i++) {
			if (t[i].tid != tid ||
			    __atomic_load_n(&t[i].state, __ATOMIC_ACQUIRE) != TT_STOP_SIGNALLED)
				continue;
			issue_again(&t[i], uc);
			t[i].uc = uc;
			t[i].pc = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
			__atomic_store_n(&t[i].state, TT_STOP_PARKED, __ATOMIC_RELEASE);
			__atomic_add_fetch(&parked, 1, __ATOMIC_SEQ_CST);
			futex(&parked, FUTEX_WAKE_PRIVATE, 1, NULL);
			while (__atomic_load_n(&gen, __ATOMIC_ACQUIRE) == g)
				futex(&gen, FUTEX_WAIT_PRIVATE, g, NULL);
			break;
		}
	}
	if (__atomic_sub_fetch(&inside, 1, __ATOMIC_SEQ_CST) == 0)
		futex(&inside, FUTEX_WAKE_PRIVATE, 1, NULL);
}

/* Queue the stop's signal to thread tid, marked as the stop's. 0 or -errno. */
static long send(int tid)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	si.si_signo = stop_sig;
	si.si_code = SI_QUEUE;
	si.si_pid = (pid_t)pid;
	si.si_uid = (uid_t)tt_syscall3(SYS_getuid, 0, 0, 0);
	si.si_value.sival_ptr = (void *)&cookie;
	return tt_syscall6(SYS_rt_tgsigqueueinfo, pid, tid, stop_sig, (long)&si, 0, 0);
}

static void lock(void)
{
	while (__atomic_exchange_n(&sig_lock, 1, __ATOMIC_ACQUIRE))
		tt_syscall3(SYS_sched_yield, 0, 0, 0);
}

static void unlock(void)
{
	__atomic_store_n(&sig_lock, 0, __ATOMIC_RELEASE);
}

/* A real-time signal nobody handles, from the highest down (programs pick SIGRTMIN+n);
 * installed for the stop. Called with the lock held. */
static int choose_signal(void)
{
	int (*real_sigaction)(int, const struct sigaction *,
			      struct sigaction *) = tt_real_find("sigaction");
	struct sigaction sa, old;
	int s;

	if (!real_sigaction)
		return 0;
	for (s = SIGRTMAX; s >= SIGRTMIN; s--) {
		if (real_sigaction(s, NULL, &old) != 0 || (old.sa_flags & SA_SIGINFO) ||
		    old.sa_handler != SIG_DFL)
			continue;
		memset(&sa, 0, sizeof(sa));
		sa.sa_sigaction = on_stop;
		sa.sa_flags = SA_SIGINFO | SA_RESTART;
		sigfillset(&sa.sa_mask); /* no handler of the program runs while parked */
		if (real_sigaction(s, &sa, NULL) == 0)
			return s;
	}
	return 0;
}

static long read_file(const char *path, char *buf, size_t size)
{
	long fd = tt_sys_openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0), n;

	if (fd < 0)
		return fd;
	n = tt_sys_read((int)fd, buf, size - 1);
	tt_sys_close((int)fd);
	buf[n > 0 ? n : 0] = 0;
	return n;
}

static void task_path(char *buf, size_t size, int tid, const char *file)
{
	snprintf(buf, size, "/proc/self/task/%d/%s", tid, file);
}

/* Field `field` (0-based) of the thread's schedstat ("run-ns wait-ns times-scheduled-in"). */
static bool schedstat_of(int tid, int field, unsigned long *out)
{
	char path[64], buf[128], *p = buf;
	int at = 0;

	task_path(path, sizeof(path), tid, "schedstat");
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return false;
	for (; *p && at < field; p++)
		at += *p == ' ';
	if (at != field || *p < '0' || *p > '9')
		return false;
	for (*out = 0; *p >= '0' && *p <= '9'; p++)
		*out = *out * 10 + (unsigned long)(*p - '0');
	return true;
}

/* Times the thread was scheduled in; false if unknown. */
static bool pcount_of(int tid, unsigned long *out)
{
	return schedstat_of(tid, 2, out);
}

static bool blocks(int tid, int sig);
static char state_of(int tid);
static bool park_sleepers; /* this stop signals sleepers too (tt_stop_world) */

/* A system call a thread sleeps in, from /proc. */
struct sleep {
	long nr;
	unsigned long a[6];
	uintptr_t pc; /* after its `syscall` instruction */
};

/* The hexadecimal number after "0x" at *p; *p moves past it. */
static unsigned long hex_at(const char **p)
{
	unsigned long v = 0;
	const char *c = *p;

	if (c[0] == '0' && c[1] == 'x')
		c += 2;
	for (;; c++) {
		int d = *c >= '0' && *c <= '9'	 ? *c - '0'
			: *c >= 'a' && *c <= 'f' ? *c - 'a' + 10
						 : -1;
		if (d < 0)
			break;
		v = v << 4 | (unsigned long)d;
	}
	*p = c;
	return v;
}

/* True, with the call, when the thread is blocked inside a system call (/proc syscall file:
 * "nr 0xarg1 ... 0xarg6 0xsp 0xpc"; "-1 0xsp 0xpc" outside one, "running" when it runs). */
static bool asleep_in_syscall(int tid, struct sleep *s)
{
	char path[64], buf[256];
	const char *p = buf;
	int k;

	task_path(path, sizeof(path), tid, "syscall");
	if (read_file(path, buf, sizeof(buf)) <= 0 || buf[0] < '0' || buf[0] > '9')
		return false;
	for (s->nr = 0; *p >= '0' && *p <= '9'; p++)
		s->nr = s->nr * 10 + (*p - '0');
	for (k = 0; k < 8; k++) {
		unsigned long v;

		if (p[0] != ' ' || p[1] != '0' || p[2] != 'x')
			return false;
		p++;
		v = hex_at(&p);
		if (k < 6)
			s->a[k] = v;
		else if (k == 7)
			s->pc = v;
	}
	return true;
}

/* Asleep in s at the stop: signalled when its call resumes unchanged and the signal can
 * reach it now (an interruptible sleep, S: not one in D, which could outlast the stop's
 * bound); else left asleep, watched. */
static void sleeper(struct tt_stop_thread *t, const struct sleep *s, unsigned long pcount)
{
	t->pc = s->pc;
	t->pcount = pcount;
	t->sys_nr = -1;
	if (park_sleepers && state_of(t->tid) == 'S' && !blocks(t->tid, stop_sig) &&
	    tt_sleep_resumable(s->nr, s->a)) {
		t->sys_nr = s->nr;
		memcpy(t->sys_args, s->a, sizeof(t->sys_args));
		t->sys_pc = s->pc;
		__atomic_store_n(&t->state, TT_STOP_SIGNALLED, __ATOMIC_RELEASE);
	} else {
		__atomic_store_n(&t->state, TT_STOP_ASLEEP, __ATOMIC_RELEASE);
	}
}

/* The thread's state letter (its stat, after the last ')'), or 0 when it cannot be read. */
static char state_of(int tid)
{
	char path[64], buf[512], *p, *end = NULL;

	task_path(path, sizeof(path), tid, "stat");
	if (read_file(path, buf, sizeof(buf)) <= 0)
		return 0;
	for (p = buf; *p; p++)
		if (*p == ')')
			end = p;
	return end && end[1] == ' ' ? end[2] : '?';
}

/* True when the thread has exited but is still listed: a main thread that called pthread_exit
 * stays a zombie while the others run (state Z or X). */
static bool dead(int tid)
{
	char st = state_of(tid);

	return !st || st == 'Z' || st == 'X';
}

/* True when the thread blocks sig (SigBlk in its status). */
static bool blocks(int tid, int sig)
{
	char path[64], buf[2048], *p;
	unsigned long long mask = 0;

	task_path(path, sizeof(path), tid, "status");
	if (read_file(path, buf, sizeof(buf)) <= 0 || !(p = strstr(buf, "SigBlk:")))
		return false;
	for (p += 7; *p == '\t' || *p == ' '; p++)
		;
	for (;; p++) {
		int d = *p >= '0' && *p <= '9'	 ? *p - '0'
			: *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
						 : -1;
		if (d < 0)
			break;
		mask = mask << 4 | (unsigned)d;
	}
	return (mask >> (sig - 1)) & 1;
}

static struct tt_stop_thread *find(int tid)
{
	size_t i;

	for (i = 0; i < count; i++)
		if (table[i].tid == tid)
			return &table[i];
	return NULL;
}

/* Room for one more entry; the old table stays mapped (a late handler may still read it). */
static bool grow(void)
{
	struct tt_stop_thread *t;
	size_t n = cap ? cap * 2 : 256;

	if (count < cap)
		return true;
	t = tt_sys_mmap(NULL, n * sizeof(*t), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
			-1, 0);
	if (!t)
		return false;
	if (count)
		memcpy(t, table, count * sizeof(*t));
	__atomic_store_n(&table, t, __ATOMIC_RELEASE);
	cap = n;
	return true;
}

/* Signal the thread, or leave it asleep in its system call. 0, or -1 (no memory). */
static int add(int tid)
{
	struct tt_stop_thread *t;
	unsigned long pc0 = 0;
	struct sleep s;
	bool known, asleep = false;

	if (!grow())
		return -1;
	t = &table[count];
	*t = (struct tt_stop_thread){ .tid = tid, .state = TT_STOP_SIGNALLED, .sys_nr = -1 };
	/* The count first: scheduled in after it, the thread shows as woken. */
	known = pcount_of(tid, &pc0);
	if (dead(tid)) {
		t->state = TT_STOP_GONE;
	} else if (known && asleep_in_syscall(tid, &s)) {
		sleeper(t, &s, pc0);
		asleep = true;
	}
	/* Never sent to a thread that blocks it: it would stay pending, for the program's
	 * sigwait to take. */
	if (!asleep && t->state == TT_STOP_SIGNALLED && blocks(tid, stop_sig))
		t->state = TT_STOP_HELD;
	__atomic_store_n(&count, count + 1, __ATOMIC_RELEASE);
	if (t->state == TT_STOP_SIGNALLED && send(tid) == -3 /* ESRCH */)
		t->state = TT_STOP_GONE;
	return 0;
}

/* A /proc/self/task entry's thread id, or -1 ("." and ".."). */
static int tid_of(const char *name)
{
	int tid = 0;

	if (!*name)
		return -1;
	for (; *name >= '0' && *name <= '9'; name++)
		tid = tid * 10 + (*name - '0');
	return *name ? -1 : tid;
}

/* Add every thread not in the table yet; how many were added, or -1. */
static long enumerate(int self)
{
	char buf[4096];
	long fd = tt_sys_openat(AT_FDCWD, "/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	long n, off, added = 0;

	if (fd < 0)
		return -1;
	while ((n = tt_syscall3(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (off = 0; off < n;) {
			const char *name = buf + off +
					   19; /* d_ino 8, d_off 8, d_reclen 2, d_type 1 */
			unsigned short reclen;
			int tid = tid_of(name);

			memcpy(&reclen, buf + off + 16, 2);
			off += reclen;
			if (tid <= 0 || tid == self || find(tid))
				continue;
			if (add(tid) < 0) {
				added = -1;
				break;
			}
			added++;
		}
		if (added < 0)
			break;
	}
	tt_sys_close((int)fd);
	return n < 0 ? -1 : added;
}

/* A thread asleep at the stop that has been scheduled in since. */
static struct tt_stop_thread *woken(void)
{
	unsigned long pc;
	size_t i;

	for (i = 0; i < count; i++)
		if (table[i].state == TT_STOP_ASLEEP &&
		    (!pcount_of(table[i].tid, &pc) || pc != table[i].pcount))
			return &table[i];
	return NULL;
}

static void resignal(struct tt_stop_thread *t);

/* Wait until every signalled thread is parked (or gone), and every held one unblocked the
 * signal and parked. 0, or -1 with why. */
static int wait_parked(long deadline, char *why, size_t why_size)
{
	struct timespec slice = { 0, WAIT_SLICE_NS };
	size_t i, expect;
	uint32_t now;
	int seen = -1, looks = 0;
	unsigned long ran = 0;

	for (;;) {
		int blocked = -1;
		unsigned long run = 0;

		/* Read before the states: a thread that parks after this look changes the word,
		 * so the wait below returns at once instead of sleeping the whole slice. */
		now = __atomic_load_n(&parked, __ATOMIC_ACQUIRE);
		for (i = 0, expect = 0; i < count; i++) {
			struct tt_stop_thread *t = &table[i];
			int state = __atomic_load_n(&t->state, __ATOMIC_ACQUIRE);

			if (state != TT_STOP_SIGNALLED && state != TT_STOP_HELD)
				continue;
			if (tt_syscall3(SYS_tgkill, pid, t->tid, 0) == -3 /* ESRCH */ ||
			    dead(t->tid)) {
				t->state = TT_STOP_GONE;
				continue;
			}
			if (state == TT_STOP_HELD && !blocks(t->tid, stop_sig)) {
				resignal(t); /* unblocked it (or asleep now) */
				if (t->state != TT_STOP_SIGNALLED)
					continue;
			}
			expect++;
			if (blocked < 0 && blocks(t->tid, stop_sig))
				blocked = t->tid;
		}
		if (!expect)
			return 0;
		/* Blocking it while it runs, look after look: not a thread still being created
		 * (glibc blocks every signal until it starts) that has not had a CPU yet. */
		if (blocked >= 0 && schedstat_of(blocked, 0, &run) &&
		    (seen != blocked || run != ran)) {
			looks = seen == blocked ? looks + 1 : 1;
			seen = blocked;
			ran = run;
			if (looks >= BLOCKED_LOOKS) {
				snprintf(
					why, why_size,
					"thread %d blocks signal %d, which would stop it while the "
					"entry is written",
					blocked, stop_sig);
				return -1;
			}
		}
		if (now_ns() > deadline) {
			for (i = 0; i < count && table[i].state != TT_STOP_SIGNALLED &&
				    table[i].state != TT_STOP_HELD;
			     i++)
				;
			snprintf(why, why_size, "thread %d did not stop within %ld ms",
				 i < count ? table[i].tid : 0, STOP_BOUND_NS / 1000000);
			return -1;
		}
		futex(&parked, FUTEX_WAIT_PRIVATE, now, &slice);
	}
}

/* Signal a sleeper that woke up, as if it were new (or leave it asleep again). */
static void resignal(struct tt_stop_thread *t)
{
	unsigned long pc0 = 0;
	struct sleep s;

	if (pcount_of(t->tid, &pc0) && asleep_in_syscall(t->tid, &s)) {
		sleeper(t, &s, pc0);
		if (t->state == TT_STOP_SIGNALLED && send(t->tid) == -3)
			t->state = TT_STOP_GONE;
		return;
	}
	t->sys_nr = -1;
	__atomic_store_n(&t->state, TT_STOP_SIGNALLED, __ATOMIC_RELEASE);
	if (send(t->tid) == -3)
		t->state = TT_STOP_GONE;
}

/* Sleepers scheduled in since the stop began are stopped too, until none was. */
static int settle(long deadline, char *why, size_t why_size)
{
	struct tt_stop_thread *w;

	while ((w = woken()) != NULL) {
		resignal(w);
		if (wait_parked(deadline, why, why_size) < 0)
			return -1;
		if (now_ns() > deadline) {
			snprintf(why, why_size, "thread %d kept waking up for %ld ms", w->tid,
				 STOP_BOUND_NS / 1000000);
			return -1;
		}
	}
	return 0;
}

static uint64_t saved_mask;
static bool stopping; /* the generation was made odd: release makes it even */
static bool blind;    /* no /proc: the threads cannot be listed, so none is stopped */

/* True when /proc/self/task lists no thread but self (or cannot be read: blind). */
static bool alone(int self)
{
	char buf[1024];
	struct stat st;
	long fd, n, off;
	bool only = true;

	/* The kernel gives the directory 2 + the number of threads as its link count: 3 is this
	 * thread alone, told by one stat instead of an open, two reads and a close. */
	if (tt_sys_fstatat(AT_FDCWD, "/proc/self/task", &st, 0) == 0 && st.st_nlink == 3) {
		blind = false;
		return true;
	}
	fd = tt_sys_openat(AT_FDCWD, "/proc/self/task", O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	blind = fd < 0;
	if (fd < 0)
		return true;
	while (only && (n = tt_syscall3(SYS_getdents64, fd, buf, sizeof(buf))) > 0)
		for (off = 0; only && off < n;) {
			const char *name = buf + off + 19;
			unsigned short reclen;

			memcpy(&reclen, buf + off + 16, 2);
			off += reclen;
			only = name[0] == '.' || tid_of(name) == self;
		}
	tt_sys_close((int)fd);
	return only;
}

/* Time the other threads were held so far (tt_stop_held_ns), and the current stop's start. */
static uint64_t held_ns;
static long held_from;

uint64_t tt_stop_held_ns(void)
{
	return __atomic_load_n(&held_ns, __ATOMIC_RELAXED);
}

int tt_stop_world(bool sleepers, char *why, size_t why_size)
{
	uint64_t all = SHIM_MASK;
	long deadline, added;
	int self = (int)tt_sys_gettid();

	tt_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&all, (long)&saved_mask, 8, 0, 0);
	lock();
	count = 0;
	stopping = false;
	park_sleepers = sleepers;
	pid = tt_sys_getpid();
	if (alone(self))
		return 0; /* no other thread: none can appear, nothing to stop */
	if (!stop_sig) {
		stop_sig = choose_signal();
		if (!stop_sig) {
			unlock();
			tt_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&saved_mask, 0, 8, 0, 0);
			snprintf(why, why_size,
				 "no real-time signal is free to stop the other threads with");
			return -1;
		}
	}
	held_from = now_ns();
	stopping = true;
	__atomic_add_fetch(&gen, 1, __ATOMIC_SEQ_CST); /* odd: stopping */
	__atomic_store_n(&parked, 0, __ATOMIC_RELEASE);
	deadline = now_ns() + STOP_BOUND_NS;
	/* Until a pass finds no new thread: a thread running now may have created one before
	 * it parked. */
	do {
		added = enumerate(self);
		if (added < 0) {
			snprintf(why, why_size, "the threads of the process could not be listed");
			goto fail;
		}
		if (wait_parked(deadline, why, why_size) < 0 || settle(deadline, why, why_size) < 0)
			goto fail;
	} while (added > 0);
	return 0;
fail:
	tt_stop_release();
	return -1;
}

int tt_stop_blocker(int sig)
{
	uint64_t bit = 1ull << (sig - 1);
	size_t i;

	if (saved_mask & bit)
		return (int)tt_sys_gettid();
	for (i = 0; i < count; i++) {
		const struct tt_stop_thread *t = &table[i];
		const ucontext_t *uc = t->uc;

		if (t->state == TT_STOP_PARKED && uc && (uc->uc_sigmask.__val[0] & bit))
			return t->tid;
		if (t->state == TT_STOP_ASLEEP && blocks(t->tid, sig))
			return t->tid;
	}
	return 0;
}

int tt_stop_settle(char *why, size_t why_size)
{
	/* No thread stopped (the usual start-up): none to look at, and no clock to read. */
	if (!count)
		return 0;
	return settle(now_ns() + STOP_BOUND_NS, why, why_size);
}

bool tt_stop_blind(void)
{
	return blind;
}

size_t tt_stop_threads(struct tt_stop_thread **out)
{
	*out = table;
	return count;
}

void tt_stop_move(struct tt_stop_thread *t, uintptr_t pc)
{
	ucontext_t *uc = t->uc;

	if (t->state != TT_STOP_PARKED || !uc)
		return;
	uc->uc_mcontext.gregs[REG_RIP] = (greg_t)pc;
	t->pc = pc;
}

void tt_stop_release(void)
{
	struct timespec slice = { 0, WAIT_SLICE_NS };
	long deadline;
	uint32_t in;

	if (stopping) {
		deadline = now_ns() + STOP_BOUND_NS;
		__atomic_add_fetch(&gen, 1, __ATOMIC_SEQ_CST); /* even: go */
		futex(&gen, FUTEX_WAKE_PRIVATE, 0x7fffffff, NULL);
		/* Held until woken: the wait below is for the table, not a hold (each is free to
		 * run, as soon as the scheduler gives it a core). */
		__atomic_add_fetch(&held_ns, (uint64_t)(now_ns() - held_from), __ATOMIC_RELAXED);
		/* The next stop reuses the table: every parked thread out of the handler first. */
		while ((in = __atomic_load_n(&inside, __ATOMIC_ACQUIRE)) != 0 &&
		       now_ns() < deadline)
			futex(&inside, FUTEX_WAIT_PRIVATE, in, &slice);
	}
	stopping = false;
	count = 0;
	unlock();
	tt_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&saved_mask, 0, 8, 0, 0);
}

void tt_stop_after_fork_child(void)
{
	/* A thread asleep in fork while another stopped the world: none of it is the child's. */
	if (__atomic_load_n(&gen, __ATOMIC_RELAXED) & 1)
		__atomic_add_fetch(&gen, 1, __ATOMIC_RELAXED);
	stopping = false;
	count = 0;
	parked = inside = 0;
	sig_lock = 0;
}

void tt_stop_prepare(void)
{
	uint64_t all = SHIM_MASK, old;

	tt_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&all, (long)&old, 8, 0, 0);
	lock();
	pid = tt_sys_getpid();
	if (!stop_sig)
		stop_sig = choose_signal();
	unlock();
	tt_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&old, 0, 8, 0, 0);
}

int tt_stop_signal(void)
{
	return __atomic_load_n(&stop_sig, __ATOMIC_RELAXED);
}

void tt_stop_program_handler(const void *ucv)
{
	const ucontext_t *uc = ucv;
	uint64_t pending = 0;
	int sig = __atomic_load_n(&stop_sig, __ATOMIC_RELAXED);

	/* Only while a stop is under way, and for an EINTR: nothing costs more otherwise. */
	if (!uc || !sig || !(__atomic_load_n(&gen, __ATOMIC_ACQUIRE) & 1) ||
	    uc->uc_mcontext.gregs[REG_RAX] != -4 /* EINTR */)
		return;
	if (tt_syscall3(SYS_rt_sigpending, &pending, 8, 0) == 0 && (pending >> (sig - 1) & 1))
		program_eintr = (uintptr_t)uc->uc_mcontext.gregs[REG_RIP];
}

bool tt_stop_is_handler(const void *h)
{
	return h == (const void *)on_stop;
}

void tt_stop_program_takes(int sig)
{
	uint64_t all = SHIM_MASK, old;

	/* Not interrupted while holding the lock by a handler that would want it too. */
	tt_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&all, (long)&old, 8, 0, 0);
	lock();
	if (sig == stop_sig)
		stop_sig = 0; /* the program's now; the next stop takes another */
	unlock();
	tt_syscall6(SYS_rt_sigprocmask, SIG_SETMASK, (long)&old, 0, 8, 0, 0);
}
