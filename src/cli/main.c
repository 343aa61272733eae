/*
 * main.c - the tsctrace command: pick the subcommand and hand it the rest of argv.
 *
 * Exit status: what the subcommand returns (0 on success), 2 for bad usage or input; `run`
 * becomes the traced program, so its status is the program's.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
};

static const struct command commands[] = {
	{ "run", tt_cli_run },	     { "report", tt_cli_report }, { "diff", tt_cli_diff },
	{ "merge", tt_cli_merge },   { "plot", tt_cli_plot },	  { "export", tt_cli_export },
	{ "attach", tt_cli_attach },
};

static const struct command *find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

int main(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2) {
		tt_cli_err("no command given (see tsctrace --help)");
		return CLI_EXIT_BAD;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		tt_cli_help(NULL);
		return CLI_EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0) {
		printf("tsctrace %s\n", TT_VERSION);
		return CLI_EXIT_OK;
	}
	if (strcmp(argv[1], "help") == 0) {
		if (argc > 2 && !find(argv[2])) {
			tt_cli_err("help: unknown command '%s' (see tsctrace --help)", argv[2]);
			return CLI_EXIT_BAD;
		}
		tt_cli_help(argc > 2 ? argv[2] : NULL);
		return CLI_EXIT_OK;
	}
	c = find(argv[1]);
	if (!c) {
		tt_cli_err("unknown command '%s' (see tsctrace --help)", argv[1]);
		return CLI_EXIT_BAD;
	}
	return c->fn(argc - 1, argv + 1);
}
