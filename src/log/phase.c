/*
 * phase.c - see phase.h. The clock is read by raw system call: a thread that forbade itself
 * the TSC may write a report, and the vDSO's clock_gettime may read the TSC.
 */
#include <stdbool.h>
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

static uint64_t now_ns(void)
{
	struct timespec ts;

	if (tt_syscall3(SYS_clock_gettime, CLOCK_MONOTONIC, &ts, 0) != 0)
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void tt_phase_begin(void)
{
	begun = now_ns();
}

void tt_phase_enable(void)
{
	enabled = true;
	spent[TT_PHASE_CONFIG] += now_ns() - begun;
}

uint64_t tt_phase_mark(void)
{
	return enabled ? now_ns() : 0;
}

void tt_phase_add(enum tt_phase p, uint64_t since)
{
	if (enabled && since)
		__atomic_add_fetch(&spent[p], now_ns() - since, __ATOMIC_RELAXED);
}

void tt_phase_constructed(void)
{
	if (enabled)
		constructor_ns = now_ns() - begun;
}

/* "name 12.3, " into p; returns the new end. */
static char *put(char *p, char *end, const char *name, uint64_t ns, const char *sep)
{
	char digits[24];
	unsigned int n = 0;
	uint64_t us = ns / 1000, tenth = ns % 1000 / 100;

	while (*name && p < end)
		*p++ = *name++;
	if (p < end)
		*p++ = ' ';
	do
		digits[n++] = (char)('0' + us % 10);
	while ((us /= 10) && n < sizeof(digits));
	while (n && p < end)
		*p++ = digits[--n];
	if (p + 2 < end) {
		*p++ = '.';
		*p++ = (char)('0' + tenth);
	}
	while (*sep && p < end)
		*p++ = *sep++;
	return p;
}

void tt_phase_print(void)
{
	static const char head[] = "tsctrace: start-up us: ";
	char line[512], *p = line, *end = line + sizeof(line) - 1;
	unsigned int i;

	if (!enabled)
		return;
	for (i = 0; i < sizeof(head) - 1; i++)
		*p++ = head[i];
	for (i = 0; i < TT_PHASE_CALIBRATE; i++)
		p = put(p, end, names[i], __atomic_load_n(&spent[i], __ATOMIC_RELAXED), ", ");
	p = put(p, end, "constructor", constructor_ns, "; at exit us: ");
	for (i = TT_PHASE_CALIBRATE; i < TT_PHASE_COUNT; i++)
		p = put(p, end, names[i], __atomic_load_n(&spent[i], __ATOMIC_RELAXED),
			i + 1 < TT_PHASE_COUNT ? ", " : "\n");
	tt_channel_write(line, (size_t)(p - line));
}
