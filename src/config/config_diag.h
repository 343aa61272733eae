/*
 * config_diag.h - how the TSC_* parser words a problem (internal to config*.c).
 *
 * Each problem becomes one line handed to the caller's callback (config.h), never printed
 * here. User strings quoted in a line go through tt_config_diag_show(), so one cause stays one
 * short line whatever the environment holds.
 */
#ifndef TT_CONFIG_DIAG_H
#define TT_CONFIG_DIAG_H

#include <stddef.h>

#include "config/config.h"

#define TT_SHOW_BYTES 64		 /* bytes of a user string quoted in a message */
#define TT_SHOW_SIZE (TT_SHOW_BYTES + 4) /* plus "..." and the NUL */

/* Where diagnostic lines go: the callback and context given to tt_config_parse(). */
struct tt_config_diag {
	tt_config_diag_fn fn; /* NULL: lines are dropped */
	void *ctx;
};

/* Format one line (cut to 511 bytes) and hand it to d->fn; nothing when d->fn is NULL. */
void tt_config_diag_say(const struct tt_config_diag *d, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * s[0..len) made fit for a message: at most TT_SHOW_BYTES bytes, cut between UTF-8 characters
 * and marked "...", control bytes as '?'. s need not be NUL-terminated. Returns buf.
 */
const char *tt_config_diag_show(char buf[TT_SHOW_SIZE], const char *s, size_t len);

#endif /* TT_CONFIG_DIAG_H */
