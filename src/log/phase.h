/*
 * phase.h - TSC_DEBUG=startup: how long each step of the shim's start-up and exit took, in
 * microseconds, and how many page faults it took, printed as two lines when the report has
 * been written. Off (every call a load and a branch) unless tt_phase_enable() was called;
 * the start is taken in any case.
 */
#ifndef TT_PHASE_H
#define TT_PHASE_H

#include <stdint.h>

enum tt_phase {
	TT_PHASE_CONFIG,    /* stderr duplicate, TSC_* parsing */
	TT_PHASE_CLOCK,	    /* CPUID, the clock choice, pinning and call-path set-up */
	TT_PHASE_STUBS,	    /* entry stubs, thread key, the process's identity */
	TT_PHASE_RESOLVE,   /* names to addresses */
	TT_PHASE_DECODER,   /* loading Zydis (only when an inline hook is to be made) */
	TT_PHASE_INLINE,    /* planning, checking and writing inline hooks */
	TT_PHASE_GOT,	    /* GOT slots */
	TT_PHASE_OTHER,	    /* the rest of the constructor */
	TT_PHASE_CALIBRATE, /* at the first report: the overhead and granularity burst */
	TT_PHASE_REPORT,    /* each report: summary, format, delivery */
	TT_PHASE_COUNT
};

/* The constructor begins: remember when (always; a raw clock_gettime). */
void tt_phase_begin(void);

/* TSC_DEBUG=startup was asked for: account the phases from now on. */
void tt_phase_enable(void);

/* A mark to pass to tt_phase_add (0 when off). */
uint64_t tt_phase_mark(void);

/* Add the time since `since` (a tt_phase_mark) to phase p. */
void tt_phase_add(enum tt_phase p, uint64_t since);

/* The constructor is done (its total is from tt_phase_begin). */
void tt_phase_constructed(void);

/* Print the lines (once a report is written; again after a later one). */
void tt_phase_print(void);

#endif /* TT_PHASE_H */
