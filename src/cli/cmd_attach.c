/*
 * cmd_attach.c - `tsctrace attach PID`: load the shim into a running process, trace the
 * functions named for a while, then take every hook off again and print the report
 * (docs/attach.md).
 *
 * Attach: every thread is held (ptrace), one is borrowed to call libc's dlopen on the shim
 * while `environ` points at an empty environment (so the shim's constructor stays off,
 * whatever TSC_* the target's own environment holds), the others are let go, and the
 * borrowed one calls tt_attach_start with the settings (runtime/attach.c), which hooks the
 * functions with the other threads held only while entries are written (hook/stop.c).
 * Detach (--duration, Ctrl-C, SIGTERM): one thread is borrowed to call tt_attach_stop, which
 * writes the report and gives every entry its bytes back. The shim stays loaded (dlclose
 * under running threads is not safe); a second attach finds it and hooks again.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/attach_interval.h"
#include "cli/attach_why.h"
#include "cli/cli.h"
#include "cli/elf_sym.h"
#include "cli/inject.h"
#include "cli/shim_path.h"

extern char **environ;

#define RTLD_NOW_LOCAL 2      /* RTLD_NOW | RTLD_LOCAL (0) */
#define CALL_TIMEOUT_MS 30000 /* dlopen, start and stop: milliseconds; a bound, not a goal */
#define MAPS_MAX (4u << 20)

static const struct option attach_opts[] = {
	{ "funcs", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "duration", required_argument, NULL, 'd' },
	{ "interval", required_argument, NULL, 'i' },
	{ "allow-seccomp", no_argument, NULL, 'S' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* A /proc file read whole into a malloc'd, NUL-terminated buffer; NULL on failure. */
static char *slurp(const char *path, size_t max)
{
	size_t n = 0, cap = 8192;
	char *buf = malloc(cap), *nb;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((r = read(fd, buf + n, cap - n - 1)) > 0) {
		n += (size_t)r;
		if (cap - n - 1 == 0) {
			if (cap >= max || !(nb = realloc(buf, cap * 2)))
				break;
			buf = nb;
			cap *= 2;
		}
	}
	close(fd);
	buf[n] = 0;
	return buf;
}

static char *proc_file(int pid, const char *name)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/%s", pid, name);
	return slurp(path, MAPS_MAX);
}

/* Yama's scope; TSCTRACE_TEST_PTRACE_SCOPE stands for the file in tests (the value 3 cannot
 * be set on a test machine: it stays until reboot). -1 when there is no Yama. */
static long yama_scope(void)
{
	const char *fake = getenv("TSCTRACE_TEST_PTRACE_SCOPE");
	char *s;
	long v;

	if (fake && *fake)
		return strtol(fake, NULL, 10);
	s = slurp("/proc/sys/kernel/yama/ptrace_scope", 64);
	v = s && *s ? strtol(s, NULL, 10) : -1;
	free(s);
	return v;
}

/* Root, or CAP_SYS_PTRACE (bit 19) in our effective set. */
static bool can_ptrace_any(void)
{
	char *s = proc_file(getpid(), "status"), *p;
	unsigned long long eff = 0;

	p = s ? strstr(s, "CapEff:") : NULL;
	if (p)
		eff = strtoull(p + 7, NULL, 16);
	free(s);
	return (eff >> 19) & 1;
}

/* Whether pid descends from us (Yama scope 1 lets an ancestor attach). */
static bool descends_from_us(int pid)
{
	int me = getpid(), depth;

	for (depth = 0; pid > 1 && depth < 4096; depth++) {
		char *s = proc_file(pid, "status"), *p;

		p = s ? strstr(s, "\nPPid:") : NULL;
		pid = p ? atoi(p + 6) : 0;
		free(s);
		if (pid == me)
			return true;
	}
	return false;
}

/* Everything /proc tells before ptrace is tried. 0, or -1 after one line. */
static int check_target(int pid, bool seccomp_ok)
{
	struct tt_attacher a;
	struct tt_proc_status st;
	char why[512], *status = proc_file(pid, "status");

	if (!status) {
		tt_cli_err("attach: no process %d (%s)", pid, strerror(errno));
		return -1;
	}
	tt_attach_parse_status(status, &st);
	free(status);
	a.uid = (long)geteuid();
	a.cap_ptrace = can_ptrace_any();
	a.scope = yama_scope();
	a.is_ancestor = a.scope == 1 && descends_from_us(pid);
	a.seccomp_ok = seccomp_ok;
	a.self_pid = getpid();
	if (tt_attach_refusal(pid, &st, &a, why, sizeof(why))) {
		tt_cli_err("attach: %s", why);
		return -1;
	}
	return 0;
}

struct target {
	int pid;
	char shim[PATH_MAX];
	char libc[PATH_MAX];
	uintptr_t libc_start, dlopen_at, dlerror_at, environ_at;
	/* The shim's functions: offsets in its file, then addresses once it is mapped. */
	uintptr_t start_at, stop_at, why_at, held_at, dump_at;
};

/* Where a symbol of a file lies relative to the start of its mapping at offset 0. */
static bool sym_offset(const char *path, const char *name, uintptr_t *off)
{
	uint64_t value, first;

	if (!tt_elf_sym_value(path, name, &value, &first))
		return false;
	*off = (uintptr_t)(value - first);
	return true;
}

/* Everything read from files before a thread is held: libc's addresses in the target, the
 * offsets of the shim's functions. 0, or -1 after one line. */
static int find_addresses(struct target *t)
{
	char *maps = proc_file(t->pid, "maps");
	bool found;

	if (!maps) {
		tt_cli_err("attach: cannot read /proc/%d/maps: %s", t->pid, strerror(errno));
		return -1;
	}
	found = tt_attach_find_object(maps, "libc.so", true, &t->libc_start, t->libc,
				      sizeof(t->libc));
	free(maps);
	if (!found) {
		tt_cli_err("attach: process %d has no libc.so mapped: a statically linked program "
			   "(a Go program without cgo is one) has no dlopen to load the shim with",
			   t->pid);
		return -1;
	}
	if (!sym_offset(t->libc, "dlopen", &t->dlopen_at) ||
	    !sym_offset(t->libc, "dlerror", &t->dlerror_at) ||
	    !sym_offset(t->libc, "__environ", &t->environ_at)) {
		tt_cli_err("attach: %s does not export dlopen (glibc 2.34 or later does): the shim "
			   "cannot be loaded into process %d",
			   t->libc, t->pid);
		return -1;
	}
	t->dlopen_at += t->libc_start;
	t->dlerror_at += t->libc_start;
	t->environ_at += t->libc_start;
	if (!sym_offset(t->shim, "tt_attach_start", &t->start_at) ||
	    !sym_offset(t->shim, "tt_attach_stop", &t->stop_at) ||
	    !sym_offset(t->shim, "tt_attach_why", &t->why_at) ||
	    !sym_offset(t->shim, "tt_attach_held_ns", &t->held_at) ||
	    !sym_offset(t->shim, "tsctrace_dump", &t->dump_at)) {
		tt_cli_err("attach: %s lacks tt_attach_start: a shim older than tsctrace attach",
			   t->shim);
		return -1;
	}
	return 0;
}

/* Where the shim is mapped in the target now; false when it is not. */
static bool shim_mapped(const struct target *t, uintptr_t *start)
{
	char *maps = proc_file(t->pid, "maps");
	bool found = maps && tt_attach_find_path(maps, t->shim, start);

	free(maps);
	return found;
}

/* The shim's functions' addresses, once it is mapped at start. */
static void shim_at(struct target *t, uintptr_t start)
{
	t->start_at += start;
	t->stop_at += start;
	t->why_at += start;
	t->held_at += start;
	t->dump_at += start;
}

static uint64_t mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/* dlopen of the shim on the borrowed thread; with swap_env, environ pointing at an empty
 * environment meanwhile (restored whatever happens). 0, or -1 after one line. */
static int load_shim(struct tt_inject *in, struct target *t, bool swap_env)
{
	uint64_t empty = 0, handle = 0, old_env;
	uintptr_t path_at, empty_at, err_at;
	char err[512];
	int ret;

	path_at = tt_inject_push(in, t->shim, strlen(t->shim) + 1);
	empty_at = tt_inject_push(in, &empty, sizeof(empty));
	if (!path_at || !empty_at || tt_inject_read(in, t->environ_at, &old_env, 8) < 0 ||
	    (swap_env && tt_inject_write(in, t->environ_at, &empty_at, 8) < 0)) {
		tt_cli_err("attach: %s", in->why);
		return -1;
	}
	ret = tt_inject_call(in, t->dlopen_at, path_at, RTLD_NOW_LOCAL, &handle, CALL_TIMEOUT_MS);
	if (swap_env && tt_inject_write(in, t->environ_at, &old_env, 8) < 0)
		tt_cli_err("attach: process %d's environ could not be set back: %s", t->pid,
			   in->why);
	if (ret < 0) {
		tt_cli_err("attach: dlopen in process %d: %s", t->pid, in->why);
		return -1;
	}
	if (!handle) {
		err[0] = 0;
		if (tt_inject_call(in, t->dlerror_at, 0, 0, &err_at, CALL_TIMEOUT_MS) == 0 &&
		    err_at)
			tt_inject_read_string(in, err_at, err, sizeof(err));
		tt_cli_err("attach: process %d could not load %s: %s", t->pid, t->shim,
			   err[0] ? err : "dlopen failed");
		return -1;
	}
	return 0;
}

/* The TSC_* settings written into the target, and their vector's address: the function
 * list, the report's path and format first (the first of a name wins), then the other TSC_*
 * variables of our own environment (TSC_PIN, TSC_SAMPLE...), and TSC_QUIET=1 unless set:
 * the shim's informational lines would go to the target's stderr. */
static uintptr_t push_settings(struct tt_inject *in, const char *funcs, const char *output)
{
	enum { MAX_VARS = 64 };
	char buf[3][PATH_MAX + 64];
	uint64_t vec[MAX_VARS + 5] = { 0 };
	size_t i, n = 0;
	char **e;

	snprintf(buf[0], sizeof(buf[0]), "TSC_FUNCS=%s", funcs);
	snprintf(buf[1], sizeof(buf[1]), "TSC_OUTPUT=%s", output);
	snprintf(buf[2], sizeof(buf[2]), "TSC_FORMAT=json");
	for (i = 0; i < 3; i++)
		if (!(vec[n++] = tt_inject_push(in, buf[i], strlen(buf[i]) + 1)))
			return 0;
	for (e = environ; *e && n < MAX_VARS; e++) {
		if (strncmp(*e, "TSC_", 4) != 0 || strncmp(*e, "TSC_FUNCS=", 10) == 0 ||
		    strncmp(*e, "TSC_OUTPUT=", 11) == 0 || strncmp(*e, "TSC_FORMAT=", 11) == 0)
			continue;
		if (!(vec[n++] = tt_inject_push(in, *e, strlen(*e) + 1)))
			return 0;
	}
	if (!(vec[n++] = tt_inject_push(in, "TSC_QUIET=1", 12)))
		return 0;
	vec[n++] = 0;
	return tt_inject_push(in, vec, n * sizeof(vec[0]));
}

/* The shim's reason for a failed call, read in the target. */
static void shim_why(struct tt_inject *in, const struct target *t, char *why, size_t size)
{
	uint64_t at = 0;

	why[0] = 0;
	if (tt_inject_call(in, t->why_at, 0, 0, &at, CALL_TIMEOUT_MS) == 0 && at)
		tt_inject_read_string(in, at, why, size);
}

/* How long the shim has held the other threads so far, in ns (0 when not known). */
static uint64_t shim_held(struct tt_inject *in, const struct target *t)
{
	uint64_t ns = 0;

	return tt_inject_call(in, t->held_at, 0, 0, &ns, CALL_TIMEOUT_MS) == 0 ? ns : 0;
}

/* Whether the target's environment (libc's environ now, read in its memory) holds a TSC_*
 * variable, on which the shim's constructor would start inside the dlopen; true also when it
 * cannot be read (then environ is emptied during the dlopen, with every thread held). */
static bool env_has_tsc(struct tt_inject *in, const struct target *t)
{
	uint64_t env, vec[64];
	char head[4];
	size_t i, k, n;
	ssize_t r;

	if (tt_inject_read(in, t->environ_at, &env, 8) < 0)
		return true;
	for (k = 0; env && k < 1024; k++, env += sizeof(vec)) {
		/* A short read at the end of a mapping still gives whole pointers. */
		r = pread(in->mem_fd, vec, sizeof(vec), (off_t)env);
		if (r < 8)
			return true;
		for (i = 0, n = (size_t)r / 8; i < n; i++) {
			if (!vec[i])
				return false;
			if (pread(in->mem_fd, head, 4, (off_t)vec[i]) == 4 &&
			    memcmp(head, "TSC_", 4) == 0)
				return true;
		}
	}
	return env != 0;
}

/*
 * Hold the target to load the shim. Light (all false): only the thread to borrow is held, and
 * the others run on meanwhile, as they do around any dlopen; the shim's constructor stays
 * off, seeing no TSC_* in the target's environment. Else every thread is held, so that
 * environ can point at an empty environment during the dlopen. 0; 1 when the light way does
 * not fit (the caller holds all); -1 after one line.
 */
static int hold(struct tt_inject *in, struct target *t, bool all, uintptr_t *shim_start)
{
	int r = all ? tt_inject_hold_all(in, t->pid)
		    : tt_inject_hold_one(in, t->pid, tt_inject_pick_thread(t->pid));

	if (r < 0 || tt_inject_borrow(in) < 0) {
		tt_inject_end(in);
		if (!all)
			return 1;
		tt_cli_err("attach: cannot hold process %d: %s", t->pid, in->why);
		return -1;
	}
	if (shim_mapped(t, shim_start))
		return 0;
	if (!all && env_has_tsc(in, t)) {
		tt_inject_end(in);
		return 1;
	}
	if (load_shim(in, t, all) < 0) {
		tt_inject_end(in);
		return -1;
	}
	if (!shim_mapped(t, shim_start)) {
		tt_cli_err("attach: %s is not mapped in process %d after dlopen", t->shim, t->pid);
		tt_inject_end(in);
		return -1;
	}
	return 0;
}

static int attach(struct target *t, const char *funcs, const char *output)
{
	struct tt_inject in = { .mem_fd = -1 };
	uint64_t held_from, held_us = 0, hook_ns, n = 0, env;
	uintptr_t shim_start;
	bool all = false;
	char why[256];
	int ret;

	if (find_addresses(t) < 0)
		return -1;
	held_from = mono_us();
	ret = hold(&in, t, false, &shim_start);
	if (ret > 0) {
		all = true;
		held_from = mono_us();
		ret = hold(&in, t, true, &shim_start);
	}
	if (ret < 0)
		return -1;
	shim_at(t, shim_start);
	tt_inject_release_others(&in);
	if (all)
		held_us = mono_us() - held_from;
	hook_ns = shim_held(&in, t);
	env = push_settings(&in, funcs, output);
	ret = env ? tt_inject_call(&in, t->start_at, env, 0, &n, CALL_TIMEOUT_MS) : -1;
	if (ret < 0) {
		tt_cli_err("attach: tt_attach_start in process %d: %s", t->pid,
			   env ? in.why : "no room below the stack pointer");
		tt_inject_end(&in);
		return -1;
	}
	if ((int)n < 0) {
		shim_why(&in, t, why, sizeof(why));
		tt_inject_end(&in);
		tt_cli_err("attach: process %d: %s", t->pid, why);
		return -1;
	}
	if (n == 0) {
		/* Nothing hooked: off again at once (the report says why, in its warnings). */
		tt_inject_call(&in, t->stop_at, 0, 0, &n, CALL_TIMEOUT_MS);
		tt_inject_end(&in);
		tt_cli_err("attach: none of the functions could be hooked inline in process %d "
			   "(not found, or refused: see the warnings in %s)",
			   t->pid, output);
		return -1;
	}
	hook_ns = shim_held(&in, t) - hook_ns;
	shim_why(&in, t, why, sizeof(why)); /* the functions found but not hooked */
	{
		int tid = in.threads[in.borrowed].tid;

		tt_inject_end(&in);
		fprintf(stderr,
			"tsctrace: attached to %d (%d functions); its threads were held %.2f ms: "
			"%.2f ms to load the shim",
			t->pid, (int)n, (double)held_us / 1000 + (double)hook_ns / 1e6,
			(double)held_us / 1000);
		if (!all)
			fprintf(stderr, " (thread %d alone was borrowed, for %.2f ms)", tid,
				(double)(mono_us() - held_from) / 1000);
		fprintf(stderr, ", %.2f ms while the entries were written\n",
			(double)hook_ns / 1e6);
	}
	/* After the line above, which scripts wait for. */
	if (why[0])
		tt_cli_err("attach: not traced while attached (their entries cannot be hooked "
			   "inline, and attach rewrites no GOT slot; the report's warnings say "
			   "why): %s",
			   why);
	return 0;
}

static int detach(struct target *t)
{
	struct tt_inject in = { .mem_fd = -1 };
	uint64_t r = 0;
	char why[256];
	int ret;

	if (tt_inject_hold_one(&in, t->pid, tt_inject_pick_thread(t->pid)) < 0 ||
	    tt_inject_borrow(&in) < 0) {
		tt_cli_err("attach: cannot hold process %d to detach: %s", t->pid, in.why);
		tt_inject_end(&in);
		return -1;
	}
	ret = tt_inject_call(&in, t->stop_at, 0, 0, &r, CALL_TIMEOUT_MS);
	if (ret < 0) {
		tt_cli_err("attach: tt_attach_stop in process %d: %s", t->pid, in.why);
		tt_inject_end(&in);
		return -1;
	}
	if ((int)r < 0)
		shim_why(&in, t, why, sizeof(why));
	tt_inject_end(&in);
	if ((int)r == -1) {
		tt_cli_err("attach: process %d stays hooked: %s", t->pid, why);
		return -1;
	}
	if ((int)r == -2)
		tt_cli_err("attach: the report was not written where asked (see process %d's "
			   "stderr)",
			   t->pid);
	fprintf(stderr, "tsctrace: detached from %d: every hooked entry is as it was\n", t->pid);
	return 0;
}

/* --interval: the shim writes its report now (tsctrace_dump, on a borrowed thread), and the
 * interval's table is printed from it and the previous one. */
static void interval_table(struct target *t, struct tt_interval *iv, const char *output,
			   double seconds)
{
	struct tt_inject in = { .mem_fd = -1 };
	uint64_t r = 0;

	if (tt_inject_hold_one(&in, t->pid, tt_inject_pick_thread(t->pid)) < 0 ||
	    tt_inject_borrow(&in) < 0) {
		tt_inject_end(&in);
		return;
	}
	if (tt_inject_call(&in, t->dump_at, 0, 0, &r, CALL_TIMEOUT_MS) < 0) {
		tt_inject_end(&in);
		return;
	}
	tt_inject_end(&in);
	if ((int)r == 0)
		tt_interval_step(iv, output, seconds, stdout);
}

/* Until the duration is over, SIGINT or SIGTERM came, or the target ended; a table every
 * interval seconds when interval > 0. */
static void wait_for_end(struct target *t, double duration, double interval, const char *output)
{
	sigset_t set;
	struct timespec step = { 0, 100 * 1000000 };
	uint64_t start = mono_us(), end = duration > 0 ? start + (uint64_t)(duration * 1e6) : 0;
	uint64_t next = interval > 0 ? start + (uint64_t)(interval * 1e6) : 0;
	struct tt_interval iv = { NULL, 0, 0 };

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	for (;;) {
		if (sigtimedwait(&set, NULL, &step) > 0)
			break;
		if (kill(t->pid, 0) < 0 && errno == ESRCH)
			break;
		if (end && mono_us() >= end)
			break;
		if (next && mono_us() >= next) {
			interval_table(t, &iv, output, (double)(mono_us() - start) / 1e6);
			next += (uint64_t)(interval * 1e6);
		}
	}
	tt_interval_free(&iv);
}

static bool parse_duration(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || v <= 0 || v > 1e9)
		return false;
	if (*end == 's')
		end++;
	*out = v;
	return *end == 0;
}

int tt_cli_attach(int argc, char **argv)
{
	const char *funcs = getenv("TSC_FUNCS"), *output = NULL;
	char out_abs[PATH_MAX], cwd[PATH_MAX];
	struct target t = { 0 };
	bool seccomp_ok = false;
	double duration = 0, interval = 0;
	sigset_t set;
	char *end;
	long pid;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:f:o:d:i:h", attach_opts, NULL)) != -1) {
		switch (c) {
		case 'f': funcs = optarg; break;
		case 'o': output = optarg; break;
		case 'd':
			if (!parse_duration(optarg, &duration)) {
				tt_cli_err("attach: --duration %s: give seconds, e.g. 10 or 2.5",
					   optarg);
				return CLI_EXIT_BAD;
			}
			break;
		case 'i':
			if (!parse_duration(optarg, &interval) || interval < 0.1) {
				tt_cli_err(
					"attach: --interval %s: give seconds, 0.1 or more, e.g. 1s",
					optarg);
				return CLI_EXIT_BAD;
			}
			break;
		case 'S': seccomp_ok = true; break;
		case 'h': tt_cli_help("attach"); return CLI_EXIT_OK;
		default: return tt_cli_opt_error("attach", c, argv);
		}
	}
	if (optind != argc - 1) {
		tt_cli_err("attach: give one process ID (see tsctrace attach --help)");
		return CLI_EXIT_BAD;
	}
	pid = strtol(argv[optind], &end, 10);
	if (*end || pid <= 0 || pid > INT32_MAX) {
		tt_cli_err("attach: %s is not a process ID", argv[optind]);
		return CLI_EXIT_BAD;
	}
	if (!funcs || !*funcs) {
		tt_cli_err("attach: no functions to trace: give -f NAMES (or set TSC_FUNCS)");
		return CLI_EXIT_BAD;
	}
	t.pid = (int)pid;
	/* The target resolves a relative path against its own directory: made absolute here. */
	if (!output) {
		snprintf(out_abs, sizeof(out_abs), "tsctrace-attach.%ld.json", pid);
		output = out_abs;
	}
	if (output[0] != '/') {
		char rel[PATH_MAX];

		snprintf(rel, sizeof(rel), "%s", output);
		if (!getcwd(cwd, sizeof(cwd)) ||
		    snprintf(out_abs, sizeof(out_abs), "%s/%s", cwd, rel) >= (int)sizeof(out_abs)) {
			tt_cli_err("attach: -o %s: path too long", rel);
			return CLI_EXIT_BAD;
		}
		output = out_abs;
	}
	if (check_target(t.pid, seccomp_ok) < 0 || tt_cli_find_shim("attach", t.shim) < 0)
		return 1;
	/* Ctrl-C and SIGTERM end the wait (sigtimedwait), never tsctrace mid-injection. */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if (attach(&t, funcs, output) < 0)
		return 1;
	wait_for_end(&t, duration, interval, output);
	if (kill(t.pid, 0) < 0 && errno == ESRCH) {
		tt_cli_err("attach: process %d ended while attached (its report, if any, is at "
			   "%s)",
			   t.pid, output);
		return 1;
	}
	if (detach(&t) < 0)
		return 1;
	{
		char *rargv[] = { "report", (char *)output, NULL };

		optind = 1;
		return tt_cli_report(2, rargv);
	}
}
