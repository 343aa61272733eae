/*
 * sites.h - call sites of a report named from debug information: "leaf+0xe at t.c:23 (app)"
 * where the shim could only say "app+0x12f1" (a stripped program) or give no source line.
 *
 * The shim records, per frame of each call site, its object (path and GNU build ID, the
 * report's "objects") and its address in that file ("locations"). Here elfutils' libdwfl
 * finds each object's symbols and DWARF line table: the file at the recorded path when its
 * build ID matches, else the ELF or debug file named by the build ID under a debug directory
 * (DIR/.build-id/xx/yyyy.debug); separate debug files by build ID or .gnu_debuglink, in the
 * given directories, beside the file, its .debug/ and /usr/lib/debug. Frames that cannot be
 * named better, and reports from before "locations", stay as the shim wrote them.
 */
#ifndef TT_CLI_SITES_H
#define TT_CLI_SITES_H

#include <stddef.h>

#include "cli/load.h"

struct tt_sites;

/*
 * Rename the callers' frames and sites of rep in place (rep->funcs[*].callers), looking in
 * dirs[0..ndirs) before the standard places. The new strings belong to *out, which must
 * outlive rep's use and is released with tt_sites_free. Returns 0, or -1 after a "tsctrace:"
 * line (out of memory).
 */
int tt_sites_resolve(struct cli_report *rep, const char *const *dirs, size_t ndirs,
		     struct tt_sites **out);

void tt_sites_free(struct tt_sites *s);

#endif /* TT_CLI_SITES_H */
