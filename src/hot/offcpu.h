/*
 * offcpu.h - the time a thread spent off its CPU during a kept slow call (TSC_SLOWEST's
 * offcpu_ns), from the kernel's own records of its context switches.
 *
 * Each traced thread opens a perf event of its own (the first thread at once, the others at
 * their first kept call of at least TT_OFFCPU_WORTH ticks, whose own offcpu_ns is then null:
 * opening costs ~0.1 ms here, too much for every short-lived thread), that counts
 * nothing and records each of its switches out and in with a CLOCK_MONOTONIC_RAW time
 * (PERF_COUNT_SW_DUMMY, context_switch, written backward into two pages it maps read-only;
 * the descriptor is closed at once, the mapping keeps the event). A call pays nothing for it:
 * only when a call is kept does its exit copy the thread's latest switches (TT_OFFCPU_SWITCHES
 * of them), which the report lays against the call's span once the TSC's rate is known.
 * Where the kernel refuses the event (perf_event_paranoid 3, seccomp, the locked-memory
 * limit of perf mappings) the thread has no records and offcpu_ns is null.
 */
#ifndef TT_OFFCPU_H
#define TT_OFFCPU_H

#include <stdint.h>

struct tt_thread;

#define TT_OFFCPU_SWITCHES 16	   /* switches kept with a call, latest first */
#define TT_OFFCPU_PAGES 2	   /* the event's metadata page and one page of records */
#define TT_OFFCPU_WORTH (1u << 20) /* raw ticks of a kept call that opens its thread's records */

/* One switch of the thread: when (CLOCK_MONOTONIC_RAW ns), and which way. */
struct tt_switch {
	uint64_t ns;
	uint64_t out; /* 1: switched out, 0: back in */
};

/* Open thread t's records (raw syscalls only): the process's first thread at its first
 * traced call, any other at its first kept call of TT_OFFCPU_WORTH ticks or more. Returns 0
 * or -errno, which the first failure keeps for the report's warning. */
int tt_offcpu_open(struct tt_thread *t);

/* Unmap them (the thread's block is freed, or a fork child's copy is the parent's). */
void tt_offcpu_close(struct tt_thread *t);

/* Copy t's latest switches into out, latest first; returns how many, or -1 when the thread
 * has no records. *all: these are all the thread's switches (the ring never wrapped), so a
 * span older than the last copied has none missing. Hot path. */
int tt_offcpu_latest(const struct tt_thread *t, struct tt_switch *out, uint32_t max, int *all);

/* Why threads have no records: 0, the first error (negative errno), or TT_OFFCPU_SANDBOXED,
 * set before any open: the process is under seccomp, whose filter may kill it for a system
 * call as rare as perf_event_open (systemd's SystemCallFilter does, by default), so none is
 * tried. */
#define TT_OFFCPU_SANDBOXED (-100000)
extern int tt_offcpu_error;

#endif /* TT_OFFCPU_H */
