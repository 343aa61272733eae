/*
 * msg.c - the command's messages: one line each on stderr, prefixed "tsctrace: ", as the shim's
 * own (README.md, Usage), and the small parsing helpers every subcommand shares.
 */
#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define MSG_MAX 1024 /* longer messages are cut: they name a file and a reason */

void tt_cli_err(const char *fmt, ...)
{
	char line[MSG_MAX];
	va_list ap;
	size_t i;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* A file name is the user's, and may hold a newline or an escape sequence. */
	for (i = 0; line[i]; i++)
		if ((unsigned char)line[i] < 0x20 || line[i] == 0x7f)
			line[i] = '?';
	fprintf(stderr, "tsctrace: %s\n", line);
}

int tt_cli_opt_error(const char *cmd, int ret, char **argv)
{
	char shortopt[3] = { '-', (char)optopt, '\0' };
	/* optopt names an unknown short option; anything else is in the argument just read
	 * (for a long option optopt is its short twin, not what the user typed). */
	const char *opt = ret == '?' && optopt ? shortopt : argv[optind - 1];

	if (ret == ':')
		tt_cli_err("%s: option '%s' needs a value (see tsctrace %s --help)", cmd, opt, cmd);
	else
		tt_cli_err("%s: unknown option '%s' (see tsctrace %s --help)", cmd, opt, cmd);
	return CLI_EXIT_BAD;
}

bool tt_cli_parse_count(const char *s, size_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || *s < '0' || *s > '9') /* strtoull would take blanks and a '-' */
		return false;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v == 0 || v > SIZE_MAX)
		return false;
	*out = (size_t)v;
	return true;
}
