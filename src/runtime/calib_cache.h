/*
 * calib_cache.h - the overhead calibration kept between runs (TSC_CACHE, on by default).
 *
 * The burst that measures the overhead costs a short process about half a millisecond at its
 * first report. Its figures depend on the CPU, the trampoline variant, the hook route and the
 * shim's build, nothing else: they are kept in $XDG_CACHE_HOME/tsctrace/ (else
 * ~/.cache/tsctrace/), one small file per key, and used by a later run only with the same key
 * and after a short check burst agrees with them (lifecycle.c). Every failure (no HOME, a
 * read-only or missing directory, a corrupt file) just means measuring as before: nothing is
 * said and nothing breaks. Raw system calls only: it runs at the report, perhaps at exit.
 */
#ifndef TT_CALIB_CACHE_H
#define TT_CALIB_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "config/config.h"
#include "runtime/clock.h"
#include "runtime/overhead.h"

struct tt_calib_key {
	char text[400]; /* one line naming everything the figures depend on */
};

/* The cache directory from the environment (start-up: the program may change it later), into
 * out; false when there is none (TSC_CACHE=0, neither XDG_CACHE_HOME nor HOME absolute). */
bool tt_calib_cache_dir(const struct tt_config *cfg, char *out, size_t len);

/* The key of this process's figures; c must be described (tt_clock_describe). */
void tt_calib_cache_key(const struct tt_clock *c, const struct tt_config *cfg, bool inline_route,
			struct tt_calib_key *k);

/* The figures kept under k in dir into out (min, median, nested, granularity; source unset):
 * true when a well-formed file of exactly that key was found. */
bool tt_calib_cache_load(const char *dir, const struct tt_calib_key *k, struct tt_overhead *out);

/* Keep o under k in dir: a temporary file renamed into place. Silent when it cannot. */
void tt_calib_cache_store(const char *dir, const struct tt_calib_key *k,
			  const struct tt_overhead *o);

#endif /* TT_CALIB_CACHE_H */
