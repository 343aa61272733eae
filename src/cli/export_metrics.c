/*
 * export_metrics.c - `tsctrace export --format prometheus|openmetrics`: reports as metrics,
 * written by the shim's own writer (report/expo.c), so that a file exported here and one the
 * shim writes live (TSC_EXPORT) are the same format, series for series.
 */
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/export.h"

int tt_export_metrics(struct tt_buf *out, struct cli_report **reps, size_t n,
		      const struct export_args *a)
{
	const struct tt_report **r = malloc(n * sizeof(*r));
	struct tt_expo_opts o = {
		.format = strcmp(a->format, "openmetrics") ? TT_EXPO_PROMETHEUS
							   : TT_EXPO_OPENMETRICS,
		.label_pid = a->label_pid,
		.labels = a->labels,
		.nlabels = a->nlabels,
	};
	size_t i;
	int rc;

	if (!r) {
		tt_cli_err("export: out of memory");
		return -1;
	}
	for (i = 0; i < n; i++)
		r[i] = &reps[i]->r;
	rc = tt_expo_write(out, r, n, &o);
	free(r);
	if (rc < 0)
		tt_cli_err("export: out of memory");
	return rc;
}
