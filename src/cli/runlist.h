/*
 * runlist.h - the runs (processes) a set of reports stands for, and the same run given twice:
 * merge and diff count each run once, so a report passed twice would double its calls (merge)
 * or pass for a second run that agrees perfectly with the first (diff).
 *
 * A run is known by its pid and start time (start_unix_ns): a pid alone is reused, a start
 * time alone is shared by processes started in one tick. A merged report stands for the runs
 * its "merged" list names.
 */
#ifndef TT_RUNLIST_H
#define TT_RUNLIST_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/load.h"

struct tt_run_ref {
	struct tt_report_run run; /* argv points into the report */
	size_t rep;		  /* which report it came from */
};

/* The runs of reps[0..n) in order into *out (malloc'd, *nout of them); -1 when out of memory. */
int tt_runlist(struct cli_report *const *reps, size_t n, struct tt_run_ref **out, size_t *nout);

/* Whether two of runs[0..n) are one run; then *a < *b are the first such pair's indices. */
bool tt_runlist_repeat(const struct tt_run_ref *runs, size_t n, size_t *a, size_t *b);

#endif /* TT_RUNLIST_H */
