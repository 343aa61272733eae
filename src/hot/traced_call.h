/*
 * hook.h - what the hot path's C offers the rest of the shim (the assembly's side is tramp.h).
 */
#ifndef TT_HOOK_H
#define TT_HOOK_H

#include <stdint.h>

#include "hot/thread.h"

/* Record a finished call into site's counters too (TSC_CALLERS), then release its frame:
 * tt_hook_exit's work, for exit paths that found the site themselves. */
void tt_hook_finish(struct tt_frame *f, uint64_t raw, uint32_t aux, struct tt_fstat *site);

#endif /* TT_HOOK_H */
