/*
 * report_path.h - expansion of the TSC_OUTPUT template (pure).
 */
#ifndef TT_REPORT_PATH_H
#define TT_REPORT_PATH_H

#include <stddef.h>
#include <stdint.h>

/*
 * Expand tmpl into out[0..size): %p pid, %e executable base name, %t start time in unix
 * seconds, %% a '%'. Any other '%x' is kept literally. Returns the length written, or -1 if it
 * did not fit (out is then an empty string). "-" is returned unchanged (it means stderr).
 */
int tt_report_path_expand(const char *tmpl, int64_t pid, const char *exe_base,
			  uint64_t start_unix_s, char *out, size_t size);

/* The default template for a format: "tsctrace.%e.%p.txt" or "tsctrace.%e.%p.json". */
const char *tt_report_path_default(int json);

#endif /* TT_REPORT_PATH_H */
