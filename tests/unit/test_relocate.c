/*
 * test_relocate.c - planning an inline patch (src/x86/relocate.c, decoding through src/x86/disasm.c
 * and the real libZydis): hand-assembled function entries (each checked with
 * `objdump -D -b binary -mi386:x86-64`), the exact bytes of their relocated copy, and every
 * kind of entry the planner must refuse.
 *
 * Every copy is checked twice: byte for byte against the expected encoding, and by decoding
 * the relative operands in it back to absolute addresses, which must be the ones the
 * original instructions meant.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "x86/disasm.h"
#include "x86/relocate.h"

/* Where the hand-assembled functions "run", and where their copy goes (pool.c maps the copy
 * near the function: within 2 GiB). */
#define ADDR UINT64_C(0x555555561130)
#define NEAR (ADDR + 0x10000)
#define BELOW (ADDR - 0x7000000)
#define FAR (ADDR + UINT64_C(0xc0000000)) /* 3 GiB away */

static const uint8_t ENDBR64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };

#define WHY_SIZE 160

/* Libzydis is a declared dependency (libzydis-dev in BUILD_PKGS): no decoder is a failure. */
static void need_zydis(void)
{
	const char *err = tt_disasm_load();

	if (err)
		fail_msg("tt_disasm_load: %s", err);
	assert_true(tt_disasm_ready());
}

static int32_t rel32_at(const uint8_t *p)
{
	int32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* The rel32 that makes an instruction ending at `next` reach `target`. */
static int32_t rel_to(uint64_t target, uint64_t next)
{
	int64_t rel = (int64_t)(target - next);

	assert_true(rel >= INT32_MIN && rel <= INT32_MAX);
	return (int32_t)rel;
}

static size_t put(uint8_t *dst, size_t at, const void *bytes, size_t n)
{
	memcpy(dst + at, bytes, n);
	return at + n;
}

static size_t put_rel32(uint8_t *dst, size_t at, int32_t rel)
{
	memcpy(dst + at, &rel, 4);
	return at + 4;
}

/* Plan code, which must be accepted with the given patch_at and displaced. */
static void plan_ok(const uint8_t *code, size_t size, uint64_t addr, uint64_t copy_addr,
		    struct tt_reloc *r, size_t patch_at, size_t displaced)
{
	char why[WHY_SIZE];
	const char *err;

	need_zydis();
	memset(why, 0, sizeof(why));
	err = tt_reloc_plan(code, size, addr, copy_addr, r, why, sizeof(why));
	if (err)
		fail_msg("refused: %s", err);
	assert_int_equal(r->patch_at, patch_at);
	assert_int_equal(r->displaced, displaced);
	assert_true(r->copy_len <= TT_COPY_MAX);
}

/* Plan code, which must be refused for a reason containing every one of the NULL-terminated
 * fragments. */
static void plan_refused(const uint8_t *code, size_t size, uint64_t addr, uint64_t copy_addr, ...)
{
	struct tt_reloc r;
	char why[WHY_SIZE];
	const char *err, *frag;
	va_list ap;

	need_zydis();
	memset(why, 0, sizeof(why));
	err = tt_reloc_plan(code, size, addr, copy_addr, &r, why, sizeof(why));
	if (!err)
		fail_msg("accepted; expected a refusal");
	assert_string_equal(err, why); /* "written into why" */
	va_start(ap, copy_addr);
	while ((frag = va_arg(ap, const char *)) != NULL)
		if (!strstr(err, frag))
			fail_msg("reason \"%s\" does not mention \"%s\"", err, frag);
	va_end(ap);
}

/* The copy ends with `jmp rel32` back to addr + patch_at + displaced. */
static void check_jump_back(const struct tt_reloc *r, uint64_t addr, uint64_t copy_addr)
{
	const uint8_t *j;

	assert_true(r->copy_len >= 4 + 5);
	j = r->copy + r->copy_len - 5;
	assert_int_equal(j[0], 0xe9);
	assert_int_equal(copy_addr + r->copy_len + (int64_t)rel32_at(j + 1),
			 addr + r->patch_at + r->displaced);
}

static void check_copy(const struct tt_reloc *r, const uint8_t *want, size_t want_len)
{
	assert_int_equal(r->copy_len, want_len);
	assert_memory_equal(r->copy, want, want_len);
}

/* ---- entry: endbr64 kept first, patch after it ----------------------------------------- */

static void test_no_endbr64(void **state)
{
	/* push rbp; mov rbp,rsp; push r12 | push rbx; xor eax,eax; pop rbx; pop r12; pop rbp;
	 * ret */
	static const uint8_t code[] = { 0x55, 0x48, 0x89, 0xe5, 0x41, 0x54, 0x53,
					0x31, 0xc0, 0x5b, 0x41, 0x5c, 0x5d, 0xc3 };
	struct tt_reloc r;
	uint8_t want[TT_COPY_MAX];
	size_t n;

	(void)state;
	plan_ok(code, sizeof(code), ADDR, NEAR, &r, 0, 6);
	n = put(want, 0, ENDBR64, 4); /* the copy is a branch target: endbr64 */
	n = put(want, n, code, 6);
	want[n++] = 0xe9;
	n = put_rel32(want, n, rel_to(ADDR + 6, NEAR + 15));
	check_copy(&r, want, n);
	check_jump_back(&r, ADDR, NEAR);
}

static void test_endbr64_kept(void **state)
{
	/* endbr64 | push rbp; mov rbp,rsp; push rbx | xor eax,eax; pop rbx; pop rbp; ret */
	static const uint8_t code[] = { 0xf3, 0x0f, 0x1e, 0xfa, 0x55, 0x48, 0x89,
					0xe5, 0x53, 0x31, 0xc0, 0x5b, 0x5d, 0xc3 };
	struct tt_reloc r;
	uint8_t want[TT_COPY_MAX];
	size_t n;

	(void)state;
	plan_ok(code, sizeof(code), ADDR, NEAR, &r, 4, 5);
	n = put(want, 0, code, 9); /* endbr64 once, then the 5 moved bytes */
	want[n++] = 0xe9;
	n = put_rel32(want, n, rel_to(ADDR + 9, NEAR + 14));
	check_copy(&r, want, n);
	check_jump_back(&r, ADDR, NEAR);
}

/* Where each displaced instruction is in the copy: a thread stopped between two of them
 * resumes there (hook/stop.c); the entry itself and offsets inside an instruction have none. */
static void test_instruction_map(void **state)
{
	/* xor eax,eax | add eax,edi | add eax,3 | ret (straddle_fn of the program tests) */
	static const uint8_t code[] = { 0x31, 0xc0, 0x01, 0xf8, 0x83, 0xc0, 0x03, 0xc3 };
	/* endbr64 | push rbp | mov rbp,rsp | sub rsp,16 */
	static const uint8_t ebr[] = { 0xf3, 0x0f, 0x1e, 0xfa, 0x55, 0x48, 0x89,
				       0xe5, 0x48, 0x83, 0xec, 0x10, 0xc9, 0xc3 };
	struct tt_reloc r;

	(void)state;
	plan_ok(code, sizeof(code), ADDR, NEAR, &r, 0, 7);
	assert_int_equal(r.map.insns, 3);
	assert_int_equal(tt_reloc_copy_offset(&r.map, 0), -1); /* the entry takes the jump */
	assert_int_equal(tt_reloc_copy_offset(&r.map, 2), 4 + 2);
	assert_int_equal(tt_reloc_copy_offset(&r.map, 4), 4 + 4);
	assert_int_equal(tt_reloc_copy_offset(&r.map, 3), -1); /* inside add eax,edi */
	plan_ok(ebr, sizeof(ebr), ADDR, NEAR, &r, 4, 8);
	assert_int_equal(tt_reloc_copy_offset(&r.map, 5), 4 + 1);
	assert_int_equal(tt_reloc_copy_offset(&r.map, 8), 4 + 4);
	assert_int_equal(tt_reloc_copy_offset(&r.map, 4), -1);
}

static void test_exactly_patch_length(void **state)
{
	/* xor eax,eax; inc eax; ret: 5 bytes, all displaced (the ret is copied as is) */
	static const uint8_t five[] = { 0x31, 0xc0, 0xff, 0xc0, 0xc3 };
	/* endbr64; the same: 9 bytes */
	static const uint8_t nine[] = { 0xf3, 0x0f, 0x1e, 0xfa, 0x31, 0xc0, 0xff, 0xc0, 0xc3 };
	struct tt_reloc r;
	uint8_t want[TT_COPY_MAX];
	size_t n;

	(void)state;
	plan_ok(five, sizeof(five), ADDR, NEAR, &r, 0, 5);
	n = put(want, 0, ENDBR64, 4);
	n = put(want, n, five, 5);
	want[n++] = 0xe9;
	n = put_rel32(want, n, rel_to(ADDR + 5, NEAR + 14));
	check_copy(&r, want, n);

	plan_ok(nine, sizeof(nine), ADDR, NEAR, &r, 4, 5);
	n = put(want, 0, nine, 9);
	want[n++] = 0xe9;
	n = put_rel32(want, n, rel_to(ADDR + 9, NEAR + 14));
	check_copy(&r, want, n);
}

/* ---- too short ----------------------------------------------------------------------- */

static void test_shorter_than_patch(void **state)
{
	static const uint8_t ret[] = { 0xc3 };
	static const uint8_t four[] = { 0x31, 0xc0, 0xff, 0xc0 };
	static const uint8_t endbr_ret[] = { 0xf3, 0x0f, 0x1e, 0xfa, 0xc3 };
	static const uint8_t endbr_eight[] = { 0xf3, 0x0f, 0x1e, 0xfa, 0x31, 0xc0, 0x90, 0xc3 };

	(void)state;
	plan_refused(ret, sizeof(ret), ADDR, NEAR, "1 byte", NULL);
	plan_refused(four, sizeof(four), ADDR, NEAR, "4 bytes", NULL);
	/* 5 bytes, but the jump goes after the endbr64 */
	plan_refused(endbr_ret, sizeof(endbr_ret), ADDR, NEAR, "5 bytes", "endbr64", NULL);
	plan_refused(endbr_eight, sizeof(endbr_eight), ADDR, NEAR, "8 bytes", "endbr64", NULL);
}

static void test_why_truncated_to_its_size(void **state)
{
	static const uint8_t ret[] = { 0xc3 };
	struct tt_reloc r;
	char why[64];

	(void)state;
	need_zydis();
	memset(why, 'Z', sizeof(why));
	assert_non_null(tt_reloc_plan(ret, sizeof(ret), ADDR, NEAR, &r, why, 10));
	assert_int_equal(strlen(why), 9);
	assert_int_equal(why[10], 'Z');
	assert_int_equal(why[sizeof(why) - 1], 'Z');
}

static void test_undecodable_refused(void **state)
{
	/* push rbp; mov rbp,rsp; push rbx; (bad: 06 is not an instruction in 64-bit mode); ret */
	static const uint8_t code[] = { 0x55, 0x48, 0x89, 0xe5, 0x53, 0x06, 0xc3 };

	(void)state;
	plan_refused(code, sizeof(code), ADDR, NEAR, "+0x5", "decode", NULL);
}

/* ---- jumps of the function back into the patched bytes --------------------------------- */

static void test_loop_to_second_instruction_refused(void **state)
{
	/* 0 push rbp; 1 mov rbp,rsp; 4 add rax,1 | 8 cmp rax,rcx; b jne 0x1; d pop rbp; e ret */
	static const uint8_t code[] = { 0x55, 0x48, 0x89, 0xe5, 0x48, 0x83, 0xc0, 0x01,
					0x48, 0x39, 0xc8, 0x75, 0xf4, 0x5d, 0xc3 };

	/* 0 push rbp; 1 mov rbp,rsp; 4 push rbx | 5 test edi,edi; 7 jne 0x4 (the last displaced
	 * byte); 9 pop rbx; a pop rbp; b ret */
	static const uint8_t last[] = { 0x55, 0x48, 0x89, 0xe5, 0x53, 0x85,
					0xff, 0x75, 0xfb, 0x5b, 0x5d, 0xc3 };

	(void)state;
	plan_refused(code, sizeof(code), ADDR, NEAR, "jump", "+0xb", NULL);
	plan_refused(last, sizeof(last), ADDR, NEAR, "jump", "+0x7", NULL);
}

static void test_loop_to_first_kept_instruction_allowed(void **state)
{
	/* the same loop, to 0x8: the first byte the patch leaves alone */
	static const uint8_t code[] = { 0x55, 0x48, 0x89, 0xe5, 0x48, 0x83, 0xc0, 0x01,
					0x48, 0x39, 0xc8, 0x75, 0xfb, 0x5d, 0xc3 };
	struct tt_reloc r;
	uint8_t want[TT_COPY_MAX];
	size_t n;

	(void)state;
	plan_ok(code, sizeof(code), ADDR, NEAR, &r, 0, 8);
	n = put(want, 0, ENDBR64, 4);
	n = put(want, n, code, 8);
	want[n++] = 0xe9;
	n = put_rel32(want, n, rel_to(ADDR + 8, NEAR + 17));
	check_copy(&r, want, n);
	check_jump_back(&r, ADDR, NEAR);
}

static void test_jump_to_entry_refused_recursive_call_allowed(void **state)
{
	/* 0 push rbp; 1 mov rbp,rsp; 4 push rbx | 5 test edi,edi; 7 je 0x0; 9 pop rbx; a pop rbp;
	 * b ret */
	static const uint8_t je_entry[] = { 0x55, 0x48, 0x89, 0xe5, 0x53, 0x85,
					    0xff, 0x74, 0xf7, 0x5b, 0x5d, 0xc3 };
	/* ... 7 je 0xe; 9 jmp 0x0 (rel32); e pop rbx; f pop rbp; 10 ret */
	static const uint8_t jmp_entry[] = { 0x55, 0x48, 0x89, 0xe5, 0x53, 0x85, 0xff, 0x74, 0x05,
					     0xe9, 0xf2, 0xff, 0xff, 0xff, 0x5b, 0x5d, 0xc3 };
	/* ... 7 je 0xe; 9 call 0x1 (into the entry instructions, not the entry); e pop rbx ... */
	static const uint8_t call_mid[] = { 0x55, 0x48, 0x89, 0xe5, 0x53, 0x85, 0xff, 0x74, 0x05,
					    0xe8, 0xf3, 0xff, 0xff, 0xff, 0x5b, 0x5d, 0xc3 };
	/* ... 7 je 0x11; 9 lea edi,[rdi-1]; c call 0x0 (recursion); 11 pop rbx; 12 pop rbp;
	 * 13 ret */
	static const uint8_t rec[] = { 0x55, 0x48, 0x89, 0xe5, 0x53, 0x85, 0xff, 0x74, 0x08, 0x8d,
				       0x7f, 0xff, 0xe8, 0xef, 0xff, 0xff, 0xff, 0x5b, 0x5d, 0xc3 };
	struct tt_reloc r;
	uint8_t want[TT_COPY_MAX];
	size_t n;

	(void)state;
	plan_refused(je_entry, sizeof(je_entry), ADDR, NEAR, "jump", "+0x7", NULL);
	plan_refused(jmp_entry, sizeof(jmp_entry), ADDR, NEAR, "jump", "+0x9", NULL);
	plan_refused(call_mid, sizeof(call_mid), ADDR, NEAR, "call", "+0x9", NULL);

	plan_ok(rec, sizeof(rec), ADDR, NEAR, &r, 0, 5);
	n = put(want, 0, ENDBR64, 4);
	n = put(want, n, rec, 5);
	want[n++] = 0xe9;
	n = put_rel32(want, n, rel_to(ADDR + 5, NEAR + 14));
	check_copy(&r, want, n);
	check_jump_back(&r, ADDR, NEAR);
}

static void test_endbr64_jump_to_entry_refused_call_allowed(void **state)
{
	/* 0 endbr64 | 4 push rbp; 5 mov rbp,rsp; 8 push rbx | 9 test edi,edi; b je 0x4; ... */
	static const uint8_t je_entry[] = { 0xf3, 0x0f, 0x1e, 0xfa, 0x55, 0x48, 0x89, 0xe5,
					    0x53, 0x85, 0xff, 0x74, 0xf7, 0x5b, 0x5d, 0xc3 };
	/* 0 endbr64 | 4 push rbp; 5 mov rbp,rsp; 8 push rbx | 9 call 0x4; e pop rbx; ... */
	static const uint8_t call_entry[] = { 0xf3, 0x0f, 0x1e, 0xfa, 0x55, 0x48, 0x89, 0xe5, 0x53,
					      0xe8, 0xf6, 0xff, 0xff, 0xff, 0x5b, 0x5d, 0xc3 };
	struct tt_reloc r;

	(void)state;
	plan_refused(je_entry, sizeof(je_entry), ADDR, NEAR, "jump", "+0xb", NULL);
	plan_ok(call_entry, sizeof(call_entry), ADDR, NEAR, &r, 4, 5);
	check_jump_back(&r, ADDR, NEAR);
}

/* ---- rip-relative operands re-aimed ----------------------------------------------------- */

static void test_rip_relative_mov_reaimed(void **state)
{
	/* 0 push rbp; 1 mov rax,[rip+0x2010] (-> ADDR+0x2018) | 8 mov rdx,rax; b pop rbp; c ret */
	static const uint8_t code[] = { 0x55, 0x48, 0x8b, 0x05, 0x10, 0x20, 0x00,
					0x00, 0x48, 0x89, 0xc2, 0x5d, 0xc3 };
	const uint64_t copies[] = { NEAR, BELOW };
	struct tt_reloc r;
	uint8_t want[TT_COPY_MAX];
	size_t n, i;

	(void)state;
	for (i = 0; i < sizeof(copies) / sizeof(copies[0]); i++) {
		uint64_t c = copies[i];

		plan_ok(code, sizeof(code), ADDR, c, &r, 0, 8);
		n = put(want, 0, ENDBR64, 4);
		n = put(want, n, code, 1);
		n = put(want, n, code + 1, 3); /* 48 8b 05 */
		n = put_rel32(want, n, rel_to(ADDR + 0x2018, c + 12));
		want[n++] = 0xe9;
		n = put_rel32(want, n, rel_to(ADDR + 8, c + 17));
		check_copy(&r, want, n);
		/* the operand, decoded from the copy where it runs, is the same address */
		assert_int_equal(c + 12 + (int64_t)rel32_at(r.copy + 8), ADDR + 0x2018);
		check_jump_back(&r, ADDR, c);
	}
}

static void test_rip_relative_lea_after_endbr64_reaimed(void **state)
{
	/* 0 endbr64 | 4 lea rdi,[rip-0x10] (-> ADDR-5) | b xor eax,eax; d ret */
	static const uint8_t code[] = { 0xf3, 0x0f, 0x1e, 0xfa, 0x48, 0x8d, 0x3d,
					0xf0, 0xff, 0xff, 0xff, 0x31, 0xc0, 0xc3 };
	struct tt_reloc r;
	uint8_t want[TT_COPY_MAX];
	size_t n;

	(void)state;
	plan_ok(code, sizeof(code), ADDR, NEAR, &r, 4, 7);
	n = put(want, 0, code, 7); /* endbr64; 48 8d 3d */
	n = put_rel32(want, n, rel_to(ADDR - 5, NEAR + 11));
	want[n++] = 0xe9;
	n = put_rel32(want, n, rel_to(ADDR + 11, NEAR + 16));
	check_copy(&r, want, n);
	assert_int_equal(NEAR + 11 + (int64_t)rel32_at(r.copy + 7), ADDR - 5);
	check_jump_back(&r, ADDR, NEAR);
}

static void test_rip_relative_with_immediate_after_disp(void **state)
{
	/* 0 cmp dword [rip+0x1234],5 (-> ADDR+0x123b; the imm8 follows disp32) | 7 sete al;
	 * a ret */
	static const uint8_t cmp[] = { 0x83, 0x3d, 0x34, 0x12, 0x00, 0x00,
				       0x05, 0x0f, 0x94, 0xc0, 0xc3 };
	/* 0 mov dword [rip+0x100],0x12345678 (-> ADDR+0x10a; imm32 follows) | a ret */
	static const uint8_t movimm[] = { 0xc7, 0x05, 0x00, 0x01, 0x00, 0x00,
					  0x78, 0x56, 0x34, 0x12, 0xc3 };
	struct tt_reloc r;
	uint8_t want[TT_COPY_MAX];
	size_t n;

	(void)state;
	plan_ok(cmp, sizeof(cmp), ADDR, BELOW, &r, 0, 7);
	n = put(want, 0, ENDBR64, 4);
	n = put(want, n, cmp, 2);
	n = put_rel32(want, n, rel_to(ADDR + 0x123b, BELOW + 11));
	want[n++] = 0x05;
	want[n++] = 0xe9;
	n = put_rel32(want, n, rel_to(ADDR + 7, BELOW + 16));
	check_copy(&r, want, n);

	plan_ok(movimm, sizeof(movimm), ADDR, NEAR, &r, 0, 10);
	n = put(want, 0, ENDBR64, 4);
	n = put(want, n, movimm, 2);
	n = put_rel32(want, n, rel_to(ADDR + 0x10a, NEAR + 14));
	n = put(want, n, movimm + 6, 4); /* the immediate, unchanged */
	want[n++] = 0xe9;
	n = put_rel32(want, n, rel_to(ADDR + 10, NEAR + 19));
	check_copy(&r, want, n);
}

static void test_rip_relative_out_of_reach_refused(void **state)
{
	static const uint8_t ripmov[] = { 0x55, 0x48, 0x8b, 0x05, 0x10, 0x20, 0x00,
					  0x00, 0x48, 0x89, 0xc2, 0x5d, 0xc3 };
	static const uint8_t riplea[] = { 0xf3, 0x0f, 0x1e, 0xfa, 0x48, 0x8d, 0x3d,
					  0xf0, 0xff, 0xff, 0xff, 0x31, 0xc0, 0xc3 };
	static const uint8_t plain[] = { 0x55, 0x48, 0x89, 0xe5, 0x41, 0x54, 0x53,
					 0x31, 0xc0, 0x5b, 0x41, 0x5c, 0x5d, 0xc3 };
	/* the copy of ripmov's mov ends at copy+12; its operand is ADDR+0x2018 */
	const uint64_t edge = ADDR + 0x2018 - 12 - INT32_MAX;
	struct tt_reloc r;

	(void)state;
	plan_refused(ripmov, sizeof(ripmov), ADDR, FAR, "would not reach", NULL);
	plan_refused(riplea, sizeof(riplea), ADDR, FAR, "would not reach", NULL);
	plan_refused(ripmov, sizeof(ripmov), ADDR, ADDR - UINT64_C(0xc0000000), "would not reach",
		     NULL);
	/* the jump back alone out of reach */
	plan_refused(plain, sizeof(plain), ADDR, FAR, "range", NULL);

	/* the last copy address from which disp32 still reaches, and the one after */
	plan_ok(ripmov, sizeof(ripmov), ADDR, edge, &r, 0, 8);
	assert_int_equal(rel32_at(r.copy + 8), INT32_MAX);
	check_jump_back(&r, ADDR, edge);
	plan_refused(ripmov, sizeof(ripmov), ADDR, edge - 1, "would not reach", NULL);
}

/* ---- relative jumps among the displaced bytes -------------------------------------------- */

static void test_jcc_rel8_widened(void **state)
{
	/* 0 test rdi,rdi; 3 jle 0x15 | 5..14 nop; 15 xor eax,eax; 17 ret */
	uint8_t code[0x18];
	struct tt_reloc r;
	uint8_t want[TT_COPY_MAX];
	size_t n;

	(void)state;
	memset(code, 0x90, sizeof(code));
	memcpy(code, (const uint8_t[]){ 0x48, 0x85, 0xff, 0x7e, 0x10 }, 5);
	memcpy(code + 0x15, (const uint8_t[]){ 0x31, 0xc0, 0xc3 }, 3);
	plan_ok(code, sizeof(code), ADDR, NEAR, &r, 0, 5);
	n = put(want, 0, ENDBR64, 4);
	n = put(want, n, code, 3);
	want[n++] = 0x0f;
	want[n++] = 0x8e; /* jle rel32 */
	n = put_rel32(want, n, rel_to(ADDR + 0x15, NEAR + 13));
	want[n++] = 0xe9;
	n = put_rel32(want, n, rel_to(ADDR + 5, NEAR + 18));
	check_copy(&r, want, n);
	assert_int_equal(NEAR + 13 + (int64_t)rel32_at(r.copy + 9), ADDR + 0x15);
	check_jump_back(&r, ADDR, NEAR);
}

static void test_jcc_rel32_reaimed(void **state)
{
	/* 0 jne ADDR-0x1000 (0F 85 rel32) | 6 xor eax,eax; 8 ret */
	static const uint8_t code[] = { 0x0f, 0x85, 0xfa, 0xef, 0xff, 0xff, 0x31, 0xc0, 0xc3 };
	struct tt_reloc r;
	uint8_t want[TT_COPY_MAX];
	size_t n;

	(void)state;
	plan_ok(code, sizeof(code), ADDR, NEAR, &r, 0, 6);
	n = put(want, 0, ENDBR64, 4);
	want[n++] = 0x0f;
	want[n++] = 0x85;
	n = put_rel32(want, n, rel_to(ADDR - 0x1000, NEAR + 10));
	want[n++] = 0xe9;
	n = put_rel32(want, n, rel_to(ADDR + 6, NEAR + 15));
	check_copy(&r, want, n);
}

static void test_jmp_rel8_widened(void **state)
{
	/* 0 xor eax,eax; 2 test edi,edi; 4 jmp 0x10 | 6..f nop; 10 inc eax; 12 ret */
	uint8_t code[0x13];
	struct tt_reloc r;
	uint8_t want[TT_COPY_MAX];
	size_t n;

	(void)state;
	memset(code, 0x90, sizeof(code));
	memcpy(code, (const uint8_t[]){ 0x31, 0xc0, 0x85, 0xff, 0xeb, 0x0a }, 6);
	memcpy(code + 0x10, (const uint8_t[]){ 0xff, 0xc0, 0xc3 }, 3);
	plan_ok(code, sizeof(code), ADDR, NEAR, &r, 0, 6);
	n = put(want, 0, ENDBR64, 4);
	n = put(want, n, code, 4);
	want[n++] = 0xe9;
	n = put_rel32(want, n, rel_to(ADDR + 0x10, NEAR + 13));
	want[n++] = 0xe9;
	n = put_rel32(want, n, rel_to(ADDR + 6, NEAR + 18));
	check_copy(&r, want, n);
	assert_int_equal(NEAR + 13 + (int64_t)rel32_at(r.copy + 9), ADDR + 0x10);
	check_jump_back(&r, ADDR, NEAR);
}

static void test_jmp_rel32_tail_call_reaimed(void **state)
{
	/* 0 jmp ADDR-0x1000: a function that is only a tail call */
	static const uint8_t code[] = { 0xe9, 0xfb, 0xef, 0xff, 0xff };
	struct tt_reloc r;
	uint8_t want[TT_COPY_MAX];
	size_t n;

	(void)state;
	plan_ok(code, sizeof(code), ADDR, BELOW, &r, 0, 5);
	n = put(want, 0, ENDBR64, 4);
	want[n++] = 0xe9;
	n = put_rel32(want, n, rel_to(ADDR - 0x1000, BELOW + 9));
	want[n++] = 0xe9;
	n = put_rel32(want, n, rel_to(ADDR + 5, BELOW + 14));
	check_copy(&r, want, n);
}

static void test_jump_within_displaced_refused(void **state)
{
	/* 0 je 0x2 | 2 xor eax,eax; 4 inc eax; 6 ret */
	static const uint8_t code[] = { 0x74, 0x00, 0x31, 0xc0, 0xff, 0xc0, 0xc3 };

	(void)state;
	plan_refused(code, sizeof(code), ADDR, NEAR, "jump", NULL);
}

/* ---- what cannot be moved ---------------------------------------------------------------- */

/* ---- calls among the displaced bytes: push the original return address, jump on ---------- */

enum jump_kind { TO_ADDRESS, THROUGH_MEMORY, THROUGH_REGISTER };

struct moved_call {
	uint64_t pushed;     /* the 8 bytes the copy leaves on the stack */
	enum jump_kind kind; /* and where it then goes: */
	uint64_t target;     /* TO_ADDRESS: there; THROUGH_MEMORY: to what this address holds */
	uint8_t reg_modrm;   /* THROUGH_REGISTER: the jmp's ModRM byte */
};

/*
 * Run the copy's moved call, r->copy[at..], on a pretend stack. Only the instructions a
 * flags- and register-neutral push + jmp may use are understood (push imm32, movl imm32 to
 * 4(%rsp), jmp rel32, jmp *[rip+disp32], jmp *reg, with REX.B and notrack prefixes); any
 * other byte fails the test. Exactly one 8-byte push, then the jump, which must end the copy.
 */
static struct moved_call run_moved_call(const struct tt_reloc *r, uint64_t copy_addr, size_t at)
{
	struct moved_call m = { 0 };
	size_t i = at;
	int pushes = 0;
	bool high_set = false;

	while (i < r->copy_len) {
		const uint8_t *p = r->copy + i;
		uint64_t ip = copy_addr + i;
		size_t pre = (p[0] == 0x3e || p[0] == 0x41) ? 1 : 0; /* notrack, REX.B */

		if (p[0] == 0x68) { /* push $imm32, sign-extended */
			assert_int_equal(pushes++, 0);
			m.pushed = (uint64_t)(int64_t)rel32_at(p + 1);
			i += 5;
		} else if (p[0] == 0xc7 && p[1] == 0x44 && p[2] == 0x24 && p[3] == 0x04) {
			assert_int_equal(pushes, 1); /* movl $imm32, 4(%rsp): the high half */
			m.pushed = (m.pushed & 0xffffffffu) |
				   ((uint64_t)(uint32_t)rel32_at(p + 4) << 32);
			high_set = true;
			i += 8;
		} else if (p[0] == 0xe9) {
			m.kind = TO_ADDRESS;
			m.target = ip + 5 + (int64_t)rel32_at(p + 1);
			i += 5;
			break;
		} else if (p[pre] == 0xff && p[pre + 1] == 0x25) { /* jmp *disp32(%rip) */
			uint64_t mem = ip + pre + 6 + (int64_t)rel32_at(p + pre + 2);

			i += pre + 6;
			if (mem == copy_addr + i) { /* an 8-byte literal right after: absolute */
				assert_true(i + 8 <= r->copy_len);
				m.kind = TO_ADDRESS;
				memcpy(&m.target, r->copy + i, 8);
				i += 8;
			} else {
				m.kind = THROUGH_MEMORY;
				m.target = mem;
			}
			break;
		} else if (p[pre] == 0xff && (p[pre + 1] & 0xf8) == 0xe0) { /* jmp *reg */
			m.kind = THROUGH_REGISTER;
			m.reg_modrm = p[pre + 1];
			i += pre + 2;
			break;
		} else {
			fail_msg("copy+%zu: byte 0x%02x is not one of the flags-neutral "
				 "push/mov/jmp",
				 i, p[0]);
		}
	}
	assert_int_equal(pushes, 1);
	assert_true(high_set);
	assert_int_equal(i, r->copy_len); /* the jump ends the copy: nothing falls through */
	assert_true(r->call_moved);
	return m;
}

static void test_call_rel32_at_entry_moved(void **state)
{
	/* 0 call ADDR+0x1005 | 5 xor eax,eax; 7 ret */
	static const uint8_t code[] = { 0xe8, 0x00, 0x10, 0x00, 0x00, 0x31, 0xc0, 0xc3 };
	const uint64_t copies[] = { NEAR, BELOW, FAR };
	struct tt_reloc r;
	struct moved_call m;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(copies) / sizeof(copies[0]); i++) {
		plan_ok(code, sizeof(code), ADDR, copies[i], &r, 0, 5);
		assert_memory_equal(r.copy, ENDBR64, 4);
		m = run_moved_call(&r, copies[i], 4);
		assert_int_equal(m.pushed, ADDR + 5); /* the original return address */
		assert_int_equal(m.kind, TO_ADDRESS);
		assert_int_equal(m.target, ADDR + 0x1005);
		/* rel32 when it reaches, else through a literal (3 GiB away) */
		assert_int_equal(r.copy_len, copies[i] == FAR ? 4 + 13 + 14 : 4 + 13 + 5);
	}
}

static void test_call_rel32_after_frame_setup_moved(void **state)
{
	/* gcc -O0: 0 push rbp; 1 mov rbp,rsp; 4 call ADDR-0x2000 | 9 mov eax,0; e pop rbp; f ret */
	static const uint8_t code[] = { 0x55, 0x48, 0x89, 0xe5, 0xe8, 0xf7, 0xdf, 0xff,
					0xff, 0xb8, 0x00, 0x00, 0x00, 0x00, 0x5d, 0xc3 };
	/* the same after an endbr64: the call at +8 */
	uint8_t cet[4 + sizeof(code)];
	struct tt_reloc r;
	struct moved_call m;

	(void)state;
	plan_ok(code, sizeof(code), ADDR, NEAR, &r, 0, 9);
	assert_memory_equal(r.copy + 4, code, 4); /* push rbp; mov rbp,rsp unchanged */
	m = run_moved_call(&r, NEAR, 8);
	assert_int_equal(m.pushed, ADDR + 9);
	assert_int_equal(m.kind, TO_ADDRESS);
	assert_int_equal(m.target, ADDR - 0x2000);

	memcpy(cet, ENDBR64, 4);
	memcpy(cet + 4, code, sizeof(code));
	plan_ok(cet, sizeof(cet), ADDR, BELOW, &r, 4, 9);
	assert_memory_equal(r.copy, cet, 8);
	m = run_moved_call(&r, BELOW, 8);
	assert_int_equal(m.pushed, ADDR + 13);
	assert_int_equal(m.target, ADDR + 4 - 0x2000);
}

static void test_call_return_address_above_4gib(void **state)
{
	/* push imm32 sign-extends: both halves must come out right, whatever their top bits */
	static const uint8_t code[] = { 0xe8, 0x00, 0x10, 0x00, 0x00, 0x31, 0xc0, 0xc3 };
	const uint64_t addrs[] = { UINT64_C(0x7fff80001000), UINT64_C(0x401000),
				   UINT64_C(0x7ffff7fc8ffb) };
	struct tt_reloc r;
	struct moved_call m;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(addrs) / sizeof(addrs[0]); i++) {
		plan_ok(code, sizeof(code), addrs[i], addrs[i] + 0x10000, &r, 0, 5);
		m = run_moved_call(&r, addrs[i] + 0x10000, 4);
		assert_int_equal(m.pushed, addrs[i] + 5);
		assert_int_equal(m.target, addrs[i] + 0x1005);
	}
}

static void test_call_through_got_slot_moved(void **state)
{
	/* -fno-plt: 0 push rbp; 1 call *[rip+0x2ff0] (-> slot ADDR+0x2ff7) | 7 pop rbp; 8 ret */
	static const uint8_t code[] = { 0x55, 0xff, 0x15, 0xf0, 0x2f, 0x00, 0x00, 0x5d, 0xc3 };
	/* the same with notrack (3e): kept, the jump is as indirect as the call was */
	static const uint8_t notrack[] = { 0x55, 0x3e, 0xff, 0x15, 0xef,
					   0x2f, 0x00, 0x00, 0x5d, 0xc3 };
	const uint64_t copies[] = { NEAR, BELOW };
	struct tt_reloc r;
	struct moved_call m;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(copies) / sizeof(copies[0]); i++) {
		plan_ok(code, sizeof(code), ADDR, copies[i], &r, 0, 7);
		m = run_moved_call(&r, copies[i], 5);
		assert_int_equal(m.pushed, ADDR + 7);
		assert_int_equal(m.kind, THROUGH_MEMORY); /* the slot is read when it runs */
		assert_int_equal(m.target, ADDR + 0x2ff7);
	}
	plan_ok(notrack, sizeof(notrack), ADDR, NEAR, &r, 0, 8);
	m = run_moved_call(&r, NEAR, 5);
	assert_int_equal(r.copy[4 + 1 + 13], 0x3e);
	assert_int_equal(m.pushed, ADDR + 8);
	assert_int_equal(m.kind, THROUGH_MEMORY);
	assert_int_equal(m.target, ADDR + 0x2ff7);

	plan_refused(code, sizeof(code), ADDR, FAR, "would not reach", NULL);
}

static void test_call_register_moved_when_last(void **state)
{
	/* 0 xor eax,eax; 2 push rbx; 3 call r11 | 6 pop rbx; 7 ret */
	static const uint8_t code[] = { 0x31, 0xc0, 0x53, 0x41, 0xff, 0xd3, 0x5b, 0xc3 };
	struct tt_reloc r;
	struct moved_call m;

	(void)state;
	plan_ok(code, sizeof(code), ADDR, NEAR, &r, 0, 6);
	m = run_moved_call(&r, NEAR, 7);
	assert_int_equal(m.pushed, ADDR + 6);
	assert_int_equal(m.kind, THROUGH_REGISTER);
	assert_int_equal(m.reg_modrm, 0xe3); /* jmp r11 (with its REX.B) */
	assert_int_equal(r.copy[r.copy_len - 3], 0x41);
}

static void test_calls_refused(void **state)
{
	/* 0 call rax | 2 ...: its callee would return into the patched bytes */
	static const uint8_t short_reg[] = { 0xff, 0xd0, 0x31, 0xc0, 0x90, 0x90, 0xc3 };
	/* 0 xor eax,eax; 2 call [rax+8] | 5 ret */
	static const uint8_t reg_mem[] = { 0x31, 0xc0, 0xff, 0x50, 0x08, 0xc3 };
	/* 0 call far [rip+0x100] | 6 ret */
	static const uint8_t far[] = { 0xff, 0x1d, 0x00, 0x01, 0x00, 0x00, 0xc3 };
	/* 0 xor eax,eax; 2 nop; 3 call rsp | 5 ret */
	static const uint8_t rsp[] = { 0x31, 0xc0, 0x90, 0xff, 0xd4, 0xc3 };
	/* 0 sub rsp,8; 4 call +2 (into the displaced bytes, not the entry) | 9 ... */
	static const uint8_t into[] = { 0x48, 0x83, 0xec, 0x08, 0xe8, 0xf9, 0xff,
					0xff, 0xff, 0x48, 0x83, 0xc4, 0x08, 0xc3 };

	(void)state;
	plan_refused(short_reg, sizeof(short_reg), ADDR, NEAR, "2-byte call", "+0x0", "return into",
		     NULL);
	plan_refused(reg_mem, sizeof(reg_mem), ADDR, NEAR, "call through memory", NULL);
	plan_refused(far, sizeof(far), ADDR, NEAR, "far", NULL);
	plan_refused(rsp, sizeof(rsp), ADDR, NEAR, "rsp", NULL);
	plan_refused(into, sizeof(into), ADDR, NEAR, "call", "+0x4", NULL);
}

static void test_no_call_no_call_moved(void **state)
{
	static const uint8_t code[] = { 0x55, 0x48, 0x89, 0xe5, 0x41, 0x54, 0x53,
					0x31, 0xc0, 0x5b, 0x41, 0x5c, 0x5d, 0xc3 };
	struct tt_reloc r;

	(void)state;
	plan_ok(code, sizeof(code), ADDR, NEAR, &r, 0, 6);
	assert_false(r.call_moved);
}

static void test_loop_jrcxz_among_displaced_refused(void **state)
{
	/* 0 xor eax,eax; 2 jrcxz 0x12 | 4..11 nop; 12 ret */
	uint8_t jrcxz[0x13];
	/* 0 xor eax,eax; 2 loop 0x12 | ... */
	uint8_t loop[0x13];

	(void)state;
	memset(jrcxz, 0x90, sizeof(jrcxz));
	memcpy(jrcxz, (const uint8_t[]){ 0x31, 0xc0, 0xe3, 0x0e }, 4);
	jrcxz[0x12] = 0xc3;
	memcpy(loop, jrcxz, sizeof(loop));
	loop[2] = 0xe2;
	plan_refused(jrcxz, sizeof(jrcxz), ADDR, NEAR, "jrcxz", NULL);
	plan_refused(loop, sizeof(loop), ADDR, NEAR, "loop", NULL);
}

static void test_xbegin_among_displaced_refused(void **state)
{
	/* 0 xbegin 0x16 (C7 F8 rel32: no jcc, it must not be "widened" into one) | 6 nop;
	 * 7 ret */
	static const uint8_t xbegin[] = { 0xc7, 0xf8, 0x10, 0x00, 0x00, 0x00, 0x90, 0xc3 };

	(void)state;
	plan_refused(xbegin, sizeof(xbegin), ADDR, NEAR, "xbegin", NULL);
}

/* ---- a whole short function (the trap route) ------------------------------------------- */

static void whole_ok(const uint8_t *code, size_t size, struct tt_reloc *r, size_t patch_at)
{
	char why[WHY_SIZE];
	const char *err;

	need_zydis();
	err = tt_reloc_whole(code, size, ADDR, NEAR, r, why, sizeof(why));
	if (err)
		fail_msg("refused: %s", err);
	assert_int_equal(r->patch_at, patch_at);
	assert_int_equal(r->displaced, 1);
	assert_true(r->copy_len <= TT_COPY_MAX);
}

static void whole_refused(const uint8_t *code, size_t size, const char *frag)
{
	struct tt_reloc r;
	char why[WHY_SIZE];
	const char *err;

	need_zydis();
	err = tt_reloc_whole(code, size, ADDR, NEAR, &r, why, sizeof(why));
	if (!err)
		fail_msg("accepted; expected a refusal");
	if (!strstr(err, frag))
		fail_msg("reason \"%s\" does not mention \"%s\"", err, frag);
}

static void test_whole_lone_ret(void **state)
{
	static const uint8_t code[] = { 0xc3 };
	static const uint8_t want[] = { 0xf3, 0x0f, 0x1e, 0xfa, 0xc3 };
	struct tt_reloc r;

	(void)state;
	whole_ok(code, sizeof(code), &r, 0);
	check_copy(&r, want, sizeof(want)); /* its own ret: no jump back */
	assert_false(r.call_moved);
}

static void test_whole_after_endbr64(void **state)
{
	/* endbr64; xor eax,eax; ret: the int3 goes at +4, the copy holds one endbr64 */
	static const uint8_t code[] = { 0xf3, 0x0f, 0x1e, 0xfa, 0x31, 0xc0, 0xc3 };
	static const uint8_t want[] = { 0xf3, 0x0f, 0x1e, 0xfa, 0x31, 0xc0, 0xc3 };
	struct tt_reloc r;

	(void)state;
	whole_ok(code, sizeof(code), &r, 4);
	check_copy(&r, want, sizeof(want));
}

static void test_whole_falls_through(void **state)
{
	/* inc eax (2 bytes), then the next function: the copy jumps back to addr + 2 */
	static const uint8_t code[] = { 0xff, 0xc0 };
	struct tt_reloc r;
	const uint8_t *j;

	(void)state;
	whole_ok(code, sizeof(code), &r, 0);
	assert_int_equal(r.copy_len, 4 + 2 + 5);
	assert_memory_equal(r.copy + 4, code, 2);
	j = r.copy + 6;
	assert_int_equal(j[0], 0xe9);
	assert_int_equal(NEAR + r.copy_len + (int64_t)rel32_at(j + 1), ADDR + 2);
}

static void test_whole_tail_jump_reaimed(void **state)
{
	/* jmp rel8 +0x10 (2 bytes): widened, aimed at the same address from the copy */
	static const uint8_t code[] = { 0xeb, 0x10 };
	struct tt_reloc r;

	(void)state;
	whole_ok(code, sizeof(code), &r, 0);
	assert_int_equal(r.copy_len, 4 + 5);
	assert_int_equal(r.copy[4], 0xe9);
	assert_int_equal(NEAR + 9 + (int64_t)rel32_at(r.copy + 5), ADDR + 2 + 0x10);
}

static void test_whole_refused(void **state)
{
	static const uint8_t inner_jump[] = { 0x74, 0x00, 0xc3 }; /* je to its own ret */
	static const uint8_t loop_self[] = { 0xe2, 0xfe };	  /* loop . */
	static const uint8_t undecodable[] = { 0x06 };		  /* push es: none in 64-bit mode */
	static const uint8_t past_end[] = { 0xb8, 0x01 };	  /* mov eax, imm32 cut short */
	static const uint8_t only_endbr[] = { 0xf3, 0x0f, 0x1e, 0xfa };

	(void)state;
	whole_refused(inner_jump, sizeof(inner_jump), "a jump within");
	whole_refused(loop_self, sizeof(loop_self), "loop");
	whole_refused(undecodable, sizeof(undecodable), "do not decode");
	whole_refused(past_end, sizeof(past_end), "");
	whole_refused(only_endbr, sizeof(only_endbr), "no instruction after its endbr64");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_endbr64),
		cmocka_unit_test(test_endbr64_kept),
		cmocka_unit_test(test_instruction_map),
		cmocka_unit_test(test_exactly_patch_length),
		cmocka_unit_test(test_shorter_than_patch),
		cmocka_unit_test(test_why_truncated_to_its_size),
		cmocka_unit_test(test_undecodable_refused),
		cmocka_unit_test(test_loop_to_second_instruction_refused),
		cmocka_unit_test(test_loop_to_first_kept_instruction_allowed),
		cmocka_unit_test(test_jump_to_entry_refused_recursive_call_allowed),
		cmocka_unit_test(test_endbr64_jump_to_entry_refused_call_allowed),
		cmocka_unit_test(test_rip_relative_mov_reaimed),
		cmocka_unit_test(test_rip_relative_lea_after_endbr64_reaimed),
		cmocka_unit_test(test_rip_relative_with_immediate_after_disp),
		cmocka_unit_test(test_rip_relative_out_of_reach_refused),
		cmocka_unit_test(test_jcc_rel8_widened),
		cmocka_unit_test(test_jcc_rel32_reaimed),
		cmocka_unit_test(test_jmp_rel8_widened),
		cmocka_unit_test(test_jmp_rel32_tail_call_reaimed),
		cmocka_unit_test(test_jump_within_displaced_refused),
		cmocka_unit_test(test_call_rel32_at_entry_moved),
		cmocka_unit_test(test_call_rel32_after_frame_setup_moved),
		cmocka_unit_test(test_call_return_address_above_4gib),
		cmocka_unit_test(test_call_through_got_slot_moved),
		cmocka_unit_test(test_call_register_moved_when_last),
		cmocka_unit_test(test_calls_refused),
		cmocka_unit_test(test_no_call_no_call_moved),
		cmocka_unit_test(test_loop_jrcxz_among_displaced_refused),
		cmocka_unit_test(test_xbegin_among_displaced_refused),
		cmocka_unit_test(test_whole_lone_ret),
		cmocka_unit_test(test_whole_after_endbr64),
		cmocka_unit_test(test_whole_falls_through),
		cmocka_unit_test(test_whole_tail_jump_reaimed),
		cmocka_unit_test(test_whole_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
