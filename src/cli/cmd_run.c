/*
 * cmd_run.c - `tsctrace run`: set TSC_FUNCS, TSC_OUTPUT, TSC_FORMAT, TSC_FOLLOW and LD_PRELOAD,
 * then exec the program, which so keeps our pid, stdio and exit status.
 *
 * The format is --json or --text, else what -o's name says (.json, .txt), else TSC_FORMAT's.
 *
 * The shim is found as shim_path.h says.
 *
 * Ours goes after any LD_PRELOAD already set: a sanitizer runtime must come first, and that is
 * the order the shim is tested in (tests/prog/run.sh); its hooks are GOT patches, which do not
 * depend on the order. LD_PRELOAD separates entries with spaces and colons, so a path holding
 * either cannot be passed and is refused.
 *
 * A statically linked program (no PT_INTERP: static_exe.h) is run all the same, after one
 * line saying that nothing in it can be traced: no loader runs there to honour LD_PRELOAD.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "cli.h"
#include "shim_path.h"
#include "static_exe.h"

static const struct option run_opts[] = {
	{ "funcs", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "json", no_argument, NULL, 'j' },
	{ "text", no_argument, NULL, 't' },
	{ "no-follow", no_argument, NULL, 'F' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Whether the space- or colon-separated list has lib as one of its entries. */
static bool listed(const char *list, const char *lib)
{
	size_t len = strlen(lib), n;

	for (; *list; list += n + (list[n] != '\0')) {
		n = strcspn(list, " :");
		if (n == len && strncmp(list, lib, len) == 0)
			return true;
	}
	return false;
}

/* LD_PRELOAD with lib appended, unless it is there already. */
static int set_preload(const char *lib)
{
	const char *old = getenv("LD_PRELOAD");
	char *val = NULL;

	if (strpbrk(lib, " :\t\n")) {
		tt_cli_err("run: %s: LD_PRELOAD cannot carry a path with a space or a colon", lib);
		return -1;
	}
	if (old && listed(old, lib))
		return 0;
	if (old && *old && asprintf(&val, "%s:%s", old, lib) < 0)
		val = NULL; /* asprintf leaves it undefined */
	if ((old && *old && !val) || setenv("LD_PRELOAD", val ? val : lib, 1) < 0) {
		tt_cli_err("run: cannot set LD_PRELOAD: %s", strerror(errno));
		free(val);
		return -1;
	}
	free(val);
	return 0;
}

/* Whether name ends in ext ("name.json"), case aside. */
static bool ends_in(const char *name, const char *ext)
{
	size_t n = strlen(name), e = strlen(ext);

	return n > e && strcasecmp(name + n - e, ext) == 0;
}

/*
 * The format: --json or --text when given; else the one -o's extension names (x.json is JSON
 * whatever TSC_FORMAT says: `tsctrace report x.json` must be able to read it); else NULL,
 * TSC_FORMAT as set.
 */
static const char *format_of(const char *output, const char *asked)
{
	if (asked)
		return asked;
	if (output && ends_in(output, ".json"))
		return "json";
	if (output && ends_in(output, ".txt"))
		return "text";
	return NULL;
}

static int set_env(const char *funcs, const char *output, const char *format, bool no_follow)
{
	const char *cur = getenv("TSC_FUNCS");

	if (!funcs && (!cur || !*cur)) {
		tt_cli_err("run: no functions to trace: give -f NAMES (or set TSC_FUNCS)");
		return -1;
	}
	if ((funcs && setenv("TSC_FUNCS", funcs, 1) < 0) ||
	    (output && setenv("TSC_OUTPUT", output, 1) < 0) ||
	    (format && setenv("TSC_FORMAT", format, 1) < 0) ||
	    (no_follow && setenv("TSC_FOLLOW", "0", 1) < 0)) {
		tt_cli_err("run: cannot set the environment: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int tt_cli_run(int argc, char **argv)
{
	const char *funcs = NULL, *output = NULL, *format = NULL;
	char lib[PATH_MAX];
	bool no_follow = false;
	int c;

	opterr = 0;
	/* '+': options end at the program's name, whose own options are its business. */
	while ((c = getopt_long(argc, argv, "+:f:o:h", run_opts, NULL)) != -1) {
		switch (c) {
		case 'f': funcs = optarg; break;
		case 'o': output = optarg; break;
		case 'j': format = "json"; break;
		case 't': format = "text"; break;
		case 'F': no_follow = true; break;
		case 'h': tt_cli_help("run"); return CLI_EXIT_OK;
		default: return tt_cli_opt_error("run", c, argv);
		}
	}
	if (optind >= argc) {
		tt_cli_err("run: no program given (see tsctrace run --help)");
		return CLI_EXIT_BAD;
	}
	if (funcs && !*funcs) {
		tt_cli_err("run: -f needs at least one function name");
		return CLI_EXIT_BAD;
	}
	if (set_env(funcs, output, format_of(output, format), no_follow) < 0 ||
	    tt_cli_find_shim("run", lib) < 0 || set_preload(lib) < 0)
		return CLI_EXIT_BAD;
	/* Run all the same: the program is the user's, only the tracing is lost. */
	if (tt_cli_is_static(argv[optind]))
		tt_cli_err("run: %s is statically linked (no dynamic loader: a Go program without "
			   "cgo is one): LD_PRELOAD cannot reach it, nothing is traced and no "
			   "report will be written",
			   argv[optind]);
	execvp(argv[optind], argv + optind);
	tt_cli_err("run: cannot run %s: %s", argv[optind], strerror(errno));
	return CLI_EXIT_BAD;
}
