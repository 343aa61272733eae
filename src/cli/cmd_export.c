/*
 * cmd_export.c - `tsctrace export --format FORMAT [-o OUT] FILE...`: reports in a format other
 * tools read. This file parses the command line, loads the reports and hands them to the
 * format's function (export.h); each format lives in its own file:
 *
 *   prometheus, openmetrics   export_metrics.c (series of all the reports added by label set)
 *   folded, pprof             export_paths.c (the reports' call paths)
 *   perfetto                  export_perfetto.c (the kept slow calls as a timeline)
 *
 * --openmetrics and --folded are other spellings of --format openmetrics and --format folded.
 * Each format says which of the other options it takes; the rest are refused, not ignored.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "cli/cli.h"
#include "cli/export.h"
#include "cli/load.h"
#include "cli/outfile.h"

static const struct format {
	const char *name;
	export_fn write;
	bool labels;	   /* takes --label and --label-pid */
	bool weight;	   /* takes --weight */
	bool needs_output; /* binary: never to a terminal by default, -o required */
} formats[] = {
	{ "prometheus", tt_export_metrics, true, false, false },
	{ "openmetrics", tt_export_metrics, true, false, false },
	{ "folded", tt_export_folded, false, true, false },
	{ "pprof", tt_export_pprof, false, false, true },
	{ "perfetto", tt_export_perfetto, false, false, false },
};

/* Long-only options have values that are not in getopt's string. */
static const struct option export_opts[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "openmetrics", no_argument, NULL, 'M' },
	{ "folded", no_argument, NULL, 'F' },
	{ "weight", required_argument, NULL, 'w' },
	{ "label", required_argument, NULL, 'L' },
	{ "label-pid", no_argument, NULL, 'P' },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const struct format *find_format(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++)
		if (!strcmp(formats[i].name, name))
			return &formats[i];
	return NULL;
}

/* --format NAME or one of its other spellings: one format a command. 0, or -1 after a line. */
static int set_format(struct export_args *a, const char *name)
{
	if (a->format && strcmp(a->format, name) != 0) {
		tt_cli_err("export: --format %s and --format %s: choose one", a->format, name);
		return -1;
	}
	a->format = name;
	return 0;
}

/* The options f does not take, refused with one line. 0, or -1. */
static int check_options(const struct format *f, const struct export_args *a, const char *output)
{
	if (!f->labels && (a->nlabels || a->label_pid)) {
		tt_cli_err(
			"export: --label and --label-pid are for --format prometheus|openmetrics");
		return -1;
	}
	if (!f->weight && a->weight) {
		tt_cli_err("export: --weight is for --folded%s",
			   !strcmp(f->name, "pprof")
				   ? " (a pprof profile carries calls and cycles both)"
				   : "");
		return -1;
	}
	if (f->needs_output && (!output || !*output)) {
		tt_cli_err("export: --format %s needs -o OUT (- for standard output)", f->name);
		return -1;
	}
	return 0;
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
	const struct format *f;
	struct cli_report **reps;
	int c, rc = CLI_EXIT_BAD;
	size_t n;

	/* At most one label per argument: argc bounds them. */
	a.labels = calloc((size_t)argc + 1, sizeof(*a.labels));
	if (!a.labels) {
		tt_cli_err("export: out of memory");
		return CLI_EXIT_BAD;
	}
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":f:o:h", export_opts, NULL)) != -1) {
		switch (c) {
		case 'f':
		case 'M':
		case 'F':
			if (set_format(&a, c == 'f'   ? optarg
					   : c == 'M' ? "openmetrics"
						      : "folded") < 0)
				goto out_args;
			break;
		case 'w': a.weight = optarg; break;
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
		tt_cli_err("export: say which format: --format "
			   "prometheus|openmetrics|folded|pprof|perfetto (see tsctrace export "
			   "--help)");
		goto out_args;
	}
	f = find_format(a.format);
	if (!f) {
		tt_cli_err("export: unknown format %s (prometheus, openmetrics, folded, pprof, "
			   "perfetto)",
			   a.format);
		goto out_args;
	}
	if (check_options(f, &a, output) < 0)
		goto out_args;
	if (!n) {
		tt_cli_err("export: no report given (see tsctrace export --help)");
		goto out_args;
	}
	reps = tt_load_reports(argv + optind, n);
	if (!reps)
		goto out_args;
	if (f->write(&out, reps, n, &a) == 0 && tt_outfile_write(output, out.data, out.len) == 0)
		rc = CLI_EXIT_OK;
	tt_buf_free(&out);
	tt_load_free_all(reps, n);
out_args:
	free(a.labels);
	return rc;
}
