/*
 * cli.h - the tsctrace command: its subcommands, exit statuses and the one-line messages.
 *
 * Each subcommand lives in its own cmd_<name>.c and is called by main.c with argv[0] set to
 * the subcommand's name. A subcommand reads and checks all of its input before it writes a
 * byte, so bad input leaves no partial output: not on stdout, not in an output file.
 */
#ifndef TT_CLI_H
#define TT_CLI_H

#include <stdbool.h>
#include <stddef.h>

#define CLI_EXIT_OK 0
#define CLI_EXIT_BAD 2 /* bad usage or bad input; also what `run` returns when exec fails */

int tt_cli_run(int argc, char **argv);
int tt_cli_report(int argc, char **argv);
int tt_cli_diff(int argc, char **argv);
int tt_cli_merge(int argc, char **argv);
int tt_cli_plot(int argc, char **argv);
int tt_cli_export(int argc, char **argv);
int tt_cli_attach(int argc, char **argv);

/*
 * Print one line "tsctrace: <message>" on stderr. Control characters in the result (a file
 * name with a newline in it) become '?', so a message is always exactly one line.
 */
void tt_cli_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Report a getopt_long() failure of subcommand cmd on one line and return CLI_EXIT_BAD.
 * ret is what getopt_long returned ('?' or ':'), argv the vector it parsed.
 */
int tt_cli_opt_error(const char *cmd, int ret, char **argv);

/* Write the help text of a subcommand (or of the command when cmd is NULL) to stdout. */
void tt_cli_help(const char *cmd);

/* Parse a decimal count in [1, SIZE_MAX]; false on anything else (signs, spaces, 0, overflow). */
bool tt_cli_parse_count(const char *s, size_t *out);

#endif /* TT_CLI_H */
