/*
 * phase.c - see phase.h. The clock is read by raw system call: a thread that forbade itself
 * the TSC may write a report, and the vDSO's clock_gettime may read the TSC.
 */
#include <stdbool.h>
#include <sys/resource.h>
#include <time.h>

#include "base/sys.h"
#include "log/channel.h"
#include "log/phase.h"

static const char *const names[TT_PHASE_COUNT] = {
	[TT_PHASE_CONFIG] = "config",	    [TT_PHASE_CLOCK] = "clock",
	[TT_PHASE_STUBS] = "stubs",	    [TT_PHASE_RESOLVE] = "resolve",
	[TT_PHASE_DECODER] = "decoder",	    [TT_PHASE_INLINE] = "inline",
	[TT_PHASE_CALIBRATE] = "calibrate", [TT_PHASE_GOT] = "got",
	[TT_PHASE_OTHER] = "other",	    [TT_PHASE_REPORT] = "report",
};

static bool enabled;
static uint64_t begun, constructor_ns;
static uint64_t spent[TT_PHASE_COUNT];

/* Page faults (minor and major) of each phase: the largest single cost of a short start-up
 * (~2.5 us each on a VM). Counted from the last mark, as the phases never nest. */
static uint64_t faults_begun, faults_marked, constructor_faults;
static uint64_t faulted[TT_PHASE_COUNT];

static uint64_t now_ns(void)
{
	struct timespec ts;

	if (tt_syscall3(SYS_clock_gettime, CLOCK_MONOTONIC, &ts, 0) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t faults_now(void)
{
	struct rusage ru;

	if (tt_syscall3(SYS_getrusage, RUSAGE_SELF, &ru, 0) != 0)
		return 0;
	return (uint64_t)ru.ru_minflt + (uint64_t)ru.ru_majflt;
}

void tt_phase_begin(void)
{
	begun = now_ns();
}

void tt_phase_enable(void)
{
	enabled = true;
	spent[TT_PHASE_CONFIG] += now_ns() - begun;
	/* The faults of config before this are not known: counted from here. */
	faults_begun = faults_now();
}

uint64_t tt_phase_mark(void)
{
	if (!enabled)
		return 0;
	faults_marked = faults_now();
	return now_ns();
}

void tt_phase_add(enum tt_phase p, uint64_t since)
{
	if (enabled && since) {
		__atomic_add_fetch(&spent[p], now_ns() - since, __ATOMIC_RELAXED);
		__atomic_add_fetch(&faulted[p], faults_now() - faults_marked, __ATOMIC_RELAXED);
	}
}

void tt_phase_constructed(void)
{
	if (enabled) {
		constructor_ns = now_ns() - begun;
		constructor_faults = faults_now() - faults_begun;
	}
}

/* "name 12.3, " (ns in us), or "name 12, " (a count, with tenths false), into p; returns the
 * new end. */
static char *put(char *p, char *end, const char *name, uint64_t ns, const char *sep, bool tenths)
{
	char digits[24];
	unsigned int n = 0;
	uint64_t us = tenths ? ns / 1000 : ns, tenth = ns % 1000 / 100;

	while (*name && p < end)
		*p++ = *name++;
	if (p < end)
		*p++ = ' ';
	do
		digits[n++] = (char)('0' + us % 10);
	while ((us /= 10) && n < sizeof(digits));
	while (n && p < end)
		*p++ = digits[--n];
	if (tenths && p + 2 < end) {
		*p++ = '.';
		*p++ = (char)('0' + tenth);
	}
	while (*sep && p < end)
		*p++ = *sep++;
	return p;
}

/* One line: head, then each phase's figure of v (the constructor's after the start-up
 * phases), in us (tenths) or as counts. */
static void print_line(const char *head, const uint64_t *v, uint64_t constructor, bool tenths,
		       const char *at_exit)
{
	char line[512], *p = line, *end = line + sizeof(line) - 1;
	unsigned int i;

	while (*head)
		*p++ = *head++;
	for (i = 0; i < TT_PHASE_CALIBRATE; i++)
		p = put(p, end, names[i], __atomic_load_n(&v[i], __ATOMIC_RELAXED), ", ", tenths);
	p = put(p, end, "constructor", constructor, at_exit, tenths);
	for (i = TT_PHASE_CALIBRATE; i < TT_PHASE_COUNT; i++)
		p = put(p, end, names[i], __atomic_load_n(&v[i], __ATOMIC_RELAXED),
			i + 1 < TT_PHASE_COUNT ? ", " : "\n", tenths);
	tt_channel_write(line, (size_t)(p - line));
}

void tt_phase_print(void)
{
	if (!enabled)
		return;
	print_line("tsctrace: start-up us: ", spent, constructor_ns, true, "; at exit us: ");
	print_line("tsctrace: start-up page faults: ", faulted, constructor_faults, false,
		   "; at exit: ");
}
