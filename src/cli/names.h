/*
 * names.h - function names as the tsctrace command shows them: C++ symbols demangled.
 *
 * Reports keep raw symbols ("name", "names"), which is what the subcommands match -f and
 * group by; what they print goes through here. One helper, so that report, diff, plot and
 * export show a function the same way.
 */
#ifndef TT_CLI_NAMES_H
#define TT_CLI_NAMES_H

#include <stddef.h>

#define TT_CLI_NAME_BYTES 1024 /* a buffer for tt_cli_display_name: longer names are cut */

/* name with each C++ symbol in it demangled, into buf[0..size) (cut at size - 1 bytes);
 * returns name itself when it holds none. */
const char *tt_cli_display_name(const char *name, char *buf, size_t size);

#endif /* TT_CLI_NAMES_H */
