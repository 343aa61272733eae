/*
 * pprof.h - call paths as a gzipped profile.proto (the pprof format, read by `go tool pprof`,
 * Pyroscope and Parca), built with protobuf-c from the profile.proto Debian's
 * golang-github-google-pprof-dev installs (the build generates the C code) and gzipped with
 * zlib.
 *
 * One sample per call path, leaf first: the traced function, then its callers. Sample types:
 * calls/count and cycles/count, plus time/nanoseconds converted at each report's tsc_hz
 * (reports of the monotonic clock: calls/count and time/nanoseconds only); the default is
 * cycles (time). Labels: program (base name) and pid. A location per distinct frame
 * function, with address 0 and one line naming its function; a mapping per object, marked
 * as already symbolized so that pprof does not look for the binaries.
 */
#ifndef TT_PPROF_H
#define TT_PPROF_H

#include "base/buf.h"
#include "cli/callpath.h"

/* The profile of cp (collected from reps with TT_WEIGHT_CYCLES) into out. Returns 0, or -1
 * after one "tsctrace: cmd: ..." line. */
int tt_pprof_write(const char *cmd, struct cli_report **reps, size_t n,
		   const struct tt_callpaths *cp, struct tt_buf *out);

#endif /* TT_PPROF_H */
