/*
 * build_id_hex.h - is a string a GNU build ID in hex. The tsctrace command builds debug-file
 * paths from the build IDs a report names (DIR/.build-id/xx/yyyy.debug); a report is input,
 * and "../../x" there would name a file outside DIR.
 */
#ifndef TT_BUILD_ID_HEX_H
#define TT_BUILD_ID_HEX_H

#include <stdbool.h>

/* Build IDs are 1 to 64 bytes: SHA-1's 20 is usual, 8 or 16 (xxhash, md5) and 32 are met. */
#define TT_BUILD_ID_HEX_MIN 2
#define TT_BUILD_ID_HEX_MAX 128

/* s holds an even number, TT_BUILD_ID_HEX_MIN to TT_BUILD_ID_HEX_MAX, of hex digits and
 * nothing else. */
bool tt_build_id_hex_ok(const char *s);

#endif /* TT_BUILD_ID_HEX_H */
