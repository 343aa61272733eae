/*
 * slotuse.c - see slotuse.h. Runs at start-up and after dlopen, only over objects that hold a
 * GLOB_DAT slot of a traced function, one pass per object for all of them.
 *
 * x86-64 code reaches its GOT through [rip + disp32] operands: a ModRM byte with mod 00 and
 * rm 101 ((b & 0xc7) == 0x05, about 1 byte in 32), no SIB, the displacement right after it,
 * counted from the end of the instruction: the displacement's end plus an immediate of 0, 1,
 * 2 or 4 bytes. For each such byte the operand's target without an immediate, t, is computed;
 * only t in [slot - 4, slot + 8) can touch the slot.
 *
 * Where the instruction starts is not known (stripped objects; data may sit between
 * functions), and need not be: in every encoding (legacy, VEX, EVEX) the opcode byte sits
 * right before the ModRM byte, so
 *   - FF 15 / FF 25 with t == slot is `call *slot(%rip)` / `jmp *slot(%rip)`: opcode FF with
 *     that ModRM is undefined in every other opcode map (0F FF is ud0) and reads nothing;
 *   - any other bytes with t == slot read the slot (no immediate) or inside it (one): data;
 *   - t != slot: an operand inside the slot (slot + 4), or one an immediate moves there, or
 *     one of the next slot's followed by an immediate (`cmpq $0, next@GOTPCREL(%rip)`, the
 *     test of a weak symbol, has t == slot + 7). The immediate's size needs the instruction:
 *     it is decoded from each byte it could start at (up to 10 before the ModRM: 15 bytes at
 *     most, 5 of them ModRM and displacement). Data if any decoding with that ModRM reads
 *     inside the slot, or if none has that ModRM. The true start is among them, so no real
 *     use is missed; a wrong one can only add a false use.
 * A false data use leaves calls through the slot untraced; a missed one breaks the program.
 */
#include <emmintrin.h>
#include <stdlib.h>
#include <string.h>

#include "x86/disasm.h"
#include "x86/slotuse.h"

#define MAX_BEFORE 10 /* bytes an instruction can have before its ModRM byte */

static int by_slot(const void *a, const void *b)
{
	const struct tt_slot_use *x = a, *y = b;

	return x->slot < y->slot ? -1 : x->slot > y->slot;
}

static void data_use(struct tt_slot_use *u, uint64_t at, bool unsure)
{
	if (!u->data)
		u->at = at;
	u->data = true;
	u->unsure |= unsure;
}

/* With t != slot: may the instruction whose ModRM byte is code[i] read the slot? */
static bool decoded_reads(const uint8_t *code, size_t len, uint64_t addr, size_t i, uint64_t slot)
{
	size_t first = i > MAX_BEFORE ? i - MAX_BEFORE : 0, s;
	bool seen = false;
	int32_t disp;

	memcpy(&disp, code + i + 1, 4);
	for (s = i; s-- > first;) {
		struct tt_insn in;
		uint64_t a;

		if (tt_disasm_decode(code + s, len - s, addr + s, &in) < 0 || !in.rip_relative ||
		    s + in.disp_offset != i + 1)
			continue;
		seen = true;
		a = addr + s + in.len + (uint64_t)(int64_t)disp;
		if (a >= slot && a < slot + 8)
			return true;
	}
	return !seen;
}

/* Index of the first slot that ends after t (s sorted). */
static size_t first_ending_after(const struct tt_slot_use *s, size_t n, uint64_t t)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s[mid].slot + 8 > t)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

struct scan {
	const uint8_t *code;
	size_t len;
	uint64_t addr;
	uint64_t lo, hi;       /* t must lie in [lo, hi) to touch any slot */
	int8_t top_lo, top_hi; /* so the displacement's top byte lies in [top_lo, top_hi] */
	struct tt_slot_use *s;
	size_t n;
	bool decode;
};

/* The operand whose ModRM byte is code[i] reaches t (without an immediate), in the window
 * [lo, hi): classify what it touches. Rare: kept out of the scan loop. */
static __attribute__((noinline, cold)) void classify(const struct scan *c, size_t i, uint64_t t)
{
	const uint8_t *code = c->code;
	size_t k;

	for (k = first_ending_after(c->s, c->n, t); k < c->n && c->s[k].slot <= t + 4; k++) {
		struct tt_slot_use *u = &c->s[k];

		if (t == u->slot) {
			if (i > 0 && code[i - 1] == 0xff && (code[i] == 0x15 || code[i] == 0x25))
				u->calls++;
			else
				data_use(u, c->addr + i + 1, false);
		} else if (!c->decode) {
			data_use(u, c->addr + i + 1, true);
		} else if (decoded_reads(code, c->len, c->addr, i, u->slot)) {
			data_use(u, c->addr + i + 1, false);
		}
	}
}

/* code[i] may be the ModRM byte of a [rip + disp32] operand: about 1 byte in 100. */
static inline __attribute__((always_inline)) void candidate(const struct scan *c, size_t i)
{
	uint64_t t;
	int32_t disp;

	memcpy(&disp, c->code + i + 1, 4);
	t = c->addr + i + 5 + (uint64_t)(int64_t)disp;
	if (t - c->lo < c->hi - c->lo)
		classify(c, i, t);
}

void tt_slotuse_scan(const uint8_t *code, size_t len, uint64_t addr, struct tt_slot_use *s,
		     size_t n, bool decode)
{
	struct scan c = {
		.code = code, .len = len, .addr = addr, .s = s, .n = n, .decode = decode
	};
	int64_t dmin, dmax;
	size_t i;

	if (!n || len < 6)
		return;
	qsort(s, n, sizeof(*s), by_slot);
	c.lo = s[0].slot >= 4 ? s[0].slot - 4 : 0;
	c.hi = s[n - 1].slot + 8;
	/* The displacements that can reach [lo, hi) from this code, and so their top bytes
	 * (signed): a second filter, 4 bytes after the ModRM byte. */
	dmin = (int64_t)(c.lo - (addr + len));
	dmax = (int64_t)(c.hi - (addr + 5));
	dmin = dmin < INT32_MIN ? INT32_MIN : dmin;
	dmax = dmax > INT32_MAX ? INT32_MAX : dmax;
	if (dmin > dmax)
		return; /* out of rip-relative reach */
	c.top_lo = (int8_t)(dmin >> 24);
	c.top_hi = (int8_t)(dmax >> 24);
	/* 16 bytes at a time (SSE2, part of x86-64 itself): a mask of the possible ModRM bytes
	 * whose displacement's top byte (4 bytes on) is in range. */
	for (i = 0; i + 16 + 4 <= len; i += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(code + i));
		__m128i top = _mm_loadu_si128((const __m128i *)(const void *)(code + i + 4));
		__m128i modrm = _mm_cmpeq_epi8(_mm_and_si128(v, _mm_set1_epi8((char)0xc7)),
					       _mm_set1_epi8(0x05));
		__m128i out = _mm_or_si128(_mm_cmplt_epi8(top, _mm_set1_epi8(c.top_lo)),
					   _mm_cmpgt_epi8(top, _mm_set1_epi8(c.top_hi)));
		unsigned int m = (unsigned int)_mm_movemask_epi8(_mm_andnot_si128(out, modrm));

		while (m) {
			size_t j = i + (size_t)__builtin_ctz(m);

			m &= m - 1;
			candidate(&c, j);
		}
	}
	for (; i + 5 <= len; i++)
		if ((code[i] & 0xc7) == 0x05)
			candidate(&c, i);
}
