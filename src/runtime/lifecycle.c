/*
 * lifecycle.c - start-up, the report at exit, and fork.
 *
 * Start-up order (the constructor, or the first dl* wrapper called before it): stay off in
 * a secure-execution process; take a private duplicate of stderr (channel.c); read TSC_*;
 * stay off without TSC_FUNCS; check the TSC; choose
 * the trampoline variant; resolve the names; load the decoder if an inline hook is to be
 * made; patch, after which calls are traced. The overhead is measured later, before the
 * first report that needs it (tt_lifecycle_calibrate). The report is written once, from our destructor,
 * which _dl_fini runs at exit() from any thread and at return from main, after the
 * program's own atexit handlers and the destructors of the libraries loaded after us.
 */
#include <errno.h>
#include <stdio.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "base/altstack.h"
#include "base/basename.h"
#include "base/sys.h"
#include "config/variant.h"
#include "elf/elfdyn.h"
#include "elf/goprog.h"
#include "hook/exit_detour.h"
#include "hook/funcs.h"
#include "hook/go_runtime.h"
#include "hook/got.h"
#include "hook/inline.h"
#include "hook/resolve.h"
#include "hook/stop.h"
#include "hook/plan_cache.h"
#include "hook/xref_cache.h"
#include "hot/callers.h"
#include "hot/emul_step.h"
#include "hot/func_table.h"
#include "hot/pin.h"
#include "hot/thread.h"
#include "hot/traced_call.h"
#include "hot/tramp_layout.h"
#include "hot/unwind_stack.h"
#include "log/cache_refusal.h"
#include "log/channel.h"
#include "log/log.h"
#include "log/phase.h"
#include "runtime/calib_cache.h"
#include "runtime/by_arg_report.h"
#include "runtime/callers_deep.h"
#include "runtime/clock.h"
#include "runtime/cpu_cache.h"
#include "runtime/dllock.h"
#include "runtime/export.h"
#include "runtime/follow.h"
#include "runtime/lifecycle.h"
#include "runtime/overhead.h"
#include "runtime/sample_setup.h"
#include "runtime/slow_report.h"
#include "runtime/report_build.h"
#include "runtime/report_out.h"
#include "runtime/run_dir.h"
#include "runtime/signals.h"
#include "runtime/threads.h"
#include "tsctrace.h"

/* At the first report that has samples: ~0.2 ms at ~180 ticks a loop turn, paid only by a
 * process whose traced functions were called. As many as at start-up before, so that the
 * median sees the machine's modes (a loaded sibling core) as it did: fewer calls in a
 * quick burst saw only the lower one, and the accuracy bounds use the spread. */
#define CALIBRATION_CALLS 3000

/* A check of the figures an earlier run kept (calib_cache.h): enough calls for a steady
 * least reading, a tenth of the burst's cost. */
#define CHECK_CALLS 256

/* How long a thread leaving through _exit waits for another thread's report at exit: far
 * longer than any report takes (milliseconds), short enough that a writer stuck on a hung
 * file system does not keep the process alive for ever. */
#define REPORT_WAIT_NS (30 * 1000000000ull)

enum state { TT_UNINIT, TT_STARTING, TT_OFF, TT_ON, TT_REPORTING, TT_DONE };

extern char **environ;

static int state = TT_UNINIT;
/* Started by tsctrace attach (tt_lifecycle_attach), not at the program's start-up: nothing
 * is changed that a detach could not give back (no GOT slot, no _exit detour, no handler). */
static bool attach_mode;
static bool attached_before;  /* hooks made by an attach, taken off by its detach */
static int calibration_taken; /* tt_lifecycle_calibrate: 0 not yet, 1 being taken, 2 done */
static long calibration_tid;  /* the thread taking it, while taken is 1 */
/* 8-byte aligned: linked among the small variables start-up touches anyway (Makefile,
 * --sort-section=alignment), not on a page of its own. */
static struct tt_run run __attribute__((aligned(8)));
static int busy;		   /* a report or an export is being written (report()) */
static long reporter_tid;	   /* the thread that set TT_REPORTING, 0 before it stored it */
static const char *cache_dir = ""; /* calib_cache.h: "" when none (TSC_CACHE=0, no HOME) */
/* cpu_cache.h, read at the first need. 8-byte aligned like `run`: among the small variables,
 * whose page start-up touched, not across two pages of its own (two faults at exit). */
static struct tt_cpu_kept cpu_kept __attribute__((aligned(8)));
static bool cpu_kept_read;

/* One report or export at a time: the dump thread, the export thread, tsctrace_dump, exit
 * and a fatal signal may all want to at once, and the report's scratch memory is shared. */
static void busy_lock(void)
{
	while (__atomic_exchange_n(&busy, 1, __ATOMIC_ACQUIRE))
		sched_yield();
}

static void busy_unlock(void)
{
	__atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
}

/* True while calls are being traced. */
static bool tt_active(void)
{
	int s = __atomic_load_n(&state, __ATOMIC_ACQUIRE);

	return s == TT_ON || s == TT_REPORTING || s == TT_DONE;
}

bool tt_lifecycle_reads_tsc(void)
{
	return tt_active() && run.clock.variant != TT_VAR_MONO;
}

static void diag(void *ctx, const char *line)
{
	(void)ctx;
	tt_warn("%s", line);
}

/* The arguments the constructor was given (glibc passes them), or NULL: start-up came first
 * through a dl* wrapper. */
static int ctor_argc;
static char **ctor_argv;

/*
 * The process's identity, copied at start-up into one buffer: the calibration's cache
 * directory, the executable's path, the start-up directory, $TMPDIR, then argv's strings and
 * its vector. In a short process all of
 * it lies in the first page: one page fault where an array for each took one apiece.
 */
#define ARGV_BYTES 65536
#define ARGV_MAX 1024
static char identity[4 * PATH_MAX + ARGV_BYTES + 8 + ARGV_MAX * sizeof(char *)]
	__attribute__((aligned(32))); /* among the large arrays, not the small variables */
static size_t identity_len;

/* The len bytes now at the buffer's end, and a NUL, kept there; "" when len >= PATH_MAX. */
static const char *identity_keep(size_t len)
{
	char *p = identity + identity_len;

	if (len >= PATH_MAX)
		len = 0;
	p[len] = 0;
	identity_len += len + 1;
	return p;
}

/* argv as it was at start-up: the program may rewrite its own (setproctitle) before the
 * report. Copied from the constructor's arguments, else read from /proc/self/cmdline; its
 * vector after the strings. */
static void read_argv(void)
{
	char *buf = identity + identity_len, **vec;
	size_t n = 0, i, argc = 0, len;
	ssize_t r;
	int fd, k;

	if (ctor_argv) {
		for (k = 0; k < ctor_argc && ctor_argv[k] && argc < ARGV_MAX - 1; k++, argc++) {
			len = strlen(ctor_argv[k]) + 1;
			if (n + len > ARGV_BYTES)
				break;
			memcpy(buf + n, ctor_argv[k], len);
			n += len;
		}
	} else {
		fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
		if (fd >= 0) {
			while (n < ARGV_BYTES - 1 &&
			       (r = read(fd, buf + n, ARGV_BYTES - 1 - n)) > 0)
				n += (size_t)r;
			close(fd);
		}
		buf[n] = 0;
		for (i = 0; i < n && argc < ARGV_MAX - 1; i += strlen(buf + i) + 1)
			argc++;
	}
	vec = (char **)(void *)(identity + ((identity_len + n + 1 + 7) & ~(size_t)7));
	for (i = 0, k = 0; k < (int)argc; i += strlen(buf + i) + 1)
		vec[k++] = buf + i;
	vec[argc] = NULL;
	run.argv = vec;
	run.argc = argc;
}

/* calib_cache.h's directory, first in the identity buffer; false when there is none. */
static bool find_cache_dir(void)
{
	char *at = identity + identity_len;
	bool found = tt_calib_cache_dir(&run.cfg, at, PATH_MAX);

	cache_dir = identity_keep(found ? strlen(at) : 0);
	tt_cache_refusal_say();
	return found;
}

/* The name the user ran: argv[0]'s base name (a symlink's, not its target's: redis-server,
 * not redis-check-rdb), without a login shell's leading '-'; /proc/self/comm when argv[0] is
 * empty. */
static const char *program_name(const char *arg0)
{
	static char comm[17];
	const char *base = tt_base_name(arg0);

	if (base[0] == '-' && base[1])
		base++;
	if (base[0])
		return base;
	if (tt_syscall6(SYS_prctl, PR_GET_NAME, (long)comm, 0, 0, 0, 0) != 0) /* not our wrapper */
		comm[0] = '\0';
	return comm;
}

static void identify_process(void)
{
	const char *tmpdir = getenv("TMPDIR");
	ssize_t n;

	n = readlink("/proc/self/exe", identity + identity_len, PATH_MAX - 1);
	run.exe = identity_keep(n > 0 ? (size_t)n : 0);
	run.cwd = identity_keep(
		getcwd(identity + identity_len, PATH_MAX) ? strlen(identity + identity_len) : 0);
	run.pid = getpid();
	/* The report's last resort; the program may change TMPDIR, the user's is wanted. */
	n = tmpdir && tmpdir[0] == '/' ? (ssize_t)strlen(tmpdir) : 0;
	if (n > 0 && n < PATH_MAX)
		memcpy(identity + identity_len, tmpdir, (size_t)n);
	run.tmpdir = identity_keep((size_t)n);
	read_argv();
	run.name = program_name(run.argc ? run.argv[0] : "");
}

/* The forking thread's in_shim before fork_prepare: the locks below are held across the
 * fork, so a fatal signal's report must wait until they are let go (tt_shim_leave). */
static __thread uint8_t fork_was;

/* Whether some traced call has ended in this process: then a report has samples (or a
 * first call) the overhead is subtracted from. */
static bool some_call_ended(void)
{
	uint32_t i, n = tt_funcs_count();

	for (i = 1; i < n; i++)
		if (__atomic_load_n(&tt_func_words(i)->first, __ATOMIC_RELAXED))
			return true;
	return false;
}

/* In lock order (dllock.h): no dl* bookkeeping is half done in the child. A report or an
 * export in another thread is let finish first: the child would wait for it for ever.
 * The overhead is measured first, once, where a traced call has ended: every child then
 * inherits it instead of each measuring it again for its own report (a shell's subshells:
 * ~30 us and 8 page faults each); the parent would measure it at its own report anyway. */
static void fork_prepare(void)
{
	if (some_call_ended())
		tt_lifecycle_calibrate(false);
	fork_was = tt_shim_enter();
	busy_lock();
	tt_dl_fork_prepare();
	tt_funcs_lock();
	tt_thread_lock();
}

static void fork_parent(void)
{
	tt_thread_unlock();
	tt_funcs_unlock();
	tt_dl_fork_parent();
	busy_unlock();
	tt_shim_leave(fork_was);
}

static void fork_child(void)
{
	/* A raw clone child sharing the forking thread's block did not come along. */
	__atomic_store_n(&tt_tls.shared_children, 0, __ATOMIC_RELAXED);
	if (fork_was == TT_IN_SHARED)
		fork_was = 0;
	tt_thread_unlock();
	tt_funcs_unlock();
	tt_dl_fork_child();
	tt_thread_after_fork_child();
	tt_pin_after_fork_child();
	tt_signals_after_fork_child();
	tt_stop_after_fork_child();
	/* Another thread was writing the report at exit: it does not exist here, and nothing
	 * may wait for it (wait_exit_report). The child writes none, as before. */
	if (__atomic_load_n(&state, __ATOMIC_RELAXED) == TT_REPORTING)
		__atomic_store_n(&state, TT_DONE, __ATOMIC_RELAXED);
	/* Another thread was calibrating: it does not exist here. */
	if (__atomic_load_n(&calibration_taken, __ATOMIC_RELAXED) == 1)
		calibration_taken = 0;
	run.pid = getpid();
	run.clock.start_real_ns = tt_clock_ns(CLOCK_REALTIME);
	run.clock.start_wall_ns = tt_clock_ns(CLOCK_MONOTONIC);
	busy_unlock();
	if (tt_follow_reports_here())
		tt_export_after_fork_child(&run);
	tt_shim_leave(fork_was);
}

/* What earlier runs learnt of this CPU (read once: the calibration, then the report). */
static struct tt_cpu_kept *kept_cpu(void)
{
	if (!cpu_kept_read) {
		tt_cpu_cache_load(cache_dir, &cpu_kept);
		cpu_kept_read = true;
		tt_cache_refusal_say();
	}
	return &cpu_kept;
}

/* Keep what this run asked or measured that the file did not say. */
static void keep_cpu(void)
{
	struct tt_cpu_kept *k = &cpu_kept;

	if (cpu_kept_read && k->changed && (k->loaded || k->max_basic)) {
		tt_cpu_cache_store(cache_dir, k);
		k->changed = false;
		tt_cache_refusal_say();
	}
}

/*
 * Figures kept by an earlier run agree with a check burst when its least reading is not below
 * theirs (subtracting theirs would then take more than a call costs now) and not above it by
 * more than the bound an empty function's reading is held to (2 steps of the TSC and 4
 * ticks): the short burst's least is often a little above the long one's, but beyond that the
 * machine is slower now than then, and it is measured again. The file is only numbers, but
 * numbers anyone able to write it chose (docs/security.md): every figure is held to what this
 * run measured, so that a kept one moves the report by no more than that bound. Their step
 * divides the check's gcd (a multiple of the true step); their median lies between their
 * least and the check's median (plus the bound); what a nested call adds is not above twice
 * that median.
 */
static bool kept_agrees(const struct tt_overhead *kept, uint64_t min, uint64_t median, uint64_t gcd)
{
	uint64_t g = kept->granularity, slack;

	if (!g || g > gcd || gcd % g)
		return false;
	slack = 2 * g + 4;
	return min >= kept->min && min <= kept->min + slack && kept->median >= kept->min &&
	       kept->median <= median + slack && kept->nested <= 2 * (median + slack);
}

/* The overhead burst, or an earlier run's figures when a short burst agrees with them; what
 * is measured is kept for the next run. 0, or -1 when no reading was taken. */
static int measure_overhead(unsigned int calls, unsigned int check_calls)
{
	void *entry = tt_inline_calibration_entry(), *target = tt_inline_calibration_target();
	struct tt_calib_key key;
	struct tt_overhead kept;
	uint64_t min, median, gcd;
	int err;

	if (cache_dir[0]) {
		tt_clock_describe(&run.clock, kept_cpu()); /* the key names the CPU */
		tt_calib_cache_key(&run.clock, &run.cfg, entry != NULL, &key);
		if (tt_calib_cache_load(cache_dir, &key, &kept)) {
			/* The calls must take the traced path: the guard is left for them alone
			 * (the shim's own calls of traced functions around them stay uncounted). */
			tt_shim_leave(0);
			err = tt_overhead_check(check_calls, entry, target, &min, &median, &gcd);
			tt_shim_enter();
			if (err == 0 && kept_agrees(&kept, min, median, gcd)) {
				kept.subtracted = kept.min;
				kept.source = "cache";
				run.overhead = kept;
				return 0;
			}
		}
	}
	tt_shim_leave(0);
	err = tt_overhead_calibrate(calls, entry, target, &run.overhead);
	tt_shim_enter();
	if (err == 0 && cache_dir[0])
		tt_calib_cache_store(cache_dir, &key, &run.overhead);
	tt_cache_refusal_say();
	return err;
}

/*
 * The overhead and the TSC's granularity, measured once per image, when first needed: before
 * the first report, before a thread forbids itself the TSC (after which it could not), before
 * a fork (every child inherits them), or at the exit of the first thread that timed a call
 * (its rows keep sums only: each reading is floored at the overhead then, rows_floor).
 * Never at start-up: the samples are raw ticks (hot/thread.h) and the overhead is subtracted
 * when a report is made, so nothing needs it before then, and a process that reports
 * nothing pays nothing.
 */
static void calibrate(bool burst)
{
	struct tt_cpu_kept *k;
	int err = -1;

	if (burst) {
		/* A syscall per read (no TSC) costs ~100 times more: fewer calls, as steady a min. */
		if (run.clock.variant == TT_VAR_MONO)
			err = measure_overhead(CALIBRATION_CALLS / 10, CHECK_CALLS / 10);
		else
			err = measure_overhead(CALIBRATION_CALLS, CHECK_CALLS);
		if (err < 0) {
			tt_warn("overhead calibration failed: nothing subtracted");
			run.overhead.source = "none";
		}
	} else {
		run.overhead.source = "none"; /* nothing to subtract it from: not measured */
	}
	k = kept_cpu();
	run.overhead.granularity = tt_clock_granularity(&run.clock,
							err < 0 ? 0 : run.overhead.granularity,
							k->granularity);
	if (run.clock.variant != TT_VAR_MONO && run.overhead.granularity != k->granularity) {
		k->granularity = run.overhead.granularity;
		k->changed = true;
	}
	if (!run.cfg.overhead_auto) {
		run.overhead.subtracted = run.cfg.overhead_ticks;
		run.overhead.source = "TSC_OVERHEAD";
	}
}

static void calibrate_on_altstack(void *burst)
{
	calibrate(*(bool *)burst);
}

void tt_lifecycle_calibrate(bool always)
{
	int *taken = &calibration_taken, expected = 0, saved = errno;
	bool burst = always || some_call_ended();
	uint64_t t;
	uint8_t was;

	if (__atomic_load_n(taken, __ATOMIC_ACQUIRE) == 2 || !tt_active() || getpid() != run.pid)
		return;
	if (!__atomic_compare_exchange_n(taken, &expected, 1, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		/* A signal handler's report interrupting this thread's own burst: waiting would
		 * never end. That report goes without (what the burst has written so far). */
		if (__atomic_load_n(&calibration_tid, __ATOMIC_ACQUIRE) == tt_sys_gettid())
			return;
		while (__atomic_load_n(taken, __ATOMIC_ACQUIRE) == 1)
			sched_yield();
		if (!burst || __atomic_load_n(taken, __ATOMIC_ACQUIRE) == 2)
			return;
		expected = 0; /* the other skipped the burst, which this caller needs */
		if (!__atomic_compare_exchange_n(taken, &expected, 1, false, __ATOMIC_ACQ_REL,
						 __ATOMIC_ACQUIRE))
			return;
	}
	__atomic_store_n(&calibration_tid, tt_sys_gettid(), __ATOMIC_RELEASE);
	was = tt_shim_enter();
	t = tt_phase_mark();
	/* On a stack of its own: it may run at the exit of a thread with a small stack (its
	 * cache file's path and contents alone take ~5 KiB). The kept one, which the report
	 * uses next: a mapping, its guard and its unmapping were ~18 us of every report. */
	tt_altstack_run_kept(calibrate_on_altstack, &burst);
	tt_phase_add(TT_PHASE_CALIBRATE, t);
	tt_shim_leave(was);
	/* From now on each call's self time is recorded less its traced calls' cost. */
	if (burst)
		__atomic_store_n(&tt_self_nested_cost, run.overhead.nested, __ATOMIC_RELEASE);
	/* Without the burst, a later report that has samples (a dump, then exit) takes it. */
	__atomic_store_n(&calibration_tid, 0, __ATOMIC_RELAXED);
	__atomic_store_n(taken, burst ? 2 : 0, __ATOMIC_RELEASE);
	errno = saved;
}

/* threads.c's question at a thread's exit: the overhead its rows are floored at, measured
 * now if it has not been (the report, which subtracts it, would measure it anyway). */
static uint64_t rows_floor(void)
{
	tt_lifecycle_calibrate(false);
	return run.overhead.subtracted;
}

/* TSC_BUDGET's start-up costs: an earlier run's (sample_cache.h) under the key the overhead's
 * figures are kept under, else measured and kept. The files are read and written with the
 * guard up (the shim's own strlen, snprintf...), the costs measured with it down. */
static void sample_start(void)
{
	void *entry = tt_inline_calibration_entry();
	struct tt_calib_key key;
	struct tt_sample_costs costs;
	bool keyed = run.cfg.budget_ppm && cache_dir[0];

	if (keyed) {
		tt_clock_describe(&run.clock, kept_cpu()); /* the key names the CPU */
		tt_calib_cache_key(&run.clock, &run.cfg, entry != NULL, &key);
		if (tt_sample_cache_load(cache_dir, &key, &costs)) {
			tt_sample_costs_use(&costs); /* 0.7 ms of CPU not spent again */
			tt_cache_refusal_say();
			return;
		}
	}
	tt_shim_leave(0); /* the cost of a timed call is measured through the traced path */
	tt_sample_start(&run.cfg, run.clock.variant, entry, tt_inline_calibration_target());
	tt_shim_enter();
	if (keyed) {
		tt_sample_costs_get(&costs);
		tt_sample_cache_store(cache_dir, &key, &costs);
		tt_cache_refusal_say();
	}
}

/* Functions with no slot are only reached through dlsym pointers or not at all. */
static void note_unreachable(void)
{
	uint32_t i, n = tt_funcs_count();

	for (i = 1; i < n; i++) {
		struct tt_func *f = tt_funcs_get(i);

		if (f && !f->slots && f->route == TT_ROUTE_GOT)
			tt_info("%s: no loaded object calls it through its GOT; only calls through "
				"dlsym pointers or from later dlopens are traced",
				f->name);
	}
}

/* Before a report: how many calls passed through on a block a raw clone child shared, once
 * for each new figure (a dump's report and the final one may both say it). */
static void warn_shared_tls(void)
{
	static uint64_t said;
	uint64_t n = __atomic_load_n(&tt_shared_tls_calls, __ATOMIC_RELAXED);

	if (n == said)
		return;
	said = n;
	tt_warn("%llu traced calls passed through untimed, in no function's counts: a "
		"clone(CLONE_VM) child without a TLS of its own shared the calling thread's, and "
		"the two cannot be told apart",
		(unsigned long long)n);
}

/* Before a report: the calls of threads that could map no counters (RLIMIT_AS), once for
 * each new figure. They are in their functions' calls, untimed (hot/thread.h). */
static void warn_tableless(void)
{
	static uint64_t said;
	uint64_t n = __atomic_load_n(&tt_tableless_calls, __ATOMIC_RELAXED);

	if (n == said)
		return;
	said = n;
	tt_warn("%llu traced calls counted, not timed: %llu thread(s) could not map the "
		"shim's counters (address space or memory exhausted, RLIMIT_AS)",
		(unsigned long long)n,
		(unsigned long long)__atomic_load_n(&tt_tableless_threads, __ATOMIC_RELAXED));
}

/*
 * Write the report (and the export, TSC_EXPORT). One at a time (busy_lock): a writer waits
 * for the other to finish (its own thread never holds the lock here: a signal handler
 * interrupting a report sees in_shim set and writes none). A dump (only_while_on) that got
 * the lock after the exit report was taken writes nothing: the process is ending, and a file
 * begun then was left half-made (an empty r.PID.json.tmp.*, sig_runtime_chain under ASan).
 */
static int report_as(bool only_while_on)
{
	int saved = errno, ret;
	uint64_t t;
	uint8_t was;

	if (!tt_follow_reports_here())
		return -1; /* a fork child under TSC_FOLLOW=0 */
	if (__atomic_load_n(&tt_sandboxed, __ATOMIC_ACQUIRE))
		return -1; /* written before the sandbox: no system call of ours now */
	if (tt_run_dir_skip_empty(&run))
		return 0; /* nothing traced: no report, nor its calibration (TSC_EMPTY) */
	tt_lifecycle_calibrate(false);
	was = tt_shim_enter();
	busy_lock();
	if (only_while_on && __atomic_load_n(&state, __ATOMIC_ACQUIRE) != TT_ON) {
		busy_unlock();
		tt_shim_leave(was);
		errno = saved;
		return -1;
	}
	warn_shared_tls();
	warn_tableless();
	t = tt_phase_mark();
	tt_clock_describe(&run.clock, kept_cpu());
	ret = tt_runtime_report_write(&run);
	keep_cpu();
	tt_phase_add(TT_PHASE_REPORT, t);
	tt_phase_print();
	busy_unlock();
	tt_shim_leave(was);
	errno = saved;
	return ret;
}

static int report(void)
{
	return report_as(false);
}

/*
 * The export thread's periodic write: while tracing, never once the exit report began. The
 * overhead is measured first (on this helper thread, once calls have ended), so that the
 * exported sums never drop when a later write subtracts it.
 */
static int export_now(void)
{
	int saved = errno, ret = -1;
	uint8_t was;

	tt_lifecycle_calibrate(false);
	was = tt_shim_enter();
	busy_lock();
	if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) == TT_ON)
		ret = tt_runtime_report_export(&run);
	busy_unlock();
	tt_shim_leave(was);
	errno = saved;
	return ret;
}

void tt_lifecycle_leaving(void)
{
	/* A vfork child (or a raw clone) shares our memory: the parent's counts are not its
	 * own, and writing files from it would disturb the parent. fork() children have run
	 * fork_child, which set run.pid to their own pid. */
	if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) != TT_ON || getpid() != run.pid)
		return;
	report();
}

/* The report at exit: this thread takes it (TT_ON to TT_REPORTING), false when another
 * state was there. */
static bool take_exit_report(void)
{
	int expected = TT_ON;

	if (!__atomic_compare_exchange_n(&state, &expected, TT_REPORTING, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return false;
	__atomic_store_n(&reporter_tid, tt_sys_gettid(), __ATOMIC_RELEASE);
	return true;
}

/* The report at exit is written: threads waiting in wait_exit_report go on. */
static void end_exit_report(void)
{
	__atomic_store_n(&state, TT_DONE, __ATOMIC_RELEASE);
	tt_syscall6(SYS_futex, (long)&state, FUTEX_WAKE_PRIVATE, INT_MAX, 0, 0, 0);
}

/*
 * Another thread is writing the report at exit (glibc 2.36 lets two threads run exit() at
 * once: the one that finds the handlers all taken goes on to _exit while the other is still
 * in the destructors, ours among them). This one is about to end the process: it waits until
 * the report is written, within REPORT_WAIT_NS. Never for itself (a handler of a signal that
 * interrupted its own report).
 */
static void wait_exit_report(void)
{
	struct timespec step = { 0, 100 * 1000000 };
	uint64_t t0 = tt_clock_ns(CLOCK_MONOTONIC);
	long tid = tt_sys_gettid();

	while (__atomic_load_n(&state, __ATOMIC_ACQUIRE) == TT_REPORTING) {
		long who = __atomic_load_n(&reporter_tid, __ATOMIC_ACQUIRE);

		if (who == tid)
			return;
		if (tt_clock_ns(CLOCK_MONOTONIC) - t0 > REPORT_WAIT_NS) {
			tt_warn("thread %ld is still writing the report after %llu s: the process "
				"ends without waiting for it",
				who, REPORT_WAIT_NS / 1000000000ull);
			return;
		}
		tt_syscall6(SYS_futex, (long)&state, FUTEX_WAIT_PRIVATE, TT_REPORTING, (long)&step,
			    0, 0);
	}
}

void tt_lifecycle_exiting(void)
{
	int s = __atomic_load_n(&state, __ATOMIC_ACQUIRE);

	/* The pid before any change: a vfork child must not even change the state it shares.
	 * The state before the pid: after a report written before a sandbox (seccomp), even
	 * getpid may be what the filter kills the program for. */
	if ((s != TT_ON && s != TT_REPORTING) || getpid() != run.pid)
		return;
	if (!take_exit_report()) {
		wait_exit_report();
		return;
	}
	report();
	end_exit_report();
}

void tt_lifecycle_sandboxing(const char *how)
{
	if (getpid() != run.pid || !take_exit_report()) {
		tt_offcpu_refuse_sandboxed(); /* perf_event_open may be what the filter forbids */
		return;
	}
	/* First, so that the report keeps the line among its warnings. */
	tt_warn("%s: the program confines itself with seccomp, which may forbid the system calls "
		"a report needs: the report is written now, and calls from now on are not reported",
		how);
	report();
	tt_offcpu_refuse_sandboxed(); /* after the report: its calls' figures were taken before */
	__atomic_store_n(&tt_sandboxed, true, __ATOMIC_RELEASE);
	end_exit_report();
}

/*
 * libc's _exit detoured (exit_detour.h) when the first inline hook is about to be made:
 * before that hook. A process that makes none (no asked-for function found, TSC_HOOK=got)
 * gets it later, where it is needed (tt_lifecycle_before_libc_exit, _before_thread).
 */
static void exit_detour(void)
{
	if (attach_mode || !tt_inline_enabled() || !tt_inline_pending())
		return;
	tt_exit_detour_install(tt_lifecycle_exiting);
}

/* The detour now, if no earlier attempt was made: under the loader lock (the pool and the
 * decoder, as a dlopen's hooks use them). */
static void late_exit_detour(void)
{
	uint8_t was;

	if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) != TT_ON || tt_exit_detour_tried())
		return;
	was = tt_shim_enter();
	tt_dl_lock();
	tt_exit_detour_late(tt_lifecycle_exiting);
	tt_dl_unlock();
	tt_shim_leave(was);
}

void tt_lifecycle_before_libc_exit(void)
{
	late_exit_detour();
}

void tt_lifecycle_before_thread(void)
{
	late_exit_detour();
}

static enum state start(char *const *env)
{
	uint64_t t;

	if (getauxval(AT_SECURE))
		return TT_OFF;	  /* never write where an unprivileged user pointed us */
	tt_channel_open();	  /* before the first line, and before the program can close fd 2 */
	tt_config_free(&run.cfg); /* an attach after the constructor's start-up found nothing */
	if (tt_config_parse(env, &run.cfg, diag, NULL) < 0)
		tt_warn("out of memory reading TSC_* variables");
	tt_log_set_quiet(run.cfg.quiet);
	if (!run.cfg.nfuncs) {
		tt_channel_release();
		return TT_OFF;
	}
	if (run.cfg.debug_startup)
		tt_phase_enable();
	if (!find_cache_dir() && !run.cfg.cache) {
		tt_xref_cache_disable();
		tt_plan_cache_disable();
	}
	t = tt_phase_mark();
	tt_follow_start(run.cfg.follow);
	tt_clock_probe(&run.clock);
	if (!tt_pin_configure(&run.cfg))
		tt_warn("TSC_PIN lists no CPU this process may run on: threads are not pinned");
	tt_clock_choose(&run.clock, &run.cfg);
	tt_callers_start(run.cfg.callers, run.clock.variant == TT_VAR_MONO,
			 run.cfg.callers_libunwind);
	tt_slow_setup(&run.cfg, &run.clock); /* before any thread maps counters */
	tt_emul_step_install(run.clock.step);
	if (run.cfg.debug_c_exit) {
		tt_exit_force_c();
		tt_warn("TSC_DEBUG=c-exit: every timed call ends in the C exit (for tests)");
	}
	tt_phase_add(TT_PHASE_CLOCK, t);
	t = tt_phase_mark();
	tt_sample_setup(&run.cfg); /* before the hooks: slots count for it (hook/slot_code.h) */
	if (tt_funcs_set_variant(run.clock.variant) < 0) {
		tt_warn("no memory within reach of the shim's code for entry stubs: nothing "
			"traced");
		tt_channel_release();
		return TT_OFF;
	}
	if (tt_thread_init(rows_floor) < 0)
		tt_warn("no pthread key: threads are merged at report time only");
	tt_thread_reserve();
	identify_process();
	tt_phase_add(TT_PHASE_STUBS, t);
	tt_inline_start(run.cfg.hook);
	tt_dl_lock(); /* a dlopen or dlclose in another thread waits for this */
	t = tt_phase_mark();
	tt_resolve_all(&run.cfg);
	tt_by_arg_setup(&run.cfg); /* the functions found, none called through a stub yet */
	/* Go sets its threads' signal stacks by raw system calls, unseen by wrap/altstack.c. */
	tt_altstack_ask_always = tt_go_prog()->is_go;
	tt_phase_add(TT_PHASE_RESOLVE, t);
	t = tt_phase_mark();
	exit_detour();
	tt_phase_add(TT_PHASE_DECODER, t);
	t = tt_phase_mark();
	tt_inline_hook_new();
	tt_exit_detour_settle();
	if (!attach_mode)
		tt_go_exit_hook(tt_lifecycle_exiting); /* Go leaves by runtime.exit alone */
	tt_phase_add(TT_PHASE_INLINE, t);
	t = tt_phase_mark();
	sample_start();
	if (!attach_mode)
		tt_got_patch_all();
	tt_phase_add(TT_PHASE_GOT, t);
	t = tt_phase_mark();
	note_unreachable();   /* reads what another thread's dlopen may change: under the lock */
	tt_dl_set_tracking(); /* from now on each load or unload has its bookkeeping */
	tt_dl_unlock();
	pthread_atfork(fork_prepare, fork_parent, fork_child);
	if (!attach_mode)
		tt_signals_start(run.cfg.dump_signal, report);
	tt_export_start(&run, export_now);
	tt_phase_add(TT_PHASE_OTHER, t);
	return TT_ON;
}

void tt_lifecycle_ensure(void)
{
	int expected = TT_UNINIT;
	uint8_t was;
	int saved;

	if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) != TT_UNINIT ||
	    !__atomic_compare_exchange_n(&state, &expected, TT_STARTING, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return;
	saved = errno;
	was = tt_shim_enter();
	tt_phase_begin();
	__atomic_store_n(&state, start(environ), __ATOMIC_RELEASE);
	tt_phase_constructed();
	tt_shim_leave(was);
	errno = saved;
}

bool tt_lifecycle_dl_begin(void)
{
	int s = __atomic_load_n(&state, __ATOMIC_ACQUIRE);
	uint8_t was;

	/* Off for good: nothing to keep in step with the loader, so no lock either. */
	if (s == TT_OFF)
		return false;
	was = tt_shim_enter(); /* pthread_mutex_lock may be a traced function */
	tt_dl_lock();
	tt_shim_leave(was);
	return true;
}

void tt_lifecycle_dl_end(bool locked)
{
	uint8_t was;

	if (!locked)
		return;
	was = tt_shim_enter();
	tt_dl_unlock();
	tt_shim_leave(was);
}

/* Called with the loader lock held (tt_lifecycle_dl_begin), right after the real call. */
void tt_lifecycle_objects_changed(void)
{
	if (!tt_dl_tracking())
		return;
	/* Attached (a preloaded shim that was off): nothing is hooked but at an attach, and
	 * no GOT slot ever, so that a detach leaves nothing behind. */
	if (attach_mode) {
		tt_funcs_forget_unloaded(tt_elf_object_loaded);
		return;
	}
	tt_funcs_forget_unloaded(tt_elf_object_loaded);
	tt_resolve_pending();
	exit_detour();
	tt_inline_hook_new();
	tt_exit_detour_settle();
	tt_got_patch_all();
}

/* Functions whose entry holds a hook now (inline or trap); the names of the others found,
 * which an attach does not trace, into list ("a, b"; empty when none). */
static int hooked_count(char *list, size_t list_size)
{
	uint32_t i, n = tt_funcs_count();
	int hooked = 0;
	size_t len = 0;

	list[0] = 0;
	for (i = 1; i < n; i++) {
		struct tt_func *f = tt_funcs_get(i);

		if (!f || f->unloaded)
			continue;
		if (f->slot && !f->unhooked &&
		    (f->route == TT_ROUTE_INLINE || f->route == TT_ROUTE_TRAP)) {
			hooked++;
			continue;
		}
		if (len < list_size)
			len += (size_t)snprintf(list + len, list_size - len, "%s%s",
						len ? ", " : "", f->name);
	}
	return hooked;
}

static bool same_spec(const struct tt_func_spec *a, const struct tt_func_spec *b)
{
	return strcmp(a->name, b->name) == 0 && !a->version == !b->version &&
	       (!a->version || strcmp(a->version, b->version) == 0) && !a->object == !b->object &&
	       (!a->object || strcmp(a->object, b->object) == 0);
}

/* A second attach's settings: the same functions as the first (they are hooked again as
 * they were), a report of its own where TSC_OUTPUT and TSC_FORMAT say. 0, or -1 with why. */
static int take_new_output(char *const *env, char *why, size_t why_size)
{
	struct tt_config cfg = { 0 };
	bool same;
	size_t i;
	char *o;

	if (tt_config_parse(env, &cfg, diag, NULL) < 0) {
		snprintf(why, why_size, "out of memory reading the settings");
		return -1;
	}
	same = cfg.nfuncs == run.cfg.nfuncs;
	for (i = 0; same && i < cfg.nfuncs; i++)
		same = same_spec(&cfg.funcs[i], &run.cfg.funcs[i]);
	if (!same) {
		/* Other names: resolved and hooked now, beside the earlier ones (hooked again
		 * too: a function, once in the table, stays). The old list is left allocated:
		 * what resolve.c kept of it may still be read. */
		run.cfg.funcs = cfg.funcs;
		run.cfg.nfuncs = cfg.nfuncs;
		cfg.funcs = NULL;
		cfg.nfuncs = 0;
		tt_resolve_all(&run.cfg);
		tt_inline_hook_new();
	}
	o = run.cfg.output;
	run.cfg.output = cfg.output;
	cfg.output = o;
	run.cfg.format = cfg.format;
	tt_config_free(&cfg);
	return 0;
}

int tt_lifecycle_attach(char *const *env, char *why, size_t why_size)
{
	int expected = TT_OFF, n;
	uint8_t was;

	if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) == TT_ON) {
		snprintf(why, why_size, "%s",
			 attach_mode ? "already attached"
				     : "the process is traced already (libtsctrace.so preloaded)");
		return -1;
	}
	if (!__atomic_compare_exchange_n(&state, &expected, TT_STARTING, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE)) {
		snprintf(why, why_size, "the shim is not idle in this process (state %d)",
			 expected);
		return -1;
	}
	was = tt_shim_enter();
	if (attached_before) {
		/* A later attach: the functions hooked again, the report where it says. Under the
		 * loader lock, as every hook and the pool are (a preloaded shim's dlopen). */
		tt_dl_lock();
		n = take_new_output(env, why, why_size);
		if (n == 0) {
			tt_thread_reset_counts();
			tt_runtime_report_forget();
			run.clock.start_real_ns = tt_clock_ns(CLOCK_REALTIME);
			run.clock.start_wall_ns = tt_clock_ns(CLOCK_MONOTONIC);
			n = tt_inline_rehook_all(why, why_size);
		}
		tt_dl_unlock();
		__atomic_store_n(&state, n < 0 ? TT_OFF : TT_ON, __ATOMIC_RELEASE);
		tt_shim_leave(was);
		return n < 0 ? -1 : hooked_count(why, why_size);
	}
	attach_mode = true;
	run.attached = true;
	tt_phase_begin();
	__atomic_store_n(&state, start(env), __ATOMIC_RELEASE);
	tt_phase_constructed();
	tt_shim_leave(was);
	if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) != TT_ON) {
		snprintf(why, why_size,
			 "the shim did not start (no function named, or see the "
			 "process's stderr)");
		return -1;
	}
	attached_before = true;
	return hooked_count(why, why_size);
}

int tt_lifecycle_detach(char *why, size_t why_size)
{
	int expected = TT_ON, ret, n;
	uint8_t was;

	if (!attach_mode || !__atomic_compare_exchange_n(&state, &expected, TT_REPORTING, false,
							 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		snprintf(why, why_size, "not attached");
		return -1;
	}
	__atomic_store_n(&reporter_tid, tt_sys_gettid(), __ATOMIC_RELEASE);
	/* The report, then the entries: a call in flight at the report is in neither. */
	ret = report();
	was = tt_shim_enter();
	tt_dl_lock();
	n = tt_inline_unhook_all(why, why_size);
	tt_dl_unlock();
	tt_shim_leave(was);
	if (n < 0) { /* hooks stay: the report at exit will count on */
		__atomic_store_n(&state, TT_ON, __ATOMIC_RELEASE);
		return -1;
	}
	/* Off, not done: no report at exit, and the next attach may start again. */
	__atomic_store_n(&state, TT_OFF, __ATOMIC_RELEASE);
	return ret < 0 ? -2 : 0;
}

/* Write the report of what was recorded so far (tsctrace_dump). 0 or -1. */
static int tt_lifecycle_dump(void)
{
	if (__atomic_load_n(&state, __ATOMIC_ACQUIRE) != TT_ON)
		return -1;
	return report_as(true);
}

__attribute__((constructor)) static void tt_constructor(int argc, char **argv)
{
	ctor_argc = argc;
	ctor_argv = argv;
	tt_lifecycle_ensure();
	ctor_argv = NULL; /* the program's memory from now on */
}

__attribute__((destructor)) static void tt_destructor(void)
{
	if (!take_exit_report())
		return;
	report();
	end_exit_report();
}

const char *tsctrace_version(void)
{
	return TT_VERSION;
}

int tsctrace_dump(void)
{
	return tt_lifecycle_dump();
}
