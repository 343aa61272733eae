/*
 * rundir.h - the directory of one `tsctrace run` (docs/runs.md): made in the directory the
 * command started in, named tsctrace-run.YYYYMMDD-HHMMSS.PID (UTC, so that names sort by
 * time across daylight-saving changes and time zones; the pid of `tsctrace run` tells apart
 * two runs started in the same second). It holds each traced process's JSON report
 * (EXE.PID.json), `empty` (a line per process with nothing traced) and merged.json.
 */
#ifndef TT_RUNDIR_H
#define TT_RUNDIR_H

#include <stddef.h>

#define TT_RUNDIR_PREFIX "tsctrace-run."
#define TT_RUNDIR_MERGED "merged.json"
#define TT_RUNDIR_EMPTY "empty" /* as the shim names it (runtime/run_dir.h) */

/*
 * Make a new run directory in the current directory: its name into name[0..size), its
 * absolute path into abs[0..abs_size). Returns 0, or -1 after a "tsctrace:" line.
 */
int tt_rundir_make(char *name, size_t size, char *abs, size_t abs_size);

/*
 * The latest run directory in the current directory (the greatest time in its name; among
 * runs of the same second, the one modified last) into name[0..size). Returns 0, or -1 after
 * a "tsctrace:" line naming cmd when there is none.
 */
int tt_rundir_latest(const char *cmd, char *name, size_t size);

/*
 * The process reports of run directory dir: "dir/NAME" for each NAME ending in ".json" other
 * than merged.json, sorted by name, in a malloc'd array of malloc'd strings (*files; free
 * with tt_rundir_free). Returns 0, or -1 after a "tsctrace:" line.
 */
int tt_rundir_reports(const char *dir, char ***files, size_t *n);

void tt_rundir_free(char **files, size_t n);

/* How many processes of the run had nothing traced: the lines of dir/empty (0 without). */
size_t tt_rundir_empty_count(const char *dir);

#endif /* TT_RUNDIR_H */
