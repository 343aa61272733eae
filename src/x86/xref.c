/*
 * xref.c - see xref.h. One pass over an object's executable segment per batch of patches,
 * a few instructions per byte; short jumps are only looked for near the ranges. Decoding
 * costs ~100 times more per byte, so it is spent only on the rare candidates aimed at a
 * range: the known range holding one is followed from its start up to it (and on from
 * there for the next candidate in the same range, as the scan goes up the addresses).
 */
#include <emmintrin.h>
#include <string.h>

#include "x86/disasm.h"
#include "x86/xref.h"

/* Called for every candidate byte: inlined into the scan loop. */
#define HOT static inline __attribute__((always_inline))

#define NONE ((size_t)-1)

/* The decoding state: which known range is being followed, and how far. */
struct sweep {
	const uint8_t *code;
	uint64_t addr, end; /* of the code */
	const struct tt_code_range *known;
	size_t nknown;
	size_t cur;	     /* the range followed, NONE before the first */
	uint64_t at;	     /* next instruction boundary in it */
	uint64_t last_at;    /* the instruction before `at` (last_at == at: none yet) */
	struct tt_insn last; /* that instruction */
	bool stuck;	     /* bytes at `at` do not decode: nothing from there on is known */
};

enum verdict { NOT_BRANCH, BRANCH, UNKNOWN };

/* The known range holding p whose start is nearest below it, or NONE (a gap). Nested
 * symbols are walked back over, a few only: a gap beyond that is as good as unknown. */
static size_t holding(const struct sweep *s, uint64_t p)
{
	size_t lo = 0, hi = s->nknown, i, tries;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->known[mid].lo <= p)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo, tries = 0; i-- > 0 && tries < 64; tries++)
		if (p < s->known[i].hi)
			return s->known[i].lo >= s->addr && s->known[i].hi <= s->end ? i : NONE;
	return NONE;
}

/*
 * Is the candidate at p part of a real relative branch? Follows the range holding p from
 * its start (or from where the last call stopped) to the instruction holding p. BRANCH sets
 * *from and *target to that instruction's address and its decoded destination.
 */
static enum verdict decode_at(struct sweep *s, uint64_t p, uint64_t *from, uint64_t *target)
{
	size_t i = tt_disasm_ready() ? holding(s, p) : NONE;
	const struct tt_insn *in = &s->last;

	if (i == NONE)
		return UNKNOWN;
	if (i != s->cur || p < s->last_at) {
		s->cur = i; /* restart from the range's start */
		s->at = s->last_at = s->known[i].lo;
		s->stuck = false;
	}
	while (s->at <= p) {
		uint64_t room = s->known[i].hi - s->at;

		if (s->stuck || tt_disasm_decode(s->code + (s->at - s->addr), room < 15 ? room : 15,
						 s->at, &s->last) < 0) {
			s->stuck = true;
			return UNKNOWN;
		}
		s->last_at = s->at;
		s->at += s->last.len;
	}
	if ((in->kind != TT_INSN_JMP && in->kind != TT_INSN_JCC && in->kind != TT_INSN_CALL &&
	     in->kind != TT_INSN_BRANCH_OTHER) ||
	    !in->imm_size)
		return NOT_BRANCH;
	*from = s->last_at;
	*target = in->target;
	return BRANCH;
}

/* A range that a branch from `from` to t would hit, not yet hit by a branch decoding proved:
 * worth decoding for (a proved hit replaces a byte-read one in what the user is told). */
HOT bool open_to(const struct tt_xref_range *r, uint64_t t, uint64_t from)
{
	return t >= r->lo && t < r->hi && (!r->hit || r->unproven) &&
	       (from < r->own_lo || from >= r->own_hi);
}

HOT bool wanted(uint64_t t, uint64_t from, const struct tt_xref_range *r, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (open_to(&r[k], t, from))
			return true;
	return false;
}

/* The branch-looking bytes at `from` read as one to t. */
HOT void mark(struct sweep *s, uint64_t t, uint64_t from, uint64_t lo, uint64_t hi,
	      struct tt_xref_range *r, size_t n)
{
	size_t k;

	if (t < lo || t >= hi || !wanted(t, from, r, n))
		return;
	/* The decoded destination, not the one read: the same for every real branch, but a
	 * prefix the byte scan does not know could change it. */
	enum verdict v = decode_at(s, from, &from, &t);

	if (v == NOT_BRANCH)
		return;
	for (k = 0; k < n; k++)
		if (open_to(&r[k], t, from) && !(r[k].hit && v == UNKNOWN)) {
			r[k].hit = true;
			r[k].unproven = v == UNKNOWN;
			r[k].from = from;
		}
}

/* Short jumps (EB, 7x, E0-E3 rel8) reach 128 bytes: only sources near a range are tried. */
static void scan_rel8(struct sweep *s, const uint8_t *code, size_t len, uint64_t addr, uint64_t lo,
		      uint64_t hi, struct tt_xref_range *r, size_t n)
{
	uint64_t from = lo > addr + 130 ? lo - 130 : addr;
	uint64_t to = hi + 130 < addr + len - 1 ? hi + 130 : addr + len - 1;
	uint64_t at;

	for (at = from; at < to; at++) {
		uint8_t b = code[at - addr];

		if (b == 0xeb || (b & 0xf0) == 0x70 || (b >= 0xe0 && b <= 0xe3))
			mark(s, at + 2 + (int64_t)(int8_t)code[at - addr + 1], at, lo, hi, r, n);
	}
}

/* The rel32 branch whose opcode is at code[i], if it is one. */
HOT void rel32_at(struct sweep *s, const uint8_t *code, size_t i, uint64_t addr, uint64_t lo,
		  uint64_t hi, struct tt_xref_range *r, size_t n)
{
	uint8_t b = code[i];
	int32_t rel;

	if ((b & 0xfe) == 0xe8) {
		memcpy(&rel, code + i + 1, 4);
		mark(s, addr + i + 5 + (int64_t)rel, addr + i, lo, hi, r, n);
	} else if (b == 0x0f && (code[i + 1] & 0xf0) == 0x80) {
		memcpy(&rel, code + i + 2, 4);
		mark(s, addr + i + 6 + (int64_t)rel, addr + i, lo, hi, r, n);
	}
}

void tt_xref_scan(const uint8_t *code, size_t len, uint64_t addr, const struct tt_code_range *known,
		  size_t nknown, struct tt_xref_range *r, size_t n)
{
	struct sweep s = { code, addr, addr + len, known, nknown, NONE, 0, 0, { 0 }, false };
	uint64_t lo = UINT64_MAX, hi = 0;
	size_t i, k;

	for (k = 0; k < n; k++) {
		lo = r[k].lo < lo ? r[k].lo : lo;
		hi = r[k].hi > hi ? r[k].hi : hi;
	}
	if (len < 6 || lo >= hi)
		return;
	for (k = 0; k < n; k++)
		scan_rel8(&s, code, len, addr, r[k].lo, r[k].hi, r, n);
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
			rel32_at(&s, code, j, addr, lo, hi, r, n);
		}
	}
	for (; i + 5 <= len; i++) /* E8/E9 need 5 bytes, 0F 8x 6 */
		if (i + 6 <= len || (code[i] & 0xfe) == 0xe8)
			rel32_at(&s, code, i, addr, lo, hi, r, n);
}
