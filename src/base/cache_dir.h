/*
 * cache_dir.h - where the shim keeps what it learnt between runs (the overhead calibration,
 * the inline hooks' jump checks): $XDG_CACHE_HOME/tsctrace, else ~/.cache/tsctrace.
 */
#ifndef TT_CACHE_DIR_H
#define TT_CACHE_DIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The directory's path into out, from the environment as it is now; false (out empty) when
 * there is none: a setuid or setgid program (the user's environment must not steer where it
 * writes), neither XDG_CACHE_HOME nor HOME absolute (a relative XDG_CACHE_HOME is invalid and
 * ignored, as XDG says), or a path longer than len. */
bool tt_cache_dir(char *out, size_t len);

/* Make dir, and its parent when missing (~/.cache often is), 0700 as XDG asks; raw system
 * calls, so it may run at exit. True when it exists now. */
bool tt_cache_dir_make(const char *dir);

/* dir/PREFIX-HASH.txt into out, HASH the FNV-1a of key in 16 hex digits: one file per key
 * whatever characters the key holds. False when it does not fit in len. */
bool tt_cache_file_name(const char *dir, const char *prefix, const char *key, char *out,
			size_t len);

/* The line "NAME N\n" at *p, N in base 10 or 16 (lowercase): N into v and *p past the line;
 * false when the line is not that (no digits, too many, anything else before the end). */
bool tt_cache_file_field(const char **p, const char *name, int base, uint64_t *v);

/* A small file of the directory read whole into buf, NUL-terminated (at most len - 1 bytes):
 * its length, or -1 when it cannot be opened. Never follows a link at the name, never waits
 * on a FIFO there; raw system calls. */
long tt_cache_file_read(const char *path, char *buf, size_t len);

/* path replaced whole by buf: written to path.PID.tmp, then renamed over it, so a reader sees
 * the old file or the new one, never a part; the temporary file removed when anything fails.
 * Raw system calls, so it may run at exit. */
void tt_cache_file_replace(const char *path, const char *buf, size_t len);

#endif /* TT_CACHE_DIR_H */
