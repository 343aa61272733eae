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
 * ignored, as XDG says), a path longer than len, or the cache refused (below). */
bool tt_cache_dir(char *out, size_t len);

/*
 * Trust (docs/security.md). What the cache holds steers what the shim executes, so it is used
 * only when no one but the effective user (or root, who can anyway) can have written it: the
 * directory, its parent and every file read must be owned by the effective user and not
 * writable by group or others (the directory itself and the files are not followed when
 * they are links; the files are checked on the opened descriptor). The first one that is
 * not refuses the whole cache for the rest of the process: nothing more is read or written.
 */

/* Why dir or its parent may not be used ("... is writable by others"), NULL when both are
 * fine or missing (the shim will make them, 0700). Raw system calls. */
const char *tt_cache_dir_untrusted(const char *dir, char *why, size_t len);

/* Refuse the cache from now on, why (copied) being the first reason given. */
void tt_cache_refuse(const char *why);

/* True once the cache was refused. */
bool tt_cache_refused(void);

/* The reason of the refusal, once per process (NULL before a refusal and after the first
 * call that returned it): the caller says it in one line. */
const char *tt_cache_refusal_unsaid(void);

/* True when the opened file descriptor fd (path, for the reason) may be read: a regular file
 * of the effective user not writable by group or others; otherwise the cache is refused. */
bool tt_cache_file_trusted(int fd, const char *path);

/* Make dir, and its parent when missing (~/.cache often is), 0700 whatever the umask; raw
 * system calls, so it may run at exit. True when it exists now and is trusted (else the
 * cache is refused). */
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

/* dir/PREFIX-HASH.txt of key read into buf (len bytes) when it begins with the line magic
 * (its "\n" included) and the line "key KEY": a pointer to the fields after them, else NULL
 * (no dir, no such file, not trusted, another format or key). The kept files' one reader. */
const char *tt_cache_file_load_keyed(const char *dir, const char *prefix, const char *magic,
				     const char *key, char *buf, size_t len);

/* dir/PREFIX-HASH.txt of key replaced by buf[0..n), the directory made when missing; n < 0
 * or n >= cap (snprintf's answer for a buffer of cap bytes) writes nothing. The kept files'
 * one writer. */
void tt_cache_file_store(const char *dir, const char *prefix, const char *key, const char *buf,
			 int n, size_t cap);

#endif /* TT_CACHE_DIR_H */
