/*
 * cmd_export.c - `tsctrace export --format FORMAT [-o OUT] FILE...`: reports in a format other
 * tools read. This file parses the command line, loads the reports and hands them to the
 * format's function (export.h); each format lives in its own file:
 *
 *   prometheus, openmetrics   export_metrics.c (series of all the reports added by label set)
 *   pprof, --folded           export_paths.c (call paths; it parses its own options)
 *
 * --openmetrics is kept as another spelling of --format openmetrics.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "cli.h"
#include "export.h"
#include "export_paths.h"
#include "load.h"
#include "outfile.h"

static const struct {
	const char *name;
	export_fn write;
} formats[] = {
	{ "prometheus", tt_export_metrics },
	{ "openmetrics", tt_export_metrics },
};

/* Long-only options have values that are not in getopt's string. */
static const struct option export_opts[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "openmetrics", no_argument, NULL, 'M' },
	{ "label", required_argument, NULL, 'L' },
	{ "label-pid", no_argument, NULL, 'P' },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static export_fn find_format(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(formats[i].name, name))
			return formats[i].write;
	return NULL;
}

/* --label NAME=VALUE into a->labels (pointing into arg). 0, or -1 after a line. */
static int add_label(struct export_args *a, char *arg, size_t max)
{
	char *eq = strchr(arg, '=');
	const char *why;
	size_t i;

	if (!eq) {
		tt_cli_err("export: --label %s: expected NAME=VALUE", arg);
		return -1;
	}
	*eq = 0;
	why = tt_expo_label_refusal(arg);
	if (why) {
		tt_cli_err("export: --label %s: %s", arg, why);
		return -1;
	}
	for (i = 0; i < a->nlabels; i++) {
		if (!strcmp(a->labels[i].name, arg)) {
			tt_cli_err("export: --label %s given twice", arg);
			return -1;
		}
	}
	if (a->nlabels < max) {
		a->labels[a->nlabels].name = arg;
		a->labels[a->nlabels++].value = eq + 1;
	}
	return 0;
}

int tt_cli_export(int argc, char **argv)
{
	struct tt_buf out = TT_BUF_INIT;
	struct export_args a = { .format = NULL };
	const char *output = NULL;
	struct cli_report **reps;
	export_fn write = NULL;
	int c, rc = CLI_EXIT_BAD;
	size_t n;

	if (tt_cli_argv_has(argc, argv, "--folded", NULL) ||
	    tt_cli_argv_has(argc, argv, "--format", "pprof"))
		return tt_cli_export_paths(argc, argv);
	/* At most one label per argument: argc bounds them. */
	a.labels = calloc((size_t)argc + 1, sizeof(*a.labels));
	if (!a.labels) {
		tt_cli_err("export: out of memory");
		return CLI_EXIT_BAD;
	}
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:o:h", export_opts, NULL)) != -1) {
		switch (c) {
		case 'f': a.format = optarg; break;
		case 'M': a.format = "openmetrics"; break;
		case 'L':
			if (add_label(&a, optarg, (size_t)argc) < 0)
				goto out_args;
			break;
		case 'P': a.label_pid = true; break;
		case 'o': output = optarg; break;
		case 'h':
			tt_cli_help("export");
			rc = CLI_EXIT_OK;
			goto out_args;
		default: rc = tt_cli_opt_error("export", c, argv); goto out_args;
		}
	}
	n = (size_t)(argc - optind);
	if (!a.format) {
		tt_cli_err("export: say which format: --format prometheus|openmetrics (see "
			   "tsctrace export --help)");
		goto out_args;
	}
	write = find_format(a.format);
	if (!write) {
		tt_cli_err("export: unknown format %s (prometheus, openmetrics)", a.format);
		goto out_args;
	}
	if (!n) {
		tt_cli_err("export: no report given (see tsctrace export --help)");
		goto out_args;
	}
	reps = tt_load_reports(argv + optind, n);
	if (!reps)
		goto out_args;
	if (write(&out, reps, n, &a) == 0 && tt_outfile_write(output, out.data, out.len) == 0)
		rc = CLI_EXIT_OK;
	tt_buf_free(&out);
	tt_load_free_all(reps, n);
out_args:
	free(a.labels);
	return rc;
}
