/*
 * buf.h - a growable byte buffer for building reports.
 *
 * Memory comes from mmap/mremap (raw syscalls), never malloc: a report may be written from an
 * _exit wrapper or after a fatal signal, where the malloc lock may be held by the interrupted
 * code. A failed allocation sets `failed` and later appends are dropped, so callers check once
 * at the end.
 */
#ifndef TT_BUF_H
#define TT_BUF_H

#include <stdbool.h>
#include <stddef.h>

struct tt_buf {
	char *data;  /* NUL-terminated after every append */
	size_t len;  /* bytes used, excluding the NUL */
	size_t cap;  /* bytes mapped */
	bool failed; /* an allocation failed; contents are truncated */
	bool lent;   /* data is the caller's memory (tt_buf_lend): never remapped or unmapped */
};

#define TT_BUF_INIT \
	{           \
		0   \
	}

/* Start b on the caller's memory (size > 0 bytes): a short text then needs no mapping; a longer
 * one moves to a mapping of its own, and mem stays the caller's. */
void tt_buf_lend(struct tt_buf *b, char *mem, size_t size);

/* Append n bytes. */
void tt_buf_append(struct tt_buf *b, const char *s, size_t n);

/* Append a NUL-terminated string. */
void tt_buf_puts(struct tt_buf *b, const char *s);

/* Append printf-formatted text (vsnprintf: no locks, no malloc). */
void tt_buf_printf(struct tt_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Release the memory; b becomes empty and reusable. */
void tt_buf_free(struct tt_buf *b);

#endif /* TT_BUF_H */
