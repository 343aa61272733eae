/*
 * config_value.h - the syntax of TSC_* values that are not a fixed word: decimal numbers, CPU
 * lists and signal names (internal to config.c).
 *
 * Pure string-to-value functions: no message, no struct tt_config, no global. config.c turns
 * their error codes into the one line per cause and applies the default.
 */
#ifndef TT_CONFIG_VALUE_H
#define TT_CONFIG_VALUE_H

#include <stdint.h>

#include "config/config.h"

/* Decimal digits only (no sign, no blank). 0, -EINVAL when not a number, -ERANGE when too big;
 * *out is set only on success. */
int tt_config_value_u64(const char *s, uint64_t *out);

/* A duration "10s" or "500ms" (digits, then s or ms) in milliseconds. 0, -EINVAL (junk or no
 * unit) or -ERANGE (too big); *ms is set only on success. */
int tt_config_value_ms(const char *s, uint64_t *ms);

/* A list such as "0,2-3" into a bit set of TT_CONFIG_MAX_CPUS bits (always cleared first).
 * 0, -EINVAL (junk), -ERANGE (CPU above TT_CONFIG_MAX_CPUS - 1) or -EDOM (reversed range). */
int tt_config_value_cpus(const char *s, uint64_t cpus[TT_CONFIG_MAX_CPUS / 64]);

/*
 * A signal as TSC_DUMP_SIGNAL spells it: a number 1-64, a name with or without SIG ("USR1",
 * "SIGUSR1"), or RTMIN+n / RTMAX-n. 0 with *sig set, else -EINVAL (not a signal) or -ERANGE;
 * *why is then a short reason for the message, or NULL. Fatal signals parse: see below.
 */
int tt_config_value_signal(const char *val, int *sig, const char **why);

/* Why signal sig cannot carry the dump ("cannot be caught", "reports a crash", ...), or NULL
 * when it can. */
const char *tt_config_value_refusal(int sig);

#endif /* TT_CONFIG_VALUE_H */
