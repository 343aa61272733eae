/*
 * folded.h - call paths as folded stacks (Brendan Gregg's format, read by flamegraph.pl,
 * inferno and speedscope): one line per distinct stack, "outer;...;caller;function weight",
 * frames outermost first, the traced function last.
 *
 * A caller frame is the function it lies in ("main", not "main+0x4c (app)"), so that calls
 * from several places of one function are one frame, as perf's stack collapsing does; a frame
 * without a symbol keeps its object and offset ("app+0x139d9"). ';' in a name becomes ':' and
 * control characters '?', so a line always splits back into the same frames.
 */
#ifndef TT_FOLDED_H
#define TT_FOLDED_H

#include "base/buf.h"
#include "cli/callpath.h"

struct tt_stack {
	char *text; /* frames joined by ';' */
	uint64_t weight;
};

/* Distinct stacks in byte order, none of weight 0. */
struct tt_stacks {
	struct tt_stack *s;
	size_t n;
};

/* The stacks of cp weighed by w. Returns 0, or -1 after one "tsctrace: cmd: ..." line. */
int tt_stacks_build(const char *cmd, const struct tt_callpaths *cp, enum tt_weight w,
		    struct tt_stacks *out);
void tt_stacks_free(struct tt_stacks *st);

/* The folded text: "stack weight\n" per stack. */
void tt_stacks_write(struct tt_buf *out, const struct tt_stacks *st);

#endif /* TT_FOLDED_H */
