/*
 * relocate.c - see relocate.h.
 *
 * Moving an instruction changes what its rip-relative parts mean: a [rip + disp32] operand
 * and a jmp/jcc displacement are re-aimed at the same absolute address from the new place
 * (short jumps widened to rel32, since the copy is far from the original). Calls are not
 * moved: the return address would point into the copy, where no unwinder can find CFI.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "x86/disasm.h"
#include "x86/relocate.h"

static const uint8_t endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };

static bool fits32(int64_t v)
{
	return v >= INT32_MIN && v <= INT32_MAX;
}

static void put32(uint8_t *p, int32_t v)
{
	memcpy(p, &v, 4);
}

static int32_t get32(const uint8_t *p)
{
	int32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* A jump of the function (anywhere in it) into the bytes the patch replaces, or that would
 * re-enter the patch: a loop back to the entry would count as a second call. */
static const char *scan_jumps(const uint8_t *code, size_t size, uint64_t addr, size_t end,
			      size_t patch_at, char *why, size_t why_size)
{
	struct tt_insn in;
	size_t off;

	for (off = 0; off < size; off += in.len) {
		uint64_t t;

		if (tt_disasm_decode(code + off, size - off, addr + off, &in) < 0) {
			snprintf(why, why_size, "bytes at +0x%zx do not decode as an instruction",
				 off);
			return why;
		}
		if (in.kind != TT_INSN_JMP && in.kind != TT_INSN_JCC && in.kind != TT_INSN_CALL &&
		    in.kind != TT_INSN_BRANCH_OTHER)
			continue;
		t = in.target;
		if (t < addr || t >= addr + end)
			continue;
		if (in.kind == TT_INSN_CALL && (t == addr || t == addr + patch_at))
			continue; /* recursion: a call of the function, counted as one */
		snprintf(why, why_size, "a %s at +0x%zx goes back into its first %zu bytes",
			 in.kind == TT_INSN_CALL ? "call" : "jump", off, end);
		return why;
	}
	return NULL;
}

/* Append the relocated form of `in` (at code, run at ip) to out->copy. */
static const char *relocate_one(const uint8_t *code, const struct tt_insn *in, uint64_t ip,
				uint64_t new_ip, uint64_t lo, uint64_t hi, struct tt_reloc *out,
				char *why, size_t why_size)
{
	uint8_t *dst = out->copy + out->copy_len;
	int64_t rel;

	switch (in->kind) {
	case TT_INSN_CALL:
		snprintf(why, why_size, "a call among its first %zu bytes", hi - lo);
		return why;
	case TT_INSN_BRANCH_OTHER:
		snprintf(why, why_size, "a loop, jrcxz or xbegin among its first %zu bytes",
			 hi - lo);
		return why;
	case TT_INSN_JMP:
	case TT_INSN_JCC:
		if (in->target >= lo && in->target < hi) {
			snprintf(why, why_size, "a jump within its first %zu bytes", hi - lo);
			return why;
		}
		if (in->kind == TT_INSN_JMP) {
			rel = (int64_t)(in->target - (new_ip + 5));
			dst[0] = 0xe9;
			out->copy_len += 5;
		} else {
			rel = (int64_t)(in->target - (new_ip + 6));
			dst[0] = 0x0f;
			dst[1] = (uint8_t)(0x80 | in->cond);
			out->copy_len += 6;
		}
		if (!fits32(rel))
			goto far;
		put32(out->copy + out->copy_len - 4, (int32_t)rel);
		return NULL;
	default: break;
	}
	memcpy(dst, code, in->len);
	out->copy_len += in->len;
	if (in->rip_relative) {
		rel = get32(code + in->disp_offset) + (int64_t)(ip - new_ip);
		if (!fits32(rel))
			goto far;
		put32(dst + in->disp_offset, (int32_t)rel);
	}
	return NULL;
far:
	snprintf(why, why_size, "a rip-relative operand would not reach from the copy");
	return why;
}

const char *tt_reloc_plan(const uint8_t *code, size_t size, uint64_t addr, uint64_t copy_addr,
			  struct tt_reloc *out, char *why, size_t why_size)
{
	struct tt_insn in;
	size_t off;
	int64_t back;
	const char *err;

	memset(out, 0, sizeof(*out));
	if (size >= 4 && memcmp(code, endbr64, 4) == 0)
		out->patch_at = 4;
	if (size < out->patch_at + TT_PATCH_LEN) {
		snprintf(why, why_size, "it is %zu byte%s long, shorter than the %d-byte jump%s",
			 size, size == 1 ? "" : "s", TT_PATCH_LEN,
			 out->patch_at ? " after its endbr64" : "");
		return why;
	}
	memcpy(out->copy, endbr64, 4);
	out->copy_len = 4;
	for (off = out->patch_at; off < out->patch_at + TT_PATCH_LEN; off += in.len) {
		if (tt_disasm_decode(code + off, size - off, addr + off, &in) < 0) {
			snprintf(why, why_size, "bytes at +0x%zx do not decode as an instruction",
				 off);
			return why;
		}
		if (off + in.len > size) {
			snprintf(why, why_size, "its entry instructions run past its end");
			return why;
		}
		if (out->copy_len + in.len + 6 + 5 > TT_COPY_MAX) {
			snprintf(why, why_size, "its entry instructions are too long to move");
			return why;
		}
		err = relocate_one(code + off, &in, addr + off, copy_addr + out->copy_len,
				   addr + out->patch_at, addr + out->patch_at + TT_PATCH_LEN, out,
				   why, why_size);
		if (err)
			return err;
	}
	out->displaced = off - out->patch_at;
	err = scan_jumps(code, size, addr, off, out->patch_at, why, why_size);
	if (err)
		return err;
	back = (int64_t)((addr + off) - (copy_addr + out->copy_len + 5));
	if (!fits32(back)) {
		snprintf(why, why_size, "the copy of its entry is out of jump range");
		return why;
	}
	out->copy[out->copy_len] = 0xe9;
	put32(out->copy + out->copy_len + 1, (int32_t)back);
	out->copy_len += 5;
	return NULL;
}
