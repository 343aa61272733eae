/*
 * flame.h - folded stacks drawn as a flame graph (SVG, with svg.c): the root "all" at the
 * bottom, each frame above its caller, widths proportional to weight, children in the
 * stacks' byte order from the left. Each frame is a <g> with a <title> tooltip (name,
 * weight, share of the total); names are cut to fit with "..". The output depends only on
 * the input: no clock, no random colours (a frame's colour is a hash of its name).
 *
 * Edges are computed in integer hundredths of a pixel from the weight before a frame
 * (floor), so a frame's children never reach past it and neighbours never overlap.
 */
#ifndef TT_FLAME_H
#define TT_FLAME_H

#include "base/buf.h"
#include "cli/folded.h"

#define TT_FLAME_WIDTH 1200 /* px */

/* Draw st; title and subtitle head the image, unit names the weight in tooltips. Returns 0,
 * or -1 when out of memory. */
int tt_flame_draw(struct tt_buf *out, const struct tt_stacks *st, const char *title,
		  const char *subtitle, const char *unit);

#endif /* TT_FLAME_H */
