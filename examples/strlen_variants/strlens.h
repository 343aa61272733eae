/*
 * strlens.h - four strlen implementations exported from libstrlens.so.
 *
 * They live in a shared library on purpose: the program calls them through its PLT, exactly
 * like it calls libc's strlen, so tsctrace sees all four the same way and each per-call sample
 * contains the same call/return path.
 */
#ifndef STRLENS_H
#define STRLENS_H

#include <stddef.h>

/* One byte per iteration: the textbook loop. */
size_t bytes_strlen(const char *s);

/* Eight bytes per iteration with the "has a zero byte" trick (v - 0x01..01) & ~v & 0x80..80. */
size_t words_strlen(const char *s);

/* Sixteen bytes per iteration: pcmpeqb against zero, pmovmskb, count trailing zeros. */
size_t sse2_strlen(const char *s);

#endif /* STRLENS_H */
