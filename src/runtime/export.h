/*
 * export.h - TSC_EXPORT: the counters so far as Prometheus text, rewritten every
 * TSC_EXPORT_INTERVAL from a helper thread, and once more with every report (at exit too).
 */
#ifndef TT_EXPORT_H
#define TT_EXPORT_H

#include <stdbool.h>

#include "base/buf.h"
#include "runtime/report_build.h"

/*
 * With TSC_EXPORT set: expand its template (%p %e %t %%, relative to the start-up
 * directory), say where metrics go, and start the helper thread, which calls write_now()
 * (which builds the metrics and calls tt_export_deliver) every interval.
 */
void tt_export_start(const struct tt_run *run, int (*write_now)(void));

/* In a fork child (run->pid already its own): with %p in the template, export to the
 * child's own file from a thread of its own; otherwise never (the file is the parent's). */
void tt_export_after_fork_child(const struct tt_run *run);

/* True when the template holds %p: one file per process, so every series has a pid label. */
bool tt_export_per_process(void);

/* True when this process exports: TSC_EXPORT was usable and this is not a fork child. */
bool tt_export_enabled(void);

/*
 * Replace the export file with b atomically (a temporary file in the same directory, then
 * rename). Raw system calls, no malloc. A failure is said once per cause. 0 or -1.
 */
int tt_export_deliver(const struct tt_buf *b);

#endif /* TT_EXPORT_H */
