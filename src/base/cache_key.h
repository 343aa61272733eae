/*
 * cache_key.h - the secret key that authenticates what the cache keeps (kept_mac.h): 32
 * random bytes from getrandom(2) in the file "key" of the cache directory, made 0600 and read
 * through the same owner and mode checks as every file there (cache_dir.h). Only a process
 * able to read that file (this user's, or root) can make a record the shim will use; one able
 * to read it could already run any code as this user (docs/security.md).
 */
#ifndef TT_CACHE_KEY_H
#define TT_CACHE_KEY_H

#include <stdbool.h>
#include <stdint.h>

#include "base/siphash.h"

#define TT_CACHE_KEY_FILE_BYTES 32 /* the file's length; the MAC's key is its first 16 */

/*
 * The key of the cache directory dir into key (the first TT_SIPHASH_KEY bytes of the file),
 * kept for the rest of the process once found. When the file is missing or not
 * TT_CACHE_KEY_FILE_BYTES long: with make (dir exists), a new key is written through a
 * temporary file created exclusively, linked to "key" when there was none (of two processes
 * the first link wins, and the other reads it) or renamed over a bad one, so that the
 * records kept under the old key fail their check and are made again; without make, false.
 * False too when the cache was refused (a file not the user's alone) or no random bytes
 * could be had. Raw system calls; start-up and dlopen bookkeeping, one thread at a time.
 */
bool tt_cache_key(const char *dir, bool make, uint8_t key[TT_SIPHASH_KEY]);

#endif /* TT_CACHE_KEY_H */
