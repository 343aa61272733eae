/*
 * report_out.h - where a finished report goes, and the line saying where.
 */
#ifndef TT_REPORT_OUT_H
#define TT_REPORT_OUT_H

#include "base/buf.h"
#include "runtime/report_build.h"

/*
 * Deliver b as TSC_OUTPUT says (report_out.c has the rules), then one `tsctrace:` line
 * saying where it went (silenced by TSC_QUIET=1; none for stderr or a device; always one
 * when it could not go where TSC_OUTPUT says). Raw system calls, no malloc. Returns 0 when
 * the report went to the name TSC_OUTPUT gives (or beside a report of this run), -1 when it
 * had to go elsewhere or was lost.
 */
int tt_runtime_report_deliver(const struct tt_run *run, const struct tt_buf *b);

/* The next report is a new one (a second attach's): it no longer replaces the last one
 * written, as a later dump of the same run does. */
void tt_runtime_report_forget(void);

#endif /* TT_REPORT_OUT_H */
