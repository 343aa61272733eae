/*
 * relocate.c - see relocate.h.
 *
 * Moving an instruction changes what its rip-relative parts mean: a [rip + disp32] operand
 * and a jmp/jcc displacement are re-aimed at the same absolute address from the new place
 * (short jumps widened to rel32, since the copy is far from the original).
 *
 * A call is not copied as a call: its return address would point into the copy, where no
 * unwinder finds CFI and backtraces lose the function. The copy pushes the return address the
 * original call would have pushed and jumps to the callee, as Frida's and funchook's
 * relocators do. That address is the original code right after the displaced bytes, and
 * running on there is correct only because the call is the last displaced instruction (see
 * tt_reloc_plan): the callee returns into unpatched code with the function's own CFI.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "x86/disasm.h"
#include "x86/relocate.h"

static const uint8_t endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };

/* Pushing a 64-bit return address: push imm32 (sign-extended) sets the low half, movl imm32
 * to 4(%rsp) the high half. Neither touches flags or any register but %rsp. */
#define PUSH_RET_LEN (5 + 8)
/* jmp *0(%rip) and the 8-byte address after it: a callee out of rel32 reach. */
#define JMP_ABS_LEN (6 + 8)
#define CALL_COPY_MAX (PUSH_RET_LEN + JMP_ABS_LEN)

/* A call of 5 bytes or more that starts in the 5 patched bytes ends at or after them, so it
 * is the last instruction displaced: these two forms always are. */
_Static_assert(5 >= TT_PATCH_LEN, "call rel32 is the last instruction the patch displaces");
_Static_assert(6 >= TT_PATCH_LEN, "call *[rip+disp32] is the last instruction displaced");

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

/* Note the field at copy + at, written from the absolute address target (made relative to the
 * function once the plan is done: relative_fixes). One too many marks the copy as one that
 * cannot be rebased. */
static void fix(struct tt_reloc *out, enum tt_reloc_fix_kind kind, size_t at, size_t end,
		uint64_t target)
{
	if (out->nfix < TT_RELOC_FIXES)
		out->fix[out->nfix] = (struct tt_reloc_fix){ .kind = (uint8_t)kind,
							     .at = (uint8_t)at,
							     .end = (uint8_t)end,
							     .target = (int64_t)target };
	if (out->nfix <= TT_RELOC_FIXES)
		out->nfix++;
}

static void relative_fixes(struct tt_reloc *out, uint64_t addr)
{
	size_t i;

	for (i = 0; i < out->nfix && i < TT_RELOC_FIXES; i++)
		out->fix[i].target = (int64_t)((uint64_t)out->fix[i].target - addr);
}

void tt_reloc_scan(const uint8_t *code, size_t size, uint64_t addr, size_t end, size_t patch_at,
		   struct tt_reloc_scan *out)
{
	struct tt_insn in;
	size_t off;

	out->what = TT_SCAN_NONE;
	out->off = 0;
	for (off = 0; off < size; off += in.len) {
		uint64_t t;

		if (tt_disasm_decode(code + off, size - off, addr + off, &in) < 0) {
			out->what = TT_SCAN_UNDECODABLE;
			out->off = off;
			return;
		}
		if (in.kind != TT_INSN_JMP && in.kind != TT_INSN_JCC && in.kind != TT_INSN_CALL &&
		    in.kind != TT_INSN_BRANCH_OTHER)
			continue;
		t = in.target;
		if (t < addr || t >= addr + end)
			continue;
		if (in.kind == TT_INSN_CALL && (t == addr || t == addr + patch_at))
			continue; /* recursion: a call of the function, counted as one */
		out->what = in.kind == TT_INSN_CALL ? TT_SCAN_CALL : TT_SCAN_JUMP;
		out->off = off;
		return;
	}
}

const char *tt_reloc_scan_why(const struct tt_reloc_scan *s, size_t end, char *why, size_t why_size)
{
	switch (s->what) {
	case TT_SCAN_NONE: return NULL;
	case TT_SCAN_UNDECODABLE:
		snprintf(why, why_size, "bytes at +0x%llx do not decode as an instruction",
			 (unsigned long long)s->off);
		return why;
	default:
		snprintf(why, why_size, "a %s at +0x%llx goes back into its first %zu bytes",
			 s->what == TT_SCAN_CALL ? "call" : "jump", (unsigned long long)s->off,
			 end);
		return why;
	}
}

static uint8_t *push_return_address(uint8_t *dst, uint64_t ret)
{
	uint32_t low = (uint32_t)ret, high = (uint32_t)(ret >> 32);

	dst[0] = 0x68; /* push $imm32 */
	memcpy(dst + 1, &low, 4);
	memcpy(dst + 5, (const uint8_t[]){ 0xc7, 0x44, 0x24, 0x04 }, 4); /* movl $imm32, 4(%rsp) */
	memcpy(dst + 9, &high, 4);
	return dst + PUSH_RET_LEN;
}

/*
 * Append `call` (at code, run at ip) as a push of its original return address and a jump to
 * its callee: rel32 when it reaches from the copy, else through an 8-byte literal; *reg and
 * *[rip+disp32] as the same instruction with jmp's opcode extension (FF /4 for FF /2), which
 * reads the register or the GOT slot when it runs, as the call would have.
 */
static const char *relocate_call(const uint8_t *code, const struct tt_insn *in, uint64_t ip,
				 uint64_t new_ip, size_t span, struct tt_reloc *out, char *why,
				 size_t why_size)
{
	uint8_t *start = out->copy + out->copy_len, *dst;
	uint64_t jmp_ip;
	int64_t rel;

	switch (in->call_form) {
	case TT_CALL_REL32:
	case TT_CALL_RIP_MEM:
	case TT_CALL_REG: break;
	case TT_CALL_REG_MEM:
		snprintf(why, why_size,
			 "a call through memory addressed by registers among its first %zu bytes",
			 span);
		return why;
	default:
		snprintf(why, why_size,
			 "a far, 16-bit or %%rsp-relative call among its first %zu bytes", span);
		return why;
	}
	if (out->copy_len + CALL_COPY_MAX > TT_COPY_MAX) {
		snprintf(why, why_size, "its entry instructions are too long to move");
		return why;
	}
	dst = push_return_address(start, ip + in->len);
	fix(out, TT_FIX_ABS_LO32, (size_t)(start - out->copy) + 1, 0, ip + in->len);
	fix(out, TT_FIX_ABS_HI32, (size_t)(start - out->copy) + 9, 0, ip + in->len);
	jmp_ip = new_ip + (uint64_t)(dst - start);
	if (in->call_form == TT_CALL_REL32) {
		rel = (int64_t)(in->target - (jmp_ip + 5));
		if (fits32(rel)) {
			dst[0] = 0xe9;
			put32(dst + 1, (int32_t)rel);
			fix(out, TT_FIX_REL32, (size_t)(dst - out->copy) + 1,
			    (size_t)(dst - out->copy) + 5, in->target);
			dst += 5;
		} else {
			memcpy(dst, (const uint8_t[]){ 0xff, 0x25, 0, 0, 0, 0 }, 6);
			memcpy(dst + 6, &in->target, 8);
			fix(out, TT_FIX_ABS64, (size_t)(dst - out->copy) + 6, 0, in->target);
			dst += JMP_ABS_LEN;
		}
	} else {
		memcpy(dst, code, in->len);
		dst[in->modrm_offset] = (uint8_t)((dst[in->modrm_offset] & ~0x38) | (4 << 3));
		if (in->call_form == TT_CALL_RIP_MEM) {
			rel = get32(code + in->disp_offset) + (int64_t)(ip - jmp_ip);
			if (!fits32(rel)) {
				snprintf(why, why_size,
					 "a rip-relative operand would not reach from the copy");
				return why;
			}
			put32(dst + in->disp_offset, (int32_t)rel);
			fix(out, TT_FIX_REL32, (size_t)(dst - out->copy) + in->disp_offset,
			    (size_t)(dst - out->copy) + in->len,
			    ip + in->len + (uint64_t)(int64_t)get32(code + in->disp_offset));
		}
		dst += in->len;
	}
	out->copy_len += (size_t)(dst - start);
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
	case TT_INSN_CALL: return relocate_call(code, in, ip, new_ip, hi - lo, out, why, why_size);
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
		fix(out, TT_FIX_REL32, out->copy_len - 4, out->copy_len, in->target);
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
		fix(out, TT_FIX_REL32, out->copy_len - in->len + in->disp_offset, out->copy_len,
		    ip + in->len + (uint64_t)(int64_t)get32(code + in->disp_offset));
	}
	return NULL;
far:
	snprintf(why, why_size, "a rip-relative operand would not reach from the copy");
	return why;
}

static const char *plan_entry(const uint8_t *code, size_t size, uint64_t addr, uint64_t copy_addr,
			      struct tt_reloc *out, char *why, size_t why_size)
{
	struct tt_insn in;
	size_t off;
	int64_t back;
	const char *err;
	bool ends_in_call = false;

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
		/* The copy of a call returns into the original code after it: that must be past
		 * the patched bytes, which only a call that is the last displaced instruction
		 * is. Short calls (*reg, *[reg]) can end inside them: refused. */
		if (in.kind == TT_INSN_CALL && off + in.len < out->patch_at + TT_PATCH_LEN) {
			snprintf(why, why_size,
				 "a %u-byte call at +0x%zx would return into its first %d bytes",
				 in.len, off, TT_PATCH_LEN);
			return why;
		}
		if (out->copy_len + in.len + 6 + 5 > TT_COPY_MAX) {
			snprintf(why, why_size, "its entry instructions are too long to move");
			return why;
		}
		out->map.at[out->map.insns] = (uint8_t)off;
		out->map.copy[out->map.insns++] = (uint8_t)out->copy_len;
		err = relocate_one(code + off, &in, addr + off, copy_addr + out->copy_len,
				   addr + out->patch_at, addr + out->patch_at + TT_PATCH_LEN, out,
				   why, why_size);
		if (err)
			return err;
		ends_in_call = in.kind == TT_INSN_CALL;
	}
	out->displaced = off - out->patch_at;
	out->call_moved = ends_in_call;
	if (ends_in_call)
		return NULL; /* the callee returns to addr + off: no jump back */
	back = (int64_t)((addr + off) - (copy_addr + out->copy_len + 5));
	if (!fits32(back)) {
		snprintf(why, why_size, "the copy of its entry is out of jump range");
		return why;
	}
	out->copy[out->copy_len] = 0xe9;
	put32(out->copy + out->copy_len + 1, (int32_t)back);
	fix(out, TT_FIX_REL32, out->copy_len + 1, out->copy_len + 5, addr + off);
	out->copy_len += 5;
	return NULL;
}

const char *tt_reloc_plan_entry(const uint8_t *code, size_t size, uint64_t addr, uint64_t copy_addr,
				struct tt_reloc *out, char *why, size_t why_size)
{
	const char *err = plan_entry(code, size, addr, copy_addr, out, why, why_size);

	if (!err)
		relative_fixes(out, addr);
	return err;
}

const char *tt_reloc_plan(const uint8_t *code, size_t size, uint64_t addr, uint64_t copy_addr,
			  struct tt_reloc *out, char *why, size_t why_size)
{
	struct tt_reloc_scan scan;
	const char *err = tt_reloc_plan_entry(code, size, addr, copy_addr, out, why, why_size);

	if (err)
		return err;
	tt_reloc_scan(code, size, addr, out->patch_at + out->displaced, out->patch_at, &scan);
	return tt_reloc_scan_why(&scan, out->patch_at + out->displaced, why, why_size);
}

long tt_reloc_copy_offset(const struct tt_reloc_map *m, size_t off)
{
	size_t i;

	for (i = 1; i < m->insns; i++) /* the first is the entry: a thread there takes the jump */
		if (m->at[i] == off)
			return m->copy[i];
	return -1;
}

static const char *whole(const uint8_t *code, size_t size, uint64_t addr, uint64_t copy_addr,
			 struct tt_reloc *out, char *why, size_t why_size)
{
	struct tt_insn in;
	size_t off;
	int64_t back;
	const char *err;

	memset(out, 0, sizeof(*out));
	if (size >= 4 && memcmp(code, endbr64, 4) == 0)
		out->patch_at = 4;
	if (size <= out->patch_at) {
		snprintf(why, why_size, "it has no instruction after its endbr64");
		return why;
	}
	out->displaced = 1; /* the int3 */
	memcpy(out->copy, endbr64, 4);
	out->copy_len = 4;
	for (off = out->patch_at; off < size; off += in.len) {
		if (tt_disasm_decode(code + off, size - off, addr + off, &in) < 0) {
			snprintf(why, why_size, "bytes at +0x%zx do not decode as an instruction",
				 off);
			return why;
		}
		if (off + in.len > size) {
			snprintf(why, why_size, "its instructions run past its end");
			return why;
		}
		if (out->copy_len + in.len + CALL_COPY_MAX + 5 > TT_COPY_MAX) {
			snprintf(why, why_size, "its instructions are too long to move");
			return why;
		}
		/* Jumps into [addr, addr + size) are refused: a copy cannot go back into itself
		 * through the original, whose entry now traps. */
		err = relocate_one(code + off, &in, addr + off, copy_addr + out->copy_len, addr,
				   addr + size, out, why, why_size);
		if (err)
			return err;
		if (in.kind == TT_INSN_CALL) {
			/* It returns into the original code after it: past the int3, unchanged. */
			out->call_moved = true;
			return NULL;
		}
		if (in.kind == TT_INSN_RET || in.kind == TT_INSN_JMP || in.kind == TT_INSN_INDIRECT)
			return NULL; /* the function's own way out */
	}
	back = (int64_t)((addr + size) - (copy_addr + out->copy_len + 5));
	if (!fits32(back)) {
		snprintf(why, why_size, "the copy of it is out of jump range");
		return why;
	}
	out->copy[out->copy_len] = 0xe9; /* it falls through into what follows it */
	put32(out->copy + out->copy_len + 1, (int32_t)back);
	fix(out, TT_FIX_REL32, out->copy_len + 1, out->copy_len + 5, addr + size);
	out->copy_len += 5;
	return NULL;
}

const char *tt_reloc_whole(const uint8_t *code, size_t size, uint64_t addr, uint64_t copy_addr,
			   struct tt_reloc *out, char *why, size_t why_size)
{
	const char *err = whole(code, size, addr, copy_addr, out, why, why_size);

	if (!err)
		relative_fixes(out, addr);
	return err;
}

int tt_reloc_rebase(struct tt_reloc *r, uint64_t addr, uint64_t copy_addr)
{
	size_t i;

	if (r->nfix > TT_RELOC_FIXES)
		return -1;
	for (i = 0; i < r->nfix; i++) { /* every field fits before any is written */
		const struct tt_reloc_fix *f = &r->fix[i];
		size_t width = f->kind == TT_FIX_ABS64 ? 8 : 4;

		if (f->kind < TT_FIX_REL32 || f->kind > TT_FIX_ABS_HI32 ||
		    (size_t)f->at + width > r->copy_len || f->end > r->copy_len ||
		    (f->kind == TT_FIX_REL32 &&
		     !fits32((int64_t)(addr + (uint64_t)f->target - (copy_addr + f->end)))))
			return -1;
	}
	for (i = 0; i < r->nfix; i++) {
		const struct tt_reloc_fix *f = &r->fix[i];
		uint64_t abs = addr + (uint64_t)f->target;

		switch (f->kind) {
		case TT_FIX_REL32:
			put32(r->copy + f->at, (int32_t)(int64_t)(abs - (copy_addr + f->end)));
			break;
		case TT_FIX_ABS64: memcpy(r->copy + f->at, &abs, 8); break;
		case TT_FIX_ABS_LO32: put32(r->copy + f->at, (int32_t)(uint32_t)abs); break;
		default: put32(r->copy + f->at, (int32_t)(uint32_t)(abs >> 32)); break;
		}
	}
	return 0;
}
