/*
 * rundir.h - the directory of one `tsctrace run` (docs/runs.md): made in the directory the
 * command started in, named tsctrace-run.YYYYMMDD-HHMMSS.PID (UTC, so that names sort by
 * time across daylight-saving changes and time zones; the pid of `tsctrace run` tells apart
 * two runs started in the same second). It holds every traced process's JSON report, one
 * after another in reports.json-seq (a JSON text sequence, RFC 7464: an RS byte before each),
 * `empty` (a line per process with nothing traced) and merged.json.
 */
#ifndef TT_RUNDIR_H
#define TT_RUNDIR_H

#include <stddef.h>

#include "cli/load.h"

#define TT_RUNDIR_PREFIX "tsctrace-run."
#define TT_RUNDIR_MERGED "merged.json"
#define TT_RUNDIR_EMPTY "empty" /* as the shim names them (runtime/run_dir.h) */
#define TT_RUNDIR_REPORTS "reports.json-seq"

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

/* The process reports of a run. */
struct tt_run_reports {
	struct cli_report **v; /* malloc'd; each named "DIR/reports.json-seq, #N (EXE, pid P)" */
	size_t n;
	size_t unreadable; /* records left out: cut short, not JSON, not a report */
	char **labels;	   /* the names of v's reports (and of those left out) */
	size_t nlabels;
};

/*
 * Read the process reports of run directory dir (its reports.json-seq; none when it is
 * missing). A record that is not a report is named on one line and counted in unreadable;
 * of two records of one process image (the same pid and start time: a dump, then the report
 * at exit) the later is kept. Returns 0, or -1 after a "tsctrace:" line (the file cannot be
 * read, or is larger than tt_load_cap()).
 */
int tt_rundir_load(const char *dir, struct tt_run_reports *out);

void tt_rundir_reports_free(struct tt_run_reports *r);

/* How many processes of the run had nothing traced: the lines of dir/empty (0 without). */
size_t tt_rundir_empty_count(const char *dir);

#endif /* TT_RUNDIR_H */
