/*
 * resolve.h - from TSC_FUNCS entries to functions in the table (funcs.h).
 */
#ifndef TT_RESOLVE_H
#define TT_RESOLVE_H

#include "config/config.h"

/*
 * Resolve every entry of cfg against the loaded objects and add what is found to the
 * function table, printing one line per entry that cannot be traced. Entries not found yet
 * stay pending for tt_resolve_pending(). cfg must outlive the run.
 */
void tt_resolve_all(const struct tt_config *cfg);

/* Retry the pending entries (after dlopen). Returns how many were added. */
unsigned int tt_resolve_pending(void);

#endif /* TT_RESOLVE_H */
