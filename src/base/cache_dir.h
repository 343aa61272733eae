/*
 * cache_dir.h - where the shim keeps what it learnt between runs (the overhead calibration,
 * the inline hooks' jump checks): $XDG_CACHE_HOME/tsctrace, else ~/.cache/tsctrace.
 */
#ifndef TT_CACHE_DIR_H
#define TT_CACHE_DIR_H

#include <stdbool.h>
#include <stddef.h>

/* The directory's path into out, from the environment as it is now; false (out empty) when
 * there is none: a setuid or setgid program (the user's environment must not steer where it
 * writes), neither XDG_CACHE_HOME nor HOME absolute (a relative XDG_CACHE_HOME is invalid and
 * ignored, as XDG says), or a path longer than len. */
bool tt_cache_dir(char *out, size_t len);

/* Make dir, and its parent when missing (~/.cache often is), 0700 as XDG asks; raw system
 * calls, so it may run at exit. True when it exists now. */
bool tt_cache_dir_make(const char *dir);

#endif /* TT_CACHE_DIR_H */
