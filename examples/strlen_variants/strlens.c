/*
 * strlens.c - three hand-written strlen implementations for the strlen_variants example.
 *
 * Built -O2 with -fno-builtin and -fno-tree-loop-distribute-patterns so that GCC neither
 * recognises the byte loop as strlen (GCC 14 would turn it into a call to libc's strlen) nor
 * inlines anything into the caller: every function is noinline and default-visible, so the
 * example program reaches it through the PLT.
 *
 * words_strlen and sse2_strlen read whole aligned words/vectors, possibly past the terminating
 * NUL. An aligned 8- or 16-byte load never crosses a page boundary, so it cannot fault, but it
 * does read bytes outside the object: AddressSanitizer would flag it, hence no_sanitize_address.
 */
#include "strlens.h"

#include <emmintrin.h>
#include <stdint.h>

#define EXPORT __attribute__((visibility("default"), noinline))
#define NO_ASAN __attribute__((no_sanitize_address))

EXPORT size_t bytes_strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

/* A word type that may alias the chars it is loaded from. */
typedef uint64_t __attribute__((may_alias)) word_t;

#define ONES 0x0101010101010101ull
#define HIGHS 0x8080808080808080ull

EXPORT NO_ASAN size_t words_strlen(const char *s)
{
	const char *p = s;
	const word_t *w;
	uint64_t v, zero;

	/* Up to 7 single bytes until p is 8-aligned. */
	for (; (uintptr_t)p & 7; p++)
		if (!*p)
			return (size_t)(p - s);
	/*
	 * (v - ONES) & ~v & HIGHS is non-zero iff some byte of v is zero. Bits above the first
	 * zero byte may be false positives (a borrow ripples through 0x01 bytes), but the lowest
	 * set bit is exact, and on little-endian x86 the lowest bit is the first byte in memory.
	 */
	for (w = (const word_t *)p;; w++) {
		v = *w;
		zero = (v - ONES) & ~v & HIGHS;
		if (zero)
			break;
	}
	return (size_t)((const char *)w - s) + (size_t)(__builtin_ctzll(zero) >> 3);
}

EXPORT NO_ASAN size_t sse2_strlen(const char *s)
{
	const __m128i nul = _mm_setzero_si128();
	uintptr_t skew = (uintptr_t)s & 15;
	const __m128i *v = (const __m128i *)((uintptr_t)s - skew);
	unsigned int mask;

	/* First vector: aligned down, so drop the match bits of the bytes before s. */
	mask = (unsigned int)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_load_si128(v), nul)) >> skew;
	if (mask)
		return (size_t)__builtin_ctz(mask);
	for (;;) {
		v++;
		mask = (unsigned int)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_load_si128(v), nul));
		if (mask)
			return (size_t)((const char *)v - s) + (size_t)__builtin_ctz(mask);
	}
}
