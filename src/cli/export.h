/*
 * export.h - the formats of `tsctrace export`: one function per format, each in its own
 * file, chosen by --format in cmd_export.c.
 */
#ifndef TT_CLI_EXPORT_H
#define TT_CLI_EXPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "cli/load.h"
#include "report/expo.h"

/* What the command line said, for every format (a format ignores what it does not use). */
struct export_args {
	const char *format;	      /* as given to --format */
	bool label_pid;		      /* --label-pid */
	struct tt_expo_label *labels; /* --label NAME=VALUE, in the order given */
	size_t nlabels;
	const char *weight; /* --weight as given (folded), NULL if not */
};

/* A format: append reps[0..n) to out. 0, or -1 after a "tsctrace:" line. */
typedef int (*export_fn)(struct tt_buf *out, struct cli_report **reps, size_t n,
			 const struct export_args *a);

/* prometheus and openmetrics (export_metrics.c). */
int tt_export_metrics(struct tt_buf *out, struct cli_report **reps, size_t n,
		      const struct export_args *a);

/* The reports' call paths as folded stacks, and as a gzipped pprof profile (export_paths.c). */
int tt_export_folded(struct tt_buf *out, struct cli_report **reps, size_t n,
		     const struct export_args *a);
int tt_export_pprof(struct tt_buf *out, struct cli_report **reps, size_t n,
		    const struct export_args *a);

/* The kept slow calls as Chrome trace-event JSON for Perfetto (export_perfetto.c). */
int tt_export_perfetto(struct tt_buf *out, struct cli_report **reps, size_t n,
		       const struct export_args *a);

#endif /* TT_CLI_EXPORT_H */
