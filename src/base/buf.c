/*
 * buf.c - growable byte buffer on anonymous mappings, for building reports.
 *
 * The report may be written from an _exit wrapper or a fatal signal, where the interrupted
 * code may hold the malloc lock, so memory comes from raw mmap/mremap (sys.h), which take no
 * lock and leave errno alone. A report is a few KiB per traced function: starting at one page
 * and doubling keeps it to a handful of mremap calls, and mremap moves pages instead of
 * copying them.
 *
 * Failure is sticky: the first allocation that fails sets `failed`, keeps what was already
 * written (still NUL-terminated) and drops every later append, so callers test once at the end
 * and never see a half-written line followed by more text.
 */

#include "base/buf.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "base/sys.h"

#define PAGE 4096u /* x86-64 base page; mappings are made in whole pages anyway */

/* Smallest capacity worth mapping that holds need bytes: doubling, in whole pages. */
static size_t grown_cap(size_t cap, size_t need)
{
	size_t c = cap ? cap : PAGE;

	while (c < need && c <= SIZE_MAX / 2)
		c *= 2;
	if (c < need) /* need > 2^63: no address space holds it */
		return 0;
	return c;
}

/* Make room for n more bytes plus the NUL. Returns false (and sets failed) if impossible. */
static bool reserve(struct tt_buf *b, size_t n)
{
	size_t cap;
	void *p;

	if (b->failed)
		return false;
	if (n < b->cap - b->len) /* unmapped: 0 - 0, so even n = 0 maps a page */
		return true;
	/* Off lent memory: whole pages from the first mapping on. */
	cap = n > SIZE_MAX - 1 - b->len ? 0 : grown_cap(b->lent ? 0 : b->cap, b->len + n + 1);
	if (cap == 0)
		goto fail;
	if (b->data && !b->lent)
		p = tt_sys_mremap(b->data, b->cap, cap, MREMAP_MAYMOVE);
	else
		p = tt_sys_mmap(NULL, cap, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
				0);
	if (!p)
		goto fail;
	if (b->lent) {
		memcpy(p, b->data, b->len + 1);
		b->lent = false;
	}
	b->data = p;
	b->cap = cap;
	return true;
fail:
	b->failed = true;
	return false;
}

void tt_buf_lend(struct tt_buf *b, char *mem, size_t size)
{
	*b = (struct tt_buf)TT_BUF_INIT;
	b->data = mem;
	b->cap = size;
	b->lent = true;
	mem[0] = '\0';
}

void tt_buf_append(struct tt_buf *b, const char *s, size_t n)
{
	if (!reserve(b, n))
		return;
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = '\0';
}

void tt_buf_puts(struct tt_buf *b, const char *s)
{
	tt_buf_append(b, s, strlen(s));
}

/* Format into the free space; returns vsnprintf's would-be length, or -1. */
__attribute__((format(printf, 2, 0))) static int format_tail(struct tt_buf *b, const char *fmt,
							     va_list ap)
{
	if (!b->data) /* nothing mapped yet: only measure */
		return vsnprintf(NULL, 0, fmt, ap);
	return vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
}

void tt_buf_printf(struct tt_buf *b, const char *fmt, ...)
{
	va_list ap, again;
	int n;

	if (b->failed)
		return;
	va_start(ap, fmt);
	va_copy(again, ap);
	n = format_tail(b, fmt, ap);
	/* Too long for the free space: grow to fit and format once more. */
	if (n >= 0 && (size_t)n >= b->cap - b->len && reserve(b, (size_t)n))
		n = format_tail(b, fmt, again);
	va_end(again);
	va_end(ap);
	if (n < 0 || (size_t)n >= b->cap - b->len) {
		/* Bad format or no memory: drop the partial text a truncated try left. */
		b->failed = true;
		if (b->data)
			b->data[b->len] = '\0';
		return;
	}
	b->len += (size_t)n;
}

void tt_buf_free(struct tt_buf *b)
{
	if (b->data && !b->lent)
		tt_sys_munmap(b->data, b->cap);
	*b = (struct tt_buf)TT_BUF_INIT;
}
