/*
 * export_paths.c - `tsctrace export --folded` and `tsctrace export --format pprof`: the call
 * paths of reports as folded stacks or as a gzipped pprof profile (see export_paths.h).
 */
#include "export_paths.h"

#include <getopt.h>
#include <string.h>

#include "callpath.h"
#include "cli.h"
#include "folded.h"
#include "load.h"
#include "outfile.h"
#include "pprof.h"

static const struct option paths_opts[] = {
	{ "folded", no_argument, NULL, 'F' },	    { "format", required_argument, NULL, 'f' },
	{ "weight", required_argument, NULL, 'w' }, { "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },	    { NULL, 0, NULL, 0 },
};

bool tt_cli_argv_has(int argc, char **argv, const char *opt, const char *value)
{
	size_t n = strlen(opt);
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--") != 0; i++) {
		if (strncmp(argv[i], opt, n) != 0)
			continue;
		if (!value && !argv[i][n])
			return true;
		if (value && argv[i][n] == '=' && strcmp(argv[i] + n + 1, value) == 0)
			return true;
		if (value && !argv[i][n] && i + 1 < argc && strcmp(argv[i + 1], value) == 0)
			return true;
	}
	return false;
}

struct paths_args {
	bool folded, pprof;
	const char *weight; /* as given, NULL if not */
	enum tt_weight w;
	const char *output;
};

static int parse(int argc, char **argv, struct paths_args *a)
{
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:h", paths_opts, NULL)) != -1) {
		switch (c) {
		case 'F': a->folded = true; break;
		case 'f':
			if (strcmp(optarg, "pprof") != 0) {
				tt_cli_err("export: --format %s cannot go with --folded "
					   "(--folded is a format of its own)",
					   optarg);
				return -1;
			}
			a->pprof = true;
			break;
		case 'w': a->weight = optarg; break;
		case 'o': a->output = optarg; break;
		case 'h': tt_cli_help("export"); return 1;
		default: tt_cli_opt_error("export", c, argv); return -1;
		}
	}
	if (a->folded && a->pprof) {
		tt_cli_err("export: --folded and --format pprof: choose one");
		return -1;
	}
	if (a->weight && a->pprof) {
		tt_cli_err("export: --weight is for --folded (a pprof profile carries calls and "
			   "cycles both)");
		return -1;
	}
	a->w = TT_WEIGHT_CYCLES;
	if (a->weight && !tt_weight_parse(a->weight, &a->w)) {
		tt_cli_err("export: --weight %s: expected calls, cycles or self", a->weight);
		return -1;
	}
	if (a->pprof && (!a->output || !*a->output)) {
		tt_cli_err("export: --format pprof needs -o OUT (- for standard output)");
		return -1;
	}
	if (optind >= argc) {
		tt_cli_err("export: no report given (see tsctrace export --help)");
		return -1;
	}
	return 0;
}

int tt_cli_export_paths(int argc, char **argv)
{
	struct paths_args a = { false, false, NULL, TT_WEIGHT_CYCLES, NULL };
	struct tt_callpaths cp = { NULL, 0 };
	struct tt_stacks st = { NULL, 0 };
	struct tt_buf out = TT_BUF_INIT;
	struct cli_report **reps;
	int rc = CLI_EXIT_BAD, p = parse(argc, argv, &a);
	size_t n;

	if (p)
		return p > 0 ? CLI_EXIT_OK : CLI_EXIT_BAD;
	n = (size_t)(argc - optind);
	reps = tt_load_reports(argv + optind, n);
	if (!reps)
		return CLI_EXIT_BAD;
	if (tt_callpaths_collect("export", reps, n, a.pprof ? TT_WEIGHT_CYCLES : a.w, &cp) < 0)
		goto out_free;
	if (a.pprof) {
		if (tt_pprof_write("export", reps, n, &cp, &out) < 0)
			goto out_free;
	} else {
		if (tt_stacks_build("export", &cp, a.w, &st) < 0)
			goto out_free;
		tt_stacks_write(&out, &st);
	}
	if (out.failed)
		tt_cli_err("export: out of memory");
	else if (tt_outfile_write(a.output, out.data, out.len) == 0)
		rc = CLI_EXIT_OK;
out_free:
	tt_stacks_free(&st);
	tt_callpaths_free(&cp);
	tt_buf_free(&out);
	tt_load_free_all(reps, n);
	return rc;
}
