/*
 * flame.c - a flame graph of folded stacks (see flame.h).
 */
#include "cli/flame.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/svg.h"

#define MARGIN 10  /* px left and right */
#define TOP 60	   /* px above the deepest row */
#define ROW 16	   /* px per frame row */
#define FONT 11	   /* px */
#define CHAR_W 6.6 /* px: a generous width of one character at FONT */
#define NONE SIZE_MAX

struct node {
	const char *name;
	size_t len;
	uint64_t weight, start; /* start: the weight left of the frame, from the root's left */
	size_t depth, child, last, next;
};

struct tree {
	struct node *n;
	size_t count, cap, depth;
};

static size_t add_node(struct tree *t, size_t parent, const char *name, size_t len)
{
	struct node *n;

	if (t->count == t->cap) {
		size_t cap = t->cap ? 2 * t->cap : 64;
		struct node *nn = realloc(t->n, cap * sizeof(*nn));

		if (!nn)
			return NONE;
		t->n = nn;
		t->cap = cap;
	}
	n = &t->n[t->count];
	memset(n, 0, sizeof(*n));
	n->name = name;
	n->len = len;
	n->child = n->last = n->next = NONE;
	if (parent != NONE) {
		struct node *p = &t->n[parent];

		n->depth = p->depth + 1;
		if (p->last == NONE)
			p->child = t->count;
		else
			t->n[p->last].next = t->count;
		p->last = t->count;
		if (n->depth > t->depth)
			t->depth = n->depth;
	}
	return t->count++;
}

static size_t find_child(const struct tree *t, size_t parent, const char *name, size_t len)
{
	size_t c;

	for (c = t->n[parent].child; c != NONE; c = t->n[c].next)
		if (t->n[c].len == len && memcmp(t->n[c].name, name, len) == 0)
			return c;
	return NONE;
}

static int build(struct tree *t, const struct tt_stacks *st)
{
	size_t i, c, cur;

	if (add_node(t, NONE, "all", 3) == NONE)
		return -1;
	for (i = 0; i < st->n; i++) {
		const char *p = st->s[i].text, *end;

		t->n[0].weight += st->s[i].weight;
		cur = 0;
		for (; *p; p = *end ? end + 1 : end) {
			end = strchrnul(p, ';');
			c = find_child(t, cur, p, (size_t)(end - p));
			if (c == NONE && (c = add_node(t, cur, p, (size_t)(end - p))) == NONE)
				return -1;
			t->n[c].weight += st->s[i].weight;
			cur = c;
		}
	}
	/* Parents come before their children: one pass places every frame. */
	for (i = 0; i < t->count; i++) {
		uint64_t at = t->n[i].start;

		for (c = t->n[i].child; c != NONE; c = t->n[c].next) {
			t->n[c].start = at;
			at += t->n[c].weight;
		}
	}
	return 0;
}

/* The x of weight offset v, in hundredths of a pixel. */
static uint64_t edge(uint64_t v, uint64_t total)
{
	const uint64_t span = (TT_FLAME_WIDTH - 2 * MARGIN) * 100;

	return MARGIN * 100 + (uint64_t)((unsigned __int128)v * span / total);
}

static void hundredths(char *out, size_t size, uint64_t v)
{
	snprintf(out, size, "%" PRIu64 ".%02" PRIu64, v / 100, v % 100);
}

/* Warm colours, from a hash of the name (FNV-1a), as flame graphs of CPU time use. */
static void colour(char *out, size_t size, const char *name, size_t len)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ (unsigned char)name[i]) * 16777619u;
	snprintf(out, size, "rgb(%u,%u,%u)", 205 + h % 50, 80 + (h >> 8) % 150, (h >> 16) % 55);
}

/* The name cut to at most max bytes with "..", never inside a UTF-8 sequence. */
static void label(char *out, size_t size, const char *name, size_t len, size_t max)
{
	size_t n = len;

	if (n > max) {
		n = max >= 2 ? max - 2 : 0;
		while (n > 0 && ((unsigned char)name[n] & 0xc0) == 0x80)
			n--;
	}
	if (n >= size - 3)
		n = size - 3;
	memcpy(out, name, n);
	strcpy(out + n, n < len ? ".." : "");
}

static void frame(struct tt_buf *out, const struct node *n, uint64_t total, size_t depth,
		  const char *unit)
{
	uint64_t x0 = edge(n->start, total), x1 = edge(n->start + n->weight, total);
	double y = TOP + (double)(depth - n->depth) * ROW, w = (double)(x1 - x0) / 100;
	char xs[32], ws[32], fill[32], text[256], tip[96];
	size_t max = w > 6 ? (size_t)((w - 6) / CHAR_W) : 0;
	char *name;

	if (x1 - x0 < 10)
		return; /* under 0.1 px: not drawn, as flamegraph.pl does */
	name = strndup(n->name, n->len);
	hundredths(xs, sizeof(xs), x0);
	hundredths(ws, sizeof(ws), x1 - x0);
	colour(fill, sizeof(fill), n->name, n->len);
	if (!name) {
		out->failed = true;
		return;
	}
	tt_buf_puts(out, "<g><title>");
	tt_svg_escape(out, name);
	free(name);
	snprintf(tip, sizeof(tip), " (%" PRIu64 " %s, %.2f%%)", n->weight, unit,
		 100.0 * (double)n->weight / (double)total);
	tt_svg_escape(out, tip);
	tt_buf_printf(out,
		      "</title><rect x=\"%s\" y=\"%.2f\" width=\"%s\" height=\"%d\" fill=\"%s\" "
		      "rx=\"2\"/>",
		      xs, y, ws, ROW - 1, fill);
	if (max >= 3) {
		label(text, sizeof(text), n->name, n->len, max);
		tt_buf_printf(out, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"%d\">",
			      (double)x0 / 100 + 3, y + ROW - 4.5, FONT);
		tt_svg_escape(out, text);
		tt_buf_puts(out, "</text>");
	}
	tt_buf_puts(out, "</g>\n");
}

int tt_flame_draw(struct tt_buf *out, const struct tt_stacks *st, const char *title,
		  const char *subtitle, const char *unit)
{
	struct tree t = { NULL, 0, 0, 0 };
	double h;
	size_t i;

	if (build(&t, st) < 0) {
		free(t.n);
		return -1;
	}
	h = TOP + (double)(t.depth + 1) * ROW + MARGIN;
	tt_svg_begin(out, TT_FLAME_WIDTH, h);
	tt_buf_puts(out, "<title>");
	tt_svg_escape(out, title);
	tt_buf_puts(out, "</title>\n");
	tt_svg_text(out, TT_FLAME_WIDTH / 2.0, 24, "middle", 17, title);
	tt_svg_text(out, TT_FLAME_WIDTH / 2.0, 44, "middle", 12, subtitle);
	if (!t.n[0].weight)
		tt_svg_text(out, TT_FLAME_WIDTH / 2.0, TOP + ROW - 4.5, "middle", FONT,
			    "(no calls carry this weight)");
	else
		for (i = 0; i < t.count; i++)
			frame(out, &t.n[i], t.n[0].weight, t.depth, unit);
	tt_svg_end(out);
	free(t.n);
	return out->failed ? -1 : 0;
}
