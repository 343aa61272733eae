/*
 * xref.c - see xref.h. One pass over an object's executable segment per batch of patches,
 * a few instructions per byte; short jumps are only looked for near the ranges.
 */
#include <emmintrin.h>
#include <string.h>

#include "x86/xref.h"

/* Called for every candidate byte: inlined into the scan loop. */
#define HOT static inline __attribute__((always_inline))

HOT void mark(uint64_t t, uint64_t from, uint64_t lo, uint64_t hi, struct tt_xref_range *r,
	      size_t n)
{
	size_t k;

	if (t < lo || t >= hi)
		return;
	for (k = 0; k < n; k++)
		if (t >= r[k].lo && t < r[k].hi && !r[k].hit &&
		    (from < r[k].own_lo || from >= r[k].own_hi)) {
			r[k].hit = true;
			r[k].from = from;
		}
}

/* Short jumps (EB, 7x, E0-E3 rel8) reach 128 bytes: only sources near a range are tried. */
static void scan_rel8(const uint8_t *code, size_t len, uint64_t addr, uint64_t lo, uint64_t hi,
		      struct tt_xref_range *r, size_t n)
{
	uint64_t from = lo > addr + 130 ? lo - 130 : addr;
	uint64_t to = hi + 130 < addr + len - 1 ? hi + 130 : addr + len - 1;
	uint64_t at;

	for (at = from; at < to; at++) {
		uint8_t b = code[at - addr];

		if (b == 0xeb || (b & 0xf0) == 0x70 || (b >= 0xe0 && b <= 0xe3))
			mark(at + 2 + (int64_t)(int8_t)code[at - addr + 1], at, lo, hi, r, n);
	}
}

/* The rel32 branch whose opcode is at code[i], if it is one. */
HOT void rel32_at(const uint8_t *code, size_t i, uint64_t addr, uint64_t lo, uint64_t hi,
		  struct tt_xref_range *r, size_t n)
{
	uint8_t b = code[i];
	int32_t rel;

	if ((b & 0xfe) == 0xe8) {
		memcpy(&rel, code + i + 1, 4);
		mark(addr + i + 5 + (int64_t)rel, addr + i, lo, hi, r, n);
	} else if (b == 0x0f && (code[i + 1] & 0xf0) == 0x80) {
		memcpy(&rel, code + i + 2, 4);
		mark(addr + i + 6 + (int64_t)rel, addr + i, lo, hi, r, n);
	}
}

void tt_xref_scan(const uint8_t *code, size_t len, uint64_t addr, struct tt_xref_range *r, size_t n)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	size_t i, k;

	for (k = 0; k < n; k++) {
		lo = r[k].lo < lo ? r[k].lo : lo;
		hi = r[k].hi > hi ? r[k].hi : hi;
	}
	if (len < 6 || lo >= hi)
		return;
	for (k = 0; k < n; k++)
		scan_rel8(code, len, addr, r[k].lo, r[k].hi, r, n);
	/* rel32: call/jmp (E8/E9) and jcc (0F 8x), from anywhere. 16 bytes at a time (SSE2,
	 * part of x86-64 itself): a mask of the candidate opcode bytes, then each candidate. */
	for (i = 0; i + 16 + 6 <= len; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(code + i));
		__m128i next = _mm_loadu_si128((const __m128i *)(const void *)(code + i + 1));
		__m128i e8 = _mm_cmpeq_epi8(_mm_and_si128(v, _mm_set1_epi8((char)0xfe)),
					    _mm_set1_epi8((char)0xe8));
		__m128i of = _mm_and_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(0x0f)),
					   _mm_cmpeq_epi8(_mm_and_si128(next,
									_mm_set1_epi8((char)0xf0)),
							  _mm_set1_epi8((char)0x80)));
		unsigned int m = (unsigned int)_mm_movemask_epi8(_mm_or_si128(e8, of));

		while (m) {
			size_t j = i + (size_t)__builtin_ctz(m);

			m &= m - 1;
			rel32_at(code, j, addr, lo, hi, r, n);
		}
	}
	for (; i + 5 <= len; i++) /* E8/E9 need 5 bytes, 0F 8x 6 */
		if (i + 6 <= len || (code[i] & 0xfe) == 0xe8)
			rel32_at(code, i, addr, lo, hi, r, n);
}
