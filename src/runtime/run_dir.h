/*
 * run_dir.h - reports of a `tsctrace run` (TSC_RUN_DIR): each process's report appended to
 * the run's one file of reports, and a line in its `empty` file for a process with nothing
 * traced.
 */
#ifndef TT_RUN_DIR_H
#define TT_RUN_DIR_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "runtime/report_build.h"

/* The run directory's files (tsctrace run reads them: src/cli/rundir.h). The reports are a
 * JSON text sequence (RFC 7464): each report preceded by an RS byte (0x1e). */
#define TT_RUN_DIR_REPORTS "reports.json-seq"
#define TT_RUN_DIR_EMPTY "empty"

/*
 * Whether this process's report is to be left out, TSC_EMPTY=1 not asking for it: no traced
 * function was found in it, or under TSC_RUN_DIR none was called. Under TSC_RUN_DIR the
 * process is then counted, one line "PID EXE" appended to the run's `empty` file. Raw system
 * calls, no malloc.
 */
bool tt_run_dir_skip_empty(const struct tt_run *run);

/*
 * Append b, after an RS byte, to TSC_RUN_DIR/reports.json-seq in one write: no file made per
 * process (on a busy ext4 creating one costs more than a short process's whole run), no
 * temporary file and rename, no line. A later report of the same image (a dump's, then the
 * one at exit) is appended too; the reader keeps the last of each. The file's path is left in
 * path[0..size). 0, or -errno.
 */
long tt_run_dir_deliver(const struct tt_run *run, const struct tt_buf *b, char *path, size_t size);

#endif /* TT_RUN_DIR_H */
