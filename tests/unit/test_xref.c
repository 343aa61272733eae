/*
 * test_xref.c - the scan for jumps from elsewhere into patched bytes (src/x86/xref.c).
 *
 * A fake executable segment of nops (0x90 matches no branch encoding) at SEG holds a function
 * at FN; the range is what inline.c forbids for it: [entry + 1, entry + displaced), own range
 * the function. Each test plants hand-encoded branches (checked with objdump) and asserts
 * exactly which ranges are hit and from where. The first tests give the scan no known code
 * ranges (all of it a gap: the byte scan alone); the last ones give it some, where
 * candidates are decoded with Zydis.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "x86/disasm.h"
#include "x86/xref.h"

#define SEG UINT64_C(0x7f1234560000)
#define SEG_LEN 0x200
#define FN (SEG + 0x80) /* the patched function: entry FN, 0x20 bytes */
#define FN_LEN 0x20
#define DISP 6		  /* its displaced bytes */
#define FN2 (SEG + 0x100) /* another one, 0x10 bytes, 5 displaced */

static uint8_t seg[SEG_LEN];

static struct tt_xref_range range_of(uint64_t entry, size_t displaced, size_t len)
{
	return (struct tt_xref_range){
		.lo = entry + 1, .hi = entry + displaced, .own_lo = entry, .own_hi = entry + len
	};
}

static void nops(void)
{
	memset(seg, 0x90, sizeof(seg));
}

/* Plant a branch at address `at`: opcode bytes (1 or 2), then a rel8 or rel32 to target. */
static void plant(uint64_t at, const uint8_t *op, size_t op_len, size_t rel_size, uint64_t target)
{
	size_t off = at - SEG;
	int64_t rel = (int64_t)(target - (at + op_len + rel_size));

	assert_true(off + op_len + rel_size <= SEG_LEN);
	memcpy(seg + off, op, op_len);
	if (rel_size == 1) {
		int8_t r8 = (int8_t)rel;

		assert_int_equal(r8, rel);
		seg[off + op_len] = (uint8_t)r8;
	} else {
		int32_t r32 = (int32_t)rel;

		assert_int_equal(r32, rel);
		memcpy(seg + off + op_len, &r32, 4);
	}
}

static const uint8_t CALL[] = { 0xe8 }, JMP[] = { 0xe9 }, JNE32[] = { 0x0f, 0x85 },
		     JMP8[] = { 0xeb }, JE8[] = { 0x74 }, JG8[] = { 0x7f }, JRCXZ[] = { 0xe3 },
		     LOOP[] = { 0xe2 };

static void scan(struct tt_xref_range *r, size_t n)
{
	tt_xref_scan(seg, sizeof(seg), SEG, NULL, 0, r, n);
}

/* The same with known code ranges (sorted by lo), where candidates are decoded. */
static void scan_known(const struct tt_code_range *known, size_t nknown, struct tt_xref_range *r,
		       size_t n)
{
	const char *err = tt_disasm_load(); /* a declared dependency: none is a failure */

	if (err)
		fail_msg("tt_disasm_load: %s", err);
	tt_xref_scan(seg, sizeof(seg), SEG, known, nknown, r, n);
}

static void put(uint64_t at, const uint8_t *bytes, size_t len)
{
	assert_true(at >= SEG && at - SEG + len <= SEG_LEN);
	memcpy(seg + (at - SEG), bytes, len);
}

static void assert_hit(const struct tt_xref_range *r, uint64_t from)
{
	if (!r->hit)
		fail_msg("no hit; expected one from 0x%llx", (unsigned long long)from);
	assert_int_equal(r->from, from);
}

static void assert_no_hit(const struct tt_xref_range *r)
{
	if (r->hit)
		fail_msg("hit from 0x%llx; expected none", (unsigned long long)r->from);
}

static void test_nothing_planted(void **state)
{
	struct tt_xref_range r = range_of(FN, DISP, FN_LEN);

	(void)state;
	nops();
	scan(&r, 1);
	assert_no_hit(&r);
	assert_int_equal(r.from, 0);
}

static void test_call_rel32_into_range(void **state)
{
	struct tt_xref_range r = range_of(FN, DISP, FN_LEN);

	(void)state;
	nops();
	plant(SEG + 0x10, CALL, 1, 4, FN + 2);
	scan(&r, 1);
	assert_hit(&r, SEG + 0x10);
	/* the rest of the range is left as it was */
	assert_int_equal(r.lo, FN + 1);
	assert_int_equal(r.hi, FN + DISP);
	assert_int_equal(r.own_lo, FN);
	assert_int_equal(r.own_hi, FN + FN_LEN);
}

static void test_range_bounds(void **state)
{
	struct tt_xref_range r = range_of(FN, DISP, FN_LEN);

	(void)state;
	/* the entry itself (lo - 1): where the patch's jump starts, a fine target */
	nops();
	plant(SEG + 0x10, CALL, 1, 4, FN);
	plant(SEG + 0x20, JMP, 1, 4, FN);
	plant(SEG + 0x30, JNE32, 2, 4, FN);
	plant(SEG + 0x70, JMP8, 1, 1, FN);
	scan(&r, 1);
	assert_no_hit(&r);

	/* hi: the first byte the patch leaves alone */
	nops();
	plant(SEG + 0x10, JMP, 1, 4, FN + DISP);
	plant(SEG + 0x70, JE8, 1, 1, FN + DISP);
	scan(&r, 1);
	assert_no_hit(&r);

	/* lo and hi - 1: the first and last forbidden bytes */
	nops();
	plant(SEG + 0x10, JMP, 1, 4, FN + 1);
	scan(&r, 1);
	assert_hit(&r, SEG + 0x10);
	r = range_of(FN, DISP, FN_LEN);
	nops();
	plant(SEG + 0x10, JMP, 1, 4, FN + DISP - 1);
	scan(&r, 1);
	assert_hit(&r, SEG + 0x10);
}

static void test_each_encoding_hits(void **state)
{
	static const struct {
		const uint8_t *op;
		size_t op_len, rel_size;
		uint64_t at;
	} enc[] = {
		{ CALL, 1, 4, SEG + 0x10 },
		{ JMP, 1, 4, SEG + 0x10 },
		{ JNE32, 2, 4, SEG + 0x10 },
		{ JMP8, 1, 1, SEG + 0x70 },
		{ JE8, 1, 1, SEG + 0x70 },
		{ JG8, 1, 1, SEG + 0x70 },
		{ JRCXZ, 1, 1, SEG + 0x70 },
		{ LOOP, 1, 1, SEG + 0x70 },
		/* backwards, from after the function: negative displacements */
		{ JMP, 1, 4, SEG + 0x1c0 },
		{ JNE32, 2, 4, SEG + 0x1c0 },
		{ JMP8, 1, 1, SEG + 0xb0 },
		{ JE8, 1, 1, SEG + 0xb0 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(enc) / sizeof(enc[0]); i++) {
		struct tt_xref_range r = range_of(FN, DISP, FN_LEN);

		nops();
		plant(enc[i].at, enc[i].op, enc[i].op_len, enc[i].rel_size, FN + 3);
		scan(&r, 1);
		if (!r.hit || r.from != enc[i].at)
			fail_msg("encoding %zu (%02x, rel%zu at +0x%llx): hit %d from 0x%llx", i,
				 enc[i].op[0], enc[i].rel_size * 8,
				 (unsigned long long)(enc[i].at - SEG), r.hit,
				 (unsigned long long)r.from);
	}
}

static void test_rel8_reach(void **state)
{
	struct tt_xref_range r = range_of(FN2, 5, 0x10); /* [FN2 + 1, FN2 + 5) */

	(void)state;
	/* the farthest a short jump reaches: +127 to lo, -128 to hi - 1 */
	nops();
	plant(FN2 + 1 - 129, JMP8, 1, 1, FN2 + 1);
	scan(&r, 1);
	assert_hit(&r, FN2 + 1 - 129);

	r = range_of(FN2, 5, 0x10);
	nops();
	plant(FN2 + 4 + 126, JE8, 1, 1, FN2 + 4);
	scan(&r, 1);
	assert_hit(&r, FN2 + 4 + 126);
}

static void test_own_jumps_ignored(void **state)
{
	struct tt_xref_range r = range_of(FN, DISP, FN_LEN);

	(void)state;
	/* from inside the function (relocate.c decodes those exactly), first and last bytes */
	nops();
	plant(FN + 0x10, JMP8, 1, 1, FN + 2);
	plant(FN + 0x14, JNE32, 2, 4, FN + 3);
	plant(FN + FN_LEN - 2, JE8, 1, 1, FN + 1);
	scan(&r, 1);
	assert_no_hit(&r);

	/* from the byte just past it: not its own */
	plant(FN + FN_LEN, JE8, 1, 1, FN + 1);
	scan(&r, 1);
	assert_hit(&r, FN + FN_LEN);
}

static void test_several_ranges(void **state)
{
	struct tt_xref_range r[2] = { range_of(FN, DISP, FN_LEN), range_of(FN2, 5, 0x10) };

	(void)state;
	/* from the first function into the second's entry bytes: the second is hit, even
	 * though the jump comes from a function being patched; the first is not */
	nops();
	plant(FN + 0x10, JMP, 1, 4, FN2 + 4);
	plant(FN2 + 8, JMP8, 1, 1, FN2 + 1); /* the second's own jump: ignored */
	scan(r, 2);
	assert_no_hit(&r[0]);
	assert_hit(&r[1], FN + 0x10);

	/* both hit, each from one of the jumps into it (which one is found first is the
	 * scan's business) */
	r[0] = range_of(FN, DISP, FN_LEN);
	r[1] = range_of(FN2, 5, 0x10);
	nops();
	plant(SEG + 0x08, CALL, 1, 4, FN2 + 2);
	plant(SEG + 0x20, JMP, 1, 4, FN + 1);
	plant(SEG + 0x30, JMP, 1, 4, FN2 + 1);
	plant(SEG + 0x70, JMP8, 1, 1, FN + 5);
	scan(r, 2);
	assert_true(r[0].hit && r[1].hit);
	if (r[0].from != SEG + 0x20 && r[0].from != SEG + 0x70)
		fail_msg("range 0 hit from +0x%llx", (unsigned long long)(r[0].from - SEG));
	if (r[1].from != SEG + 0x08 && r[1].from != SEG + 0x30)
		fail_msg("range 1 hit from +0x%llx", (unsigned long long)(r[1].from - SEG));
}

static void test_every_source_offset(void **state)
{
	size_t at;

	(void)state;
	/* rel32 sources at each byte offset modulo 16 (and a 0F 8x split across 16-byte
	 * blocks), up to the last place a 6-byte jcc fits; rel8 sources up to the last byte
	 * pair */
	for (at = 0x100; at + 6 <= SEG_LEN; at++) {
		const uint8_t *op = (at & 1) ? JNE32 : JMP;
		size_t op_len = (at & 1) ? 2 : 1;
		struct tt_xref_range r = range_of(FN, DISP, FN_LEN);

		nops();
		plant(SEG + at, op, op_len, 4, FN + 1 + at % 5);
		scan(&r, 1);
		if (!r.hit || r.from != SEG + at)
			fail_msg("%02x rel32 at +0x%zx: hit %d from +0x%llx", op[0], at, r.hit,
				 (unsigned long long)(r.from - SEG));
	}
	for (at = SEG_LEN - 0x70; at + 2 <= SEG_LEN; at++) {
		struct tt_xref_range r = range_of(SEG + SEG_LEN - 0x30, 6, 0x10);

		nops();
		plant(SEG + at, JMP8, 1, 1, SEG + SEG_LEN - 0x2e);
		scan(&r, 1);
		if (at >= SEG_LEN - 0x30 && at < SEG_LEN - 0x20) {
			if (r.hit) /* its own */
				fail_msg("rel8 at +0x%zx (own) hit", at);
		} else if (!r.hit || r.from != SEG + at) {
			fail_msg("rel8 at +0x%zx: hit %d from +0x%llx", at, r.hit,
				 (unsigned long long)(r.from - SEG));
		}
	}
}

static void test_range_far_from_segment(void **state)
{
	/* a range in another object: only rel32 jumps can reach it */
	struct tt_xref_range r = range_of(SEG + 0x10000000, DISP, FN_LEN);

	(void)state;
	nops();
	plant(SEG + 0x40, JMP8, 1, 1, SEG + 0x60);
	scan(&r, 1);
	assert_no_hit(&r);
	plant(SEG + 0x41, CALL, 1, 4, SEG + 0x10000003);
	scan(&r, 1);
	assert_hit(&r, SEG + 0x41);

	/* and a range below it */
	r = range_of(SEG - 0x10000000, DISP, FN_LEN);
	nops();
	plant(SEG + 0x1f0, JNE32, 2, 4, SEG - 0x10000000 + 4);
	scan(&r, 1);
	assert_hit(&r, SEG + 0x1f0);
}

static void test_already_hit_kept(void **state)
{
	struct tt_xref_range r = range_of(FN, DISP, FN_LEN);

	(void)state;
	/* a range hit by an earlier scan (of another segment) keeps its first `from` */
	r.hit = true;
	r.from = 0x1234;
	nops();
	plant(SEG + 0x10, CALL, 1, 4, FN + 2);
	scan(&r, 1);
	assert_true(r.hit);
	assert_int_equal(r.from, 0x1234);
}

static void test_lookalike_bytes_count(void **state)
{
	struct tt_xref_range r = range_of(FN, DISP, FN_LEN);

	(void)state;
	/* movabs rax, imm64 whose immediate starts with what reads as a call into the range:
	 * scanning every offset finds it (a needless refusal, never a missed jump) */
	nops();
	seg[0x10] = 0x48;
	seg[0x11] = 0xb8;
	plant(SEG + 0x12, CALL, 1, 4, FN + 2);
	seg[0x17] = 0x00;
	seg[0x18] = 0x00;
	seg[0x19] = 0x00;
	scan(&r, 1);
	assert_hit(&r, SEG + 0x12);
}

/*
 * Branch-looking bytes inside other instructions, each read by the byte scan as a branch to
 * FN + 2..4 (checked with objdump -D -b binary -m i386:x86-64):
 *   +0x10  48 b8 e8 6d 00 00 00 00 00 00   movabs $0x6de8, %rax  (e8 rel32 in the imm64)
 *   +0x20  b8 e9 5b 00 00                  mov $0x5be9, %eax     (e9 rel32 = 5b 00 00 00:
 *   +0x25  00 90 90 90 90 90               add %dl, -0x6f6f6f70(%rax)  its last byte here)
 *   +0x30  8b 80 e9 4a 00 00               mov 0x4ae9(%rax), %eax (e9 in the displacement;
 *   +0x36  00 90 90 90 90 90               add %dl, ...(%rax)          rel32 4a 00 00 00)
 *   +0x70  b0 eb                           mov $0xeb, %al        (eb rel8 = 11:
 *   +0x72  11 90 90 90 90 90               adc %edx, ...(%rax)         FN + 3)
 *   +0x7b  ff e0                           jmp *%rax             (e0 = loopne rel8 04:
 *   +0x7d  04 90                           add $0x90, %al              FN + 3)
 *   +0x7f  90                              nop
 */
static void plant_lookalikes(void)
{
	static const uint8_t
		movabs[] = { 0x48, 0xb8, 0xe8, 0x6d, 0, 0, 0, 0, 0, 0 },
		mov_imm[] = { 0xb8, 0xe9, 0x5b, 0, 0, 0, 0x90, 0x90, 0x90, 0x90, 0x90 },
		mov_disp[] = { 0x8b, 0x80, 0xe9, 0x4a, 0, 0, 0, 0x90, 0x90, 0x90, 0x90, 0x90 },
		mov_al[] = { 0xb0, 0xeb, 0x11, 0x90, 0x90, 0x90, 0x90, 0x90 },
		jmp_rax[] = { 0xff, 0xe0, 0x04, 0x90 };

	nops();
	put(SEG + 0x10, movabs, sizeof(movabs));
	put(SEG + 0x20, mov_imm, sizeof(mov_imm));
	put(SEG + 0x30, mov_disp, sizeof(mov_disp));
	put(SEG + 0x70, mov_al, sizeof(mov_al));
	put(SEG + 0x7b, jmp_rax, sizeof(jmp_rax));
}

static void test_lookalikes_decoded_away(void **state)
{
	/* one function before FN, FN itself, one after: the whole segment known */
	const struct tt_code_range known[] = { { SEG, FN },
					       { FN, FN + FN_LEN },
					       { FN + FN_LEN, SEG + SEG_LEN } };
	static const uint64_t from[] = { SEG + 0x12, SEG + 0x21, SEG + 0x32, SEG + 0x71,
					 SEG + 0x7c };
	struct tt_xref_range r = range_of(FN, DISP, FN_LEN);
	size_t i;

	(void)state;
	plant_lookalikes();
	scan_known(known, 3, &r, 1);
	assert_no_hit(&r);

	/* each of them alone is a candidate the byte scan counts (so the test above can fail):
	 * with no known ranges, it is reported */
	for (i = 0; i < sizeof(from) / sizeof(from[0]); i++) {
		uint8_t keep[SEG_LEN];
		size_t j;

		plant_lookalikes();
		memcpy(keep, seg, sizeof(seg));
		nops();
		for (j = 0; j < SEG_LEN; j++) /* only lookalike i's instructions */
			if ((j >= 0x10 + 0x10 * i && j < 0x1c + 0x10 * i && i < 3) ||
			    (i == 3 && j >= 0x70 && j < 0x78) || (i == 4 && j >= 0x7b && j < 0x7f))
				seg[j] = keep[j];
		r = range_of(FN, DISP, FN_LEN);
		scan(&r, 1);
		assert_hit(&r, from[i]);
		r = range_of(FN, DISP, FN_LEN);
		scan_known(known, 3, &r, 1);
		assert_no_hit(&r);
	}
}

static void test_real_branches_decoded(void **state)
{
	const struct tt_code_range known[] = { { SEG, FN },
					       { FN, FN + FN_LEN },
					       { FN + FN_LEN, SEG + SEG_LEN } };
	static const struct {
		const uint8_t *op;
		size_t op_len, rel_size;
		uint64_t at;
	} enc[] = {
		{ CALL, 1, 4, SEG + 0x10 },  { JMP, 1, 4, SEG + 0x10 },
		{ JNE32, 2, 4, SEG + 0x10 }, { JMP8, 1, 1, SEG + 0x70 },
		{ JE8, 1, 1, SEG + 0x70 },   { JRCXZ, 1, 1, SEG + 0x70 },
		{ LOOP, 1, 1, SEG + 0x70 },  { JMP, 1, 4, SEG + 0x1c0 },
		{ JG8, 1, 1, SEG + 0xb0 },   { JNE32, 2, 4, SEG + 0xb3 },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(enc) / sizeof(enc[0]); i++) {
		struct tt_xref_range r = range_of(FN, DISP, FN_LEN);

		/* behind the lookalikes, which the sweep must step over to reach it */
		plant_lookalikes();
		memset(seg + 0x7b, 0x90, 5);
		plant(enc[i].at, enc[i].op, enc[i].op_len, enc[i].rel_size, FN + 3);
		scan_known(known, 3, &r, 1);
		if (!r.hit || r.from != enc[i].at || r.unproven)
			fail_msg("encoding %zu (%02x, rel%zu at +0x%llx): hit %d from 0x%llx%s", i,
				 enc[i].op[0], enc[i].rel_size * 8,
				 (unsigned long long)(enc[i].at - SEG), r.hit,
				 (unsigned long long)r.from, r.unproven ? ", unproven" : "");
	}
}

static void test_proven_hit_replaces_byte_read(void **state)
{
	/* the mov al / jmp *%rax lookalikes lie in a gap (found first: short jumps are looked
	 * for first), a real jmp rel32 in a known range after them: the hit named is the real
	 * one, proven */
	const struct tt_code_range known[] = { { SEG, SEG + 0x40 },
					       { FN, FN + FN_LEN },
					       { SEG + 0x180, SEG + SEG_LEN } };
	struct tt_xref_range r = range_of(FN, DISP, FN_LEN);

	(void)state;
	plant_lookalikes();
	plant(SEG + 0x1c0, JMP, 1, 4, FN + 2);
	scan_known(known, 3, &r, 1);
	assert_hit(&r, SEG + 0x1c0);
	assert_false(r.unproven);

	/* without the real jump, the byte-read one stands */
	r = range_of(FN, DISP, FN_LEN);
	plant_lookalikes();
	scan_known(known, 3, &r, 1);
	assert_hit(&r, SEG + 0x71);
	assert_true(r.unproven);
}

static void test_prefixed_branch_from_its_start(void **state)
{
	const struct tt_code_range known[] = { { SEG, FN } };
	struct tt_xref_range r = range_of(FN, DISP, FN_LEN);

	(void)state;
	/* bnd jmp (f2 e9 rel32, old PLTs) and a hinted jcc (3e 74 rel8): the branch is the
	 * instruction, from its prefix on */
	nops();
	seg[0x20] = 0xf2;
	plant(SEG + 0x21, JMP, 1, 4, FN + 2);
	scan_known(known, 1, &r, 1);
	assert_hit(&r, SEG + 0x20);

	r = range_of(FN, DISP, FN_LEN);
	nops();
	seg[0x60] = 0x3e;
	plant(SEG + 0x61, JE8, 1, 1, FN + 1);
	scan_known(known, 1, &r, 1);
	assert_hit(&r, SEG + 0x60);
}

static void test_gap_keeps_byte_scan(void **state)
{
	/* nothing known from +0x40 to FN: padding, data or code no table names */
	const struct tt_code_range known[] = { { SEG, SEG + 0x40 }, { FN, FN + FN_LEN } };
	struct tt_xref_range r = range_of(FN, DISP, FN_LEN);

	(void)state;
	plant_lookalikes(); /* movabs, mov, mov in the known part; mov al and jmp *%rax not */
	scan_known(known, 2, &r, 1);
	assert_hit(&r, SEG + 0x71);
	assert_true(r.unproven); /* the line says it was read byte by byte */

	/* a candidate past the end of the nearest ranges below it, inside an earlier one that
	 * holds them (nested symbols): decoded from the holding range's start */
	r = range_of(FN, DISP, FN_LEN);
	nops();
	seg[0x50] = 0xb8;
	plant(SEG + 0x51, JMP, 1, 4, FN + 4);
	{
		const struct tt_code_range nested[] = { { SEG, SEG + 0x58 },
							{ SEG + 0x10, SEG + 0x20 },
							{ SEG + 0x30, SEG + 0x40 },
							{ FN, FN + FN_LEN } },
					   ended[] = { { SEG, SEG + 0x50 },
						       { SEG + 0x10, SEG + 0x20 },
						       { SEG + 0x30, SEG + 0x40 },
						       { FN, FN + FN_LEN } };

		scan_known(nested, 4, &r, 1);
		assert_no_hit(&r); /* the mov it is */
		/* no range holds +0x51: the byte scan's reading stands */
		r = range_of(FN, DISP, FN_LEN);
		scan_known(ended, 4, &r, 1);
		assert_hit(&r, SEG + 0x51);
	}
}

static void test_undecodable_keeps_byte_scan(void **state)
{
	const struct tt_code_range known[] = { { SEG, FN }, { FN, FN + FN_LEN } };
	struct tt_xref_range r = range_of(FN, DISP, FN_LEN);

	(void)state;
	/* 06 (push %es) is invalid in 64-bit mode: nothing after it in its range is known */
	plant_lookalikes();
	seg[0x1a] = 0x06;
	scan_known(known, 2, &r, 1);
	assert_hit(&r, SEG + 0x71); /* the short jumps are looked for first */

	/* before it, decoding still tells */
	r = range_of(FN, DISP, FN_LEN);
	plant_lookalikes();
	seg[0x7f] = 0x06;
	scan_known(known, 2, &r, 1);
	assert_no_hit(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nothing_planted),
		cmocka_unit_test(test_call_rel32_into_range),
		cmocka_unit_test(test_range_bounds),
		cmocka_unit_test(test_each_encoding_hits),
		cmocka_unit_test(test_rel8_reach),
		cmocka_unit_test(test_own_jumps_ignored),
		cmocka_unit_test(test_several_ranges),
		cmocka_unit_test(test_every_source_offset),
		cmocka_unit_test(test_range_far_from_segment),
		cmocka_unit_test(test_already_hit_kept),
		cmocka_unit_test(test_lookalike_bytes_count),
		cmocka_unit_test(test_lookalikes_decoded_away),
		cmocka_unit_test(test_real_branches_decoded),
		cmocka_unit_test(test_proven_hit_replaces_byte_read),
		cmocka_unit_test(test_prefixed_branch_from_its_start),
		cmocka_unit_test(test_gap_keeps_byte_scan),
		cmocka_unit_test(test_undecodable_keeps_byte_scan),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
