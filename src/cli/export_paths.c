/*
 * export_paths.c - `tsctrace export --format folded` (--folded) and `--format pprof`: the call
 * paths of reports (TSC_CALLERS) as folded stacks or as a gzipped pprof profile. cmd_export.c
 * parses the command line and checks which options a format takes.
 */
#include "cli/cli.h"
#include "cli/callpath.h"
#include "cli/export.h"
#include "cli/folded.h"
#include "cli/pprof.h"

/* A format's end: 0, or -1 after a line when out ran out of memory. */
static int done(const struct tt_buf *out)
{
	if (!out->failed)
		return 0;
	tt_cli_err("export: out of memory");
	return -1;
}

int tt_export_folded(struct tt_buf *out, struct cli_report **reps, size_t n,
		     const struct export_args *a)
{
	struct tt_callpaths cp = { NULL, 0 };
	struct tt_stacks st = { NULL, 0 };
	enum tt_weight w = TT_WEIGHT_CYCLES;
	int rc = -1;

	if (a->weight && !tt_weight_parse(a->weight, &w)) {
		tt_cli_err("export: --weight %s: expected calls, cycles or self", a->weight);
		return -1;
	}
	if (tt_callpaths_collect("export", reps, n, w, &cp) == 0 &&
	    tt_stacks_build("export", &cp, w, &st) == 0) {
		tt_stacks_write(out, &st);
		rc = done(out);
	}
	tt_stacks_free(&st);
	tt_callpaths_free(&cp);
	return rc;
}

int tt_export_pprof(struct tt_buf *out, struct cli_report **reps, size_t n,
		    const struct export_args *a)
{
	struct tt_callpaths cp = { NULL, 0 };
	int rc = -1;

	(void)a; /* cmd_export.c refused what a profile cannot take */
	if (tt_callpaths_collect("export", reps, n, TT_WEIGHT_CYCLES, &cp) == 0 &&
	    tt_pprof_write("export", reps, n, &cp, out) == 0)
		rc = done(out);
	tt_callpaths_free(&cp);
	return rc;
}
