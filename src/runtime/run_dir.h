/*
 * run_dir.h - reports of a `tsctrace run` (TSC_RUN_DIR): each process's report straight into
 * the run's own directory, and a line in its `empty` file for a process with nothing traced.
 */
#ifndef TT_RUN_DIR_H
#define TT_RUN_DIR_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "runtime/report.h"

/* The name of the file in the run directory that counts the processes with nothing traced:
 * one line "PID EXE" each (tsctrace run reads it). */
#define TT_RUN_DIR_EMPTY "empty"

/*
 * Whether this process's report is to be left out, TSC_EMPTY=1 not asking for it: no traced
 * function was found in it, or under TSC_RUN_DIR none was called. Under TSC_RUN_DIR the
 * process is then counted, one line appended to the run's `empty` file. Raw system calls, no
 * malloc.
 */
bool tt_run_dir_skip_empty(const struct tt_run *run);

/*
 * Write b to TSC_RUN_DIR/EXE.PID.json (EXE.PID-2.json, ... when a reused pid finds its name
 * taken), created exclusively and written in place: the directory is the run's own, no other
 * report is there to judge or replace, so none of TSC_OUTPUT's temporary file and rename.
 * No line on success. The name tried last is left in path[0..size). 0, or -errno.
 */
long tt_run_dir_deliver(const struct tt_run *run, const struct tt_buf *b, char *path, size_t size);

#endif /* TT_RUN_DIR_H */
