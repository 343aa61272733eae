/*
 * outfile.h - where a subcommand's output goes: stdout, or a file replaced atomically.
 *
 * Output is always built whole in memory first (a struct tt_buf), then written with one call
 * here, so a failure half way leaves nothing behind: a file is written to a temporary name in
 * the same directory and renamed over the final name only once complete, as the shim does
 * with its reports (README.md, Usage).
 */
#ifndef TT_OUTFILE_H
#define TT_OUTFILE_H

#include <stddef.h>

/*
 * Write len bytes of data to path, or to stdout when path is NULL or "-". A file gets mode
 * 0666 less the umask; a symlink at path is replaced, not followed. Returns 0, or -1 after a
 * "tsctrace:" line, with no temporary file left.
 */
int tt_outfile_write(const char *path, const char *data, size_t len);

#endif /* TT_OUTFILE_H */
