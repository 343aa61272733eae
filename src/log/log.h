/*
 * log.h - the shim's only voice: one line on stderr per message, prefixed "tsctrace: ".
 * Written with a raw write(2) from a stack buffer to the shim's private duplicate of stderr
 * (channel.h): no stdio lock, no malloc, errno kept.
 */
#ifndef TT_LOG_H
#define TT_LOG_H

#include <stdbool.h>
#include <stddef.h>

/* An error or a degraded run (always printed). */
void tt_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Information (silenced by TSC_QUIET=1). */
void tt_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Where a report went ("report written to PATH"): like tt_info, but not kept among the
 * warnings of a later report (a dump's line would otherwise be in the final report). */
void tt_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Every line printed so far (also the quiet ones), for the report's warnings. Fills up to
 * max pointers to static storage; returns how many lines there are. */
size_t tt_log_lines(const char **out, size_t max);

/* TSC_QUIET. */
void tt_log_set_quiet(bool quiet);

#endif /* TT_LOG_H */
