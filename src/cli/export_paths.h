/*
 * export_paths.h - the subcommand parts that draw on TSC_CALLERS call paths:
 *   tsctrace export --folded [--weight calls|cycles|self] [-o OUT] FILE...   (export_paths.c)
 *   tsctrace export --format pprof -o OUT FILE...                            (export_paths.c)
 *   tsctrace plot --flame [--weight W] [--title T] -o OUT.svg FILE...        (plot_flame.c)
 *
 * cmd_export.c and cmd_plot.c hand such an invocation over whole, argv included, when
 * tt_cli_argv_has() finds its format option before any "--".
 */
#ifndef TT_EXPORT_PATHS_H
#define TT_EXPORT_PATHS_H

#include <stdbool.h>

/* argv[1..] holds opt ("--folded"), or with value "--opt value" or "--opt=value". */
bool tt_cli_argv_has(int argc, char **argv, const char *opt, const char *value);

int tt_cli_export_paths(int argc, char **argv);
int tt_cli_plot_flame(int argc, char **argv);

#endif /* TT_EXPORT_PATHS_H */
