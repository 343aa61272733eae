/*
 * merge.h - one function's entries in several reports made into one entry (merge_func.c),
 * for `tsctrace merge` (cmd_merge.c).
 */
#ifndef TT_MERGE_H
#define TT_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "cli/group.h"
#include "cli/load.h"
#include "report/report_model.h"

/*
 * Merge the entries m[0..nm) of group g (function m[i].f of reps[m[i].rep]; all of g's members,
 * or those of one report: "memcpy" and "memmove" of one report are one function with
 * "memcpy|memmove" of another) into *out, named as g is. tsc_hz is the merged header's rate,
 * for the nanosecond percentiles; 0 leaves out "ns". out->buckets is malloc'd (free it with
 * tt_merge_func_free); out->name and out->names point into g. Returns 0, or -1 after a
 * "tsctrace:" line (out of memory, or a sum past 64 bits).
 */
int tt_merge_func(struct cli_report *const *reps, const struct tt_group *g,
		  const struct tt_group_member *m, size_t nm, uint64_t tsc_hz,
		  struct tt_report_func *out);

/*
 * The self time and per-thread rows of the same entries into *out (merge_self.c), after
 * tt_merge_func: out->self_buckets and out->threads are malloc'd (tt_merge_func_free frees
 * them). Returns 0, or -1 after a "tsctrace:" line.
 */
int tt_merge_self(struct cli_report *const *reps, const struct tt_group *g,
		  const struct tt_group_member *m, size_t nm, struct tt_report_func *out);

/* The objects the merged sites' frames are in (the report's "objects"); v is malloc'd, its
 * strings are the inputs'. */
struct tt_merge_objects {
	struct tt_report_object *v;
	size_t n, cap;
};

/*
 * The call sites ("callers") of the same entries into *out (merge_sites.c), after
 * tt_merge_func: sites of the same frames (object, build ID and address, else name) add up;
 * the objects their frames are in are added to objs. out->callers is malloc'd
 * (tt_merge_func_free frees it). When some input's sites predate site histograms and
 * another's share a site with them, the merged entry has no callers and *dropped is set.
 * Returns 0, or -1 after a "tsctrace:" line.
 */
int tt_merge_sites(struct cli_report *const *reps, const struct tt_group *g,
		   const struct tt_group_member *m, size_t nm, struct tt_merge_objects *objs,
		   struct tt_report_func *out, bool *dropped);

void tt_merge_sites_free(struct tt_report_func *f);

/*
 * The slowest calls, latency by argument and filtered counts of the same entries into *out
 * (merge_tail.c), after tt_merge_func: out->slowest and out->by_arg.buckets are malloc'd
 * (tt_merge_func_free frees them). *by_arg_dropped: the entries time different arguments or
 * filters, and out has no by_arg. Returns 0, or -1 after a "tsctrace:" line.
 */
int tt_merge_tail(struct cli_report *const *reps, const struct tt_group_member *m, size_t nm,
		  struct tt_report_func *out, bool *by_arg_dropped);

void tt_merge_tail_free(struct tt_report_func *f);

/*
 * The reports reps[0..n) merged into one schema-1 report, its JSON appended to out
 * (cmd_merge.c: `tsctrace merge`, and `tsctrace run` at the end of a run). A run given twice
 * is refused unless allow_dups. Returns 0, or -1 after a "tsctrace:" line.
 */
int tt_merge_render(struct cli_report *const *reps, size_t n, bool allow_dups, struct tt_buf *out);

/* Free what tt_merge_func, tt_merge_self, tt_merge_sites and tt_merge_tail allocated for f. */
void tt_merge_func_free(struct tt_report_func *f);

#endif /* TT_MERGE_H */
