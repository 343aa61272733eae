/*
 * svg.c - SVG elements into a buffer (see svg.h).
 */
#include "cli/svg.h"

void tt_svg_begin(struct tt_buf *out, double w, double h)
{
	tt_buf_printf(out,
		      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		      "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n",
		      w, h, w, h);
	tt_svg_rect(out, 0, 0, w, h, "white");
}

void tt_svg_end(struct tt_buf *out)
{
	tt_buf_puts(out, "</svg>\n");
}

void tt_svg_escape(struct tt_buf *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	for (; *p; p++) {
		switch (*p) {
		case '&': tt_buf_puts(out, "&amp;"); continue;
		case '<': tt_buf_puts(out, "&lt;"); continue;
		case '>': tt_buf_puts(out, "&gt;"); continue;
		case '"': tt_buf_puts(out, "&quot;"); continue;
		case '\'': tt_buf_puts(out, "&apos;"); continue;
		}
		if (*p < 0x20 || *p == 0x7f) {
			tt_buf_puts(out, "?");
		} else if (p[0] == 0xef && p[1] == 0xbf && (p[2] == 0xbe || p[2] == 0xbf)) {
			tt_buf_puts(out, "?"); /* U+FFFE, U+FFFF: not XML characters */
			p += 2;
		} else {
			tt_buf_append(out, (const char *)p, 1);
		}
	}
}

void tt_svg_text(struct tt_buf *out, double x, double y, const char *anchor, double size,
		 const char *text)
{
	tt_buf_printf(out, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\" font-size=\"%.1f\">", x,
		      y, anchor, size);
	tt_svg_escape(out, text);
	tt_buf_puts(out, "</text>\n");
}

void tt_svg_rect(struct tt_buf *out, double x, double y, double w, double h, const char *fill)
{
	tt_buf_printf(out,
		      "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
		      "fill=\"%s\"/>\n",
		      x, y, w, h, fill);
}

void tt_svg_line(struct tt_buf *out, double x1, double y1, double x2, double y2, const char *stroke)
{
	tt_buf_printf(out,
		      "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
		      "stroke=\"%s\" stroke-width=\"1\"/>\n",
		      x1, y1, x2, y2, stroke);
}

void tt_svg_circle(struct tt_buf *out, double x, double y, double r, const char *fill)
{
	tt_buf_printf(out, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.2f\" fill=\"%s\"/>\n", x, y, r,
		      fill);
}

void tt_svg_poly_begin(struct tt_buf *out, const char *stroke)
{
	tt_buf_printf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"",
		      stroke);
}

void tt_svg_poly_point(struct tt_buf *out, double x, double y)
{
	tt_buf_printf(out, "%.2f,%.2f ", x, y);
}

void tt_svg_poly_end(struct tt_buf *out)
{
	tt_buf_puts(out, "\"/>\n");
}
