/*
 * load_text.h - the shim's text report read back as a schema-1 JSON document (load_text.c),
 * which tt_load_report_root then checks like any JSON report.
 */
#ifndef TT_LOAD_TEXT_H
#define TT_LOAD_TEXT_H

#include <jansson.h>

/* The text (NUL-terminated; cut into lines in place) as JSON; NULL after one "tsctrace:" line
 * naming what the text lacks, and the TSC_FORMAT=json way to get it. */
json_t *tt_load_text(const char *file, char *text);

struct cli_report;

/* -1 after one "tsctrace:" line when one of reps was read from a text that showed part
 * ("callers", "self", "threads", "slowest", "by_arg"; what: their name for people), which the
 * text loader leaves out: a command that needs it must not take its absence for none. */
int tt_load_text_lacks(const char *cmd, struct cli_report *const *reps, size_t n, const char *part,
		       const char *what);

#endif /* TT_LOAD_TEXT_H */
