/*
 * callpath.h - the TSC_CALLERS call paths of reports, flattened for the profile exports
 * (folded stacks, flame graphs, pprof).
 *
 * One path per call site of each function of each report (a report taken without
 * TSC_CALLERS gives one path per function, with no caller frames). The paths of one function
 * add up to its calls and its cycles.total exactly: what the sites do not account for (the
 * timed calls of the "(not seen at a site...)" row, whose cycles the shim does not keep) is
 * one more path through the frame TT_CALLPATH_UNSEEN.
 */
#ifndef TT_CALLPATH_H
#define TT_CALLPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli/load.h"

#define TT_CALLPATH_UNSEEN "(not seen at a site)"

/* What a stack weighs. */
enum tt_weight {
	TT_WEIGHT_CALLS,
	TT_WEIGHT_CYCLES, /* cycles.total: the function's time, callees included */
	TT_WEIGHT_SELF,	  /* self.total: its time less that of the traced calls it made */
};

struct tt_callpath {
	const struct cli_report *rep;
	const struct tt_report_func *func;
	const char *const *frames; /* the callers, innermost first; none without TSC_CALLERS */
	size_t nframes;
	uint64_t calls, cycles, self; /* self only when collected with TT_WEIGHT_SELF */
};

struct tt_callpaths {
	struct tt_callpath *p;
	size_t n;
};

/*
 * The paths of every function of the n reports, in report, function and site order. With
 * TT_WEIGHT_SELF every site (or function, without callers) must carry "self"; with any
 * weight but calls the reports must share one unit (ticks or ns). Returns 0, or -1 after one
 * "tsctrace: cmd: ..." line.
 */
int tt_callpaths_collect(const char *cmd, struct cli_report **reps, size_t n, enum tt_weight w,
			 struct tt_callpaths *out);
void tt_callpaths_free(struct tt_callpaths *cp);

/* A path's value for weight w. */
uint64_t tt_callpath_value(const struct tt_callpath *p, enum tt_weight w);

/* "calls", "cycles" or "self" to a weight; false for anything else. */
bool tt_weight_parse(const char *s, enum tt_weight *w);

/*
 * A caller frame split into the function it lies in and its object:
 *   "main+0x4c (app)"    function "main", object "app"
 *   "app+0x139d9"        function "app+0x139d9" (no symbol: the address is all there is),
 *                        object "app"
 *   anything else        (pseudo-sites, bare addresses) function: the whole frame, no object
 * The parts point into frame; obj is NULL (objlen 0) when there is none.
 */
struct tt_frame {
	const char *fn, *obj;
	size_t fnlen, objlen;
};
void tt_frame_split(const char *frame, struct tt_frame *out);

/*
 * The frame lies in the shim (libtsctrace.so): a trampoline standing in for the return
 * address of an inline-hooked traced function that the unwinder met further up. The
 * caller it stands for is the next frame, so the exports leave such frames out.
 */
bool tt_frame_is_shim(const struct tt_frame *fr);

#endif /* TT_CALLPATH_H */
