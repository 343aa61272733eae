/*
 * config_funcs.h - the TSC_FUNCS value into struct tt_func_spec entries (internal to config.c).
 */
#ifndef TT_CONFIG_FUNCS_H
#define TT_CONFIG_FUNCS_H

#include "config/config.h"
#include "config/config_diag.h"

/*
 * Parse val, the value of TSC_FUNCS: entries separated by commas and/or white space, each
 * `name`, `name@VERSION`, `object:name` or a glob (libtsctrace(7), ENVIRONMENT). Kept entries are
 * appended to cfg->funcs / cfg->nfuncs, which must be empty (NULL, 0) on entry; a duplicate is
 * merged into the first, a malformed entry is skipped with one line to d, and past 1024 entries
 * one line says the rest are skipped. Returns 0, or -ENOMEM; cfg->funcs then holds what was
 * kept so far, for tt_config_free() to release.
 */
int tt_config_funcs_parse(const char *val, struct tt_config *cfg, const struct tt_config_diag *d);

#endif /* TT_CONFIG_FUNCS_H */
