/*
 * report_build.h - turning the live tables into a report file (libtsctrace(7), REPORT).
 */
#ifndef TT_REPORT_BUILD_H
#define TT_REPORT_BUILD_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "base/basename.h"
#include "config/config.h"
#include "runtime/clock.h"
#include "runtime/overhead.h"

/* What the report needs to know about the run besides the counters. */
struct tt_run {
	struct tt_config cfg;
	struct tt_clock clock;
	struct tt_overhead overhead;
	char **argv; /* copy of /proc/self/cmdline */
	size_t argc;
	/* Never NULL ("" when unknown); these and argv share one buffer, whose first page holds
	 * them all in a short process (one page fault at start-up instead of five). */
	const char *exe;    /* /proc/self/exe at start-up */
	const char *name;   /* the name the user ran: argv[0]'s base name, or comm */
	const char *cwd;    /* for relative TSC_OUTPUT paths */
	const char *tmpdir; /* $TMPDIR at start-up: the last resort for a report */
	int64_t pid;
	bool attached; /* started by tsctrace attach: the report has its window */
};

/* The program's name for the report, its file name (%e) and metrics: the name the user ran,
 * else the executable's base name. */
static inline const char *tt_run_name(const struct tt_run *run)
{
	return run->name && run->name[0] ? run->name : tt_base_name(run->exe);
}

/*
 * Summarise every traced function and write the report where TSC_OUTPUT says (report_out.h:
 * a file, beside a file that must be kept, stderr, or $TMPDIR as a last resort; one line says
 * where), then the metrics when TSC_EXPORT is on. Memory comes from mmap, output goes through raw syscalls. Returns 0 when written to
 * the intended place, -1 otherwise.
 */
int tt_runtime_report_write(const struct tt_run *run);

/*
 * The same, but only the metrics of TSC_EXPORT (export.h), which tt_runtime_report_write also
 * writes after the report. 0, or -1 when not written.
 */
int tt_runtime_report_export(const struct tt_run *run);

#endif /* TT_REPORT_BUILD_H */
