/*
 * svg.h - the few SVG elements the plots need, written straight into a struct tt_buf.
 *
 * Coordinates are user units (pixels at 100% zoom), printed with two decimals in the C locale
 * (the command never calls setlocale). Text is escaped for XML and characters XML 1.0 cannot
 * carry (C0 controls, U+FFFE, U+FFFF) become '?', so the document is always well-formed.
 */
#ifndef TT_SVG_H
#define TT_SVG_H

#include "base/buf.h"

/* The XML declaration and the <svg> element of a w x h image, white background. */
void tt_svg_begin(struct tt_buf *out, double w, double h);
void tt_svg_end(struct tt_buf *out);

/* s escaped for XML text or attribute values. */
void tt_svg_escape(struct tt_buf *out, const char *s);

/* Text at (x, y) (baseline); anchor "start", "middle" or "end"; size in px. */
void tt_svg_text(struct tt_buf *out, double x, double y, const char *anchor, double size,
		 const char *text);

void tt_svg_rect(struct tt_buf *out, double x, double y, double w, double h, const char *fill);
void tt_svg_line(struct tt_buf *out, double x1, double y1, double x2, double y2,
		 const char *stroke);
void tt_svg_circle(struct tt_buf *out, double x, double y, double r, const char *fill);

/* A polyline: begin, any number of points, end. */
void tt_svg_poly_begin(struct tt_buf *out, const char *stroke);
void tt_svg_poly_point(struct tt_buf *out, double x, double y);
void tt_svg_poly_end(struct tt_buf *out);

#endif /* TT_SVG_H */
