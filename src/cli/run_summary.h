/*
 * run_summary.h - the end of a `tsctrace run`: its process reports merged into merged.json
 * (cmd_merge.c's code) and the answer printed on stderr.
 */
#ifndef TT_RUN_SUMMARY_H
#define TT_RUN_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Merge the reports in run directory dir (shown as `shown`) into dir/merged.json, then print
 * on stderr the merged summary (per function calls, processes, min, median, p90, p99 and
 * share of the total, heaviest total first, at most top rows; how many processes ran with
 * nothing traced; the plain names of funcs, the run's TSC_FUNCS, that no process called)
 * and where the data is. quiet: only where the data is. Returns 0, or -1 when nothing could
 * be merged (a line says why).
 */
int tt_run_summary(const char *dir, const char *shown, const char *funcs, size_t top, bool quiet);

#endif /* TT_RUN_SUMMARY_H */
