/*
 * slow_report.c - TSC_SLOWEST / TSC_SLOWER_THAN: the settings the hot path keeps calls by,
 * and the kept calls of every thread merged into the report's rows.
 */
#include "runtime/slow_report.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <stdbool.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "base/sys.h"
#include "config/variant.h"
#include "hot/callers.h"
#include "hot/offcpu.h"
#include "hot/slow_calls.h"
#include "log/log.h"
#include "report/stats.h"
#include "runtime/threads.h"

#define FRAME_BYTES 320 /* a path frame's name */

/* TSC_SLOWER_THAN's threshold in cycles, once converted (the report states it). */
static uint64_t threshold_cycles;
static bool offcpu_warned; /* the report's warning of why offcpu_ns is null, said once */

/* Ticks per second at start-up: the CPU's or hypervisor's figure, else measured over a
 * short wait (only for TSC_SLOWER_THAN=Nus). */
static uint64_t startup_hz(const struct tt_clock *clock)
{
	const char *source;
	uint32_t ppm;
	uint64_t hz = tt_clock_hz(clock, 0, &source, &ppm), until;

	if (hz && strcmp(source, "calibrated") != 0)
		return hz;
	until = tt_clock_ns(4 /* CLOCK_MONOTONIC_RAW */) + 5000000;
	while (tt_clock_ns(4) < until)
		;
	return tt_clock_hz(clock, 0, &source, &ppm);
}

void tt_offcpu_refuse_sandboxed(void)
{
	__atomic_store_n(&tt_offcpu_error, TT_OFFCPU_SANDBOXED, __ATOMIC_RELAXED);
}

/* A process started under a seccomp filter (a service's SystemCallFilter, a container's
 * profile) may be killed by it for perf_event_open: none is opened there (offcpu.h). Asked of
 * prctl (0 none, 1 strict, 2 filter), not read from /proc/self/status, whose formatting of
 * every field took ~35 us of each traced process's start-up (issue 36). The shim's start-up
 * asks prctl already (PR_GET_TSC); a filter that answers this with an error is taken for one,
 * except EINVAL: a kernel built without seccomp (whose status has no Seccomp line). */
static void refuse_offcpu_under_seccomp(void)
{
	long mode = tt_syscall3(SYS_prctl, PR_GET_SECCOMP, 0, 0);

	if (mode != 0 && mode != -EINVAL)
		tt_offcpu_refuse_sandboxed();
}

void tt_slow_setup(const struct tt_config *cfg, const struct tt_clock *clock)
{
	uint64_t t = cfg->slower_than;

	if (t && cfg->slower_than_us) {
		uint64_t hz = clock->variant == TT_VAR_MONO ? 1000000000u : startup_hz(clock);

		if (!hz) {
			tt_warn("TSC_SLOWER_THAN: no TSC rate known to turn microseconds into "
				"ticks: no calls kept by threshold");
			t = 0;
		} else {
			t = (uint64_t)((unsigned __int128)t * hz / 1000000u);
		}
	}
	threshold_cycles = t;
	offcpu_warned = false;
	if (cfg->slowest || t)
		refuse_offcpu_under_seccomp();
	tt_slow_threshold = t;
	tt_slow_capacity = t ? TT_SLOWER_THAN_KEPT : cfg->slowest;
}

/* Unix ns of a clock reading (TSC ticks, or CLOCK_MONOTONIC_RAW ns when hz is 0). */
static uint64_t unix_ns(uint64_t ticks, const struct tt_clock *clock, uint64_t hz)
{
	int64_t d = 0;

	if (clock->variant == TT_VAR_MONO)
		d = (int64_t)(ticks - clock->start_mono_ns);
	else if (hz)
		d = (int64_t)((__int128)(int64_t)(ticks - clock->start_tsc) * 1000000000 /
			      (__int128)hz);
	return clock->start_real_ns + (uint64_t)d;
}

/* CLOCK_MONOTONIC_RAW ns of a clock reading, as the kernel stamps switch records; false
 * without a rate. */
static bool mono_ns(uint64_t ticks, const struct tt_clock *clock, uint64_t hz, uint64_t *ns)
{
	if (clock->variant == TT_VAR_MONO) {
		*ns = ticks;
		return true;
	}
	if (!hz)
		return false;
	*ns = clock->start_mono_ns +
	      (uint64_t)((__int128)(int64_t)(ticks - clock->start_tsc) * 1000000000 / (__int128)hz);
	return true;
}

/* The time c's thread spent switched out during c: its switches laid against the call's
 * span. False when unknown: no records, or more switches than were kept with it. */
static bool offcpu_of(const struct tt_slow_call *c, const struct tt_clock *clock, uint64_t hz,
		      uint64_t *out)
{
	uint64_t s, e, sum = 0;
	int32_t i, n = c->nswitches;

	if (n < 0 || !mono_ns(c->start, clock, hz, &s) ||
	    !mono_ns(c->start + c->raw, clock, hz, &e))
		return false;
	/* Every switch inside the span is among those kept: one older than it was kept too, or
	 * they are all the thread ever made. */
	if (!c->all_switches && !(n > 0 && c->switches[n - 1].ns < s))
		return false;
	for (i = n - 1; i >= 0; i--) { /* oldest first */
		uint64_t from, to;

		if (!c->switches[i].out)
			continue;
		from = c->switches[i].ns;
		to = i > 0 && !c->switches[i - 1].out ? c->switches[i - 1].ns : e;
		if (from < s)
			from = s;
		if (to > e)
			to = e;
		if (to > from)
			sum += to - from;
	}
	*out = sum;
	return true;
}

static void fill_path(const struct tt_slow_call *c, struct tt_report_slow_call *row,
		      tt_alloc_fn alloc, void *ctx)
{
	char **frames;
	uint32_t i;

	if (!tt_callers_depth)
		return; /* null: no paths were taken */
	frames = alloc(ctx, (c->depth + 1) * sizeof(char *));
	if (!frames)
		return;
	for (i = 0; i < c->depth; i++) {
		frames[i] = alloc(ctx, FRAME_BYTES);
		if (!frames[i])
			break;
		tt_callers_frame_name(c->path[i], frames[i], FRAME_BYTES);
	}
	row->path = (const char *const *)frames;
	row->npath = i;
}

/* One list every function's kept calls are merged into in turn (the rows copy what they
 * need): under TSC_SLOWER_THAN a list is 1024 calls, too much for the arena a function. */
static struct tt_slow_list *scratch_list(void)
{
	static struct tt_slow_list *l;
	void *p;

	if (!l) {
		p = mmap(NULL, tt_slow_list_bytes(), PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		l = p == MAP_FAILED ? NULL : p;
	}
	return l;
}

/* Whether the scratch list holds function func's kept calls (tt_slow_gather). */
static uint32_t gathered_func;

void tt_slow_gather(uint32_t func)
{
	struct tt_slow_list *l = tt_slow_capacity ? scratch_list() : NULL;

	gathered_func = 0;
	if (!l)
		return;
	memset(l, 0, sizeof(*l));
	tt_thread_collect_slow(func, l);
	/* The histograms are read after this (x86 keeps loads in order; the compiler is kept
	 * from moving them up): a call kept since is in them too. */
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	gathered_func = func;
}

void tt_slow_collect(uint32_t func, uint64_t subtract, const struct tt_clock *clock, uint64_t hz,
		     tt_alloc_fn alloc, void *ctx, struct tt_report_func *out)
{
	struct tt_slow_list *l;
	struct tt_report_slow_call *rows;
	uint32_t i, j, n;

	if (!tt_slow_capacity || out->count_only || gathered_func != func)
		return;
	/* One field the machine withholds, every figure measured as usual: information, which
	 * TSC_QUIET=1 silences (Debian's perf_event_paranoid 3 refuses every unprivileged user)
	 * and the report keeps among its warnings all the same. */
	if (tt_offcpu_error && !offcpu_warned) {
		offcpu_warned = true;
		tt_info("offcpu_ns is null for threads whose context switches the kernel would not "
			"record (perf_event_open or its mapping: %s)",
			tt_offcpu_error == TT_OFFCPU_SANDBOXED
				? "not tried under seccomp, whose filter may kill the program for "
				  "it"
			: tt_offcpu_error == -EACCES || tt_offcpu_error == -EPERM
				? "not permitted: perf_event_paranoid, seccomp or the "
				  "locked-memory "
				  "limit of perf mappings"
				: "refused");
	}
	out->has_slowest = true;
	out->has_slowest_info = true;
	out->slowest_info.kept = tt_slow_capacity;
	out->slowest_info.timed_only = true;
	out->slowest_info.has_slower_than = tt_slow_threshold != 0;
	out->slowest_info.slower_than = threshold_cycles;
	l = scratch_list();
	out->slowest_info.not_kept = l->not_kept;
	/* Slowest first: a few dozen, an insertion sort (no qsort: it may call malloc). */
	for (i = 1; i < l->n; i++) {
		struct tt_slow_call c = l->calls[i];

		for (j = i; j > 0 && l->calls[j - 1].raw < c.raw; j--)
			l->calls[j] = l->calls[j - 1];
		l->calls[j] = c;
	}
	rows = alloc(ctx, (l->n + 1) * sizeof(*rows));
	if (!rows)
		return;
	for (i = n = 0; i < l->n; i++) {
		const struct tt_slow_call *c = &l->calls[i];
		struct tt_report_slow_call *r = &rows[n];
		uint64_t cycles = tt_stats_sub_floor(c->raw, subtract);

		if (tt_slow_threshold && cycles <= threshold_cycles)
			continue; /* above it in raw ticks, not once the overhead is taken off */
		memset(r, 0, sizeof(*r));
		r->cycles = cycles;
		r->start_ns = unix_ns(c->start, clock, hz);
		r->tid = c->tid;
		r->has_cpu = c->cpu != UINT32_MAX;
		r->cpu = c->cpu;
		for (j = 0; j < 6; j++)
			r->args[j] = (int64_t)c->args[j];
		r->ret = (int64_t)c->ret;
		r->has_offcpu = offcpu_of(c, clock, hz, &r->offcpu_ns);
		fill_path(c, r, alloc, ctx);
		n++;
	}
	out->slowest = rows;
	out->nslowest = n;
}
