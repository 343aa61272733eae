/*
 * cfi.c - see cfi.h. The FDE comes from the PT_GNU_EH_FRAME search table (ehframe.c); its CIE
 * and its own instructions are run up to pc as DWARF 5 section 6.4 describes, keeping only
 * the rules of the CFA, %rbp (DWARF register 6) and the return address (16).
 */
#include <string.h>

#include "elf/cfi.h"
#include "elf/ehframe.h"

#define REG_RBP 6
#define REG_RSP 7
#define REG_RA 16
#define STATES 8 /* DW_CFA_remember_state nesting kept */

enum reg_how { SAME, AT_CFA, UNDEF, OTHER };

struct row {
	int cfa_reg; /* -1: an expression or a register the walk does not have */
	int64_t cfa_off;
	enum reg_how rbp, ra;
	int64_t rbp_off, ra_off;
};

struct reader {
	const uint8_t *p, *end;
	int bad;
};

static uint64_t uleb(struct reader *r)
{
	uint64_t v = 0;
	unsigned int shift = 0;

	while (r->p < r->end) {
		uint8_t b = *r->p++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			return v;
	}
	r->bad = 1;
	return 0;
}

static int64_t sleb(struct reader *r)
{
	int64_t v = 0;
	unsigned int shift = 0;
	uint8_t b = 0;

	while (r->p < r->end) {
		b = *r->p++;
		if (shift < 64)
			v |= (int64_t)((uint64_t)(b & 0x7f) << shift);
		shift += 7;
		if (!(b & 0x80)) {
			if (shift < 64 && (b & 0x40))
				v |= -(int64_t)((uint64_t)1 << shift);
			return v;
		}
	}
	r->bad = 1;
	return 0;
}

static uint64_t fixed(struct reader *r, size_t n)
{
	uint64_t v = 0;

	if ((size_t)(r->end - r->p) < n) {
		r->bad = 1;
		return 0;
	}
	memcpy(&v, r->p, n); /* little-endian */
	r->p += n;
	return v;
}

/* A pointer in encoding enc (DW_EH_PE_*): pc-relative or absolute, no indirection. */
static uint64_t encoded(struct reader *r, uint8_t enc)
{
	const uint8_t *at = r->p;
	uint64_t v;

	switch (enc & 0x0f) {
	case 0x00: v = fixed(r, 8); break;
	case 0x01: v = uleb(r); break;
	case 0x02: v = fixed(r, 2); break;
	case 0x03: v = fixed(r, 4); break;
	case 0x04: v = fixed(r, 8); break;
	case 0x09: v = (uint64_t)sleb(r); break;
	case 0x0a: v = (uint64_t)(int64_t)(int16_t)fixed(r, 2); break;
	case 0x0b: v = (uint64_t)(int64_t)(int32_t)fixed(r, 4); break;
	case 0x0c: v = fixed(r, 8); break;
	default: r->bad = 1; return 0;
	}
	switch (enc & 0x70) {
	case 0x00: break;
	case 0x10: v += (uint64_t)(uintptr_t)at; break;
	default: r->bad = 1;
	}
	if (enc & 0x80)
		r->bad = 1;
	return v;
}

struct cie {
	uint64_t code_align;
	int64_t data_align;
	uint8_t fde_enc;
	int has_aug_data, signal_frame;
	struct reader insns;
};

/* The CIE at p; 0, or -1 when it is not one this file reads. */
static int read_cie(const uint8_t *p, struct cie *c)
{
	struct reader r;
	uint32_t len, id;
	const char *aug;
	uint8_t version;
	uint64_t ra_reg;

	memcpy(&len, p, 4);
	memcpy(&id, p + 4, 4);
	if (len == 0 || len == 0xffffffffu || id != 0)
		return -1;
	r.p = p + 8;
	r.end = p + 4 + len;
	r.bad = 0;
	version = (uint8_t)fixed(&r, 1);
	aug = (const char *)r.p;
	while (r.p < r.end && *r.p)
		r.p++;
	r.p++;
	if (version != 1 && version != 3)
		return -1;
	if (aug[0] && aug[0] != 'z')
		return -1; /* "eh" and other old forms */
	c->code_align = uleb(&r);
	c->data_align = sleb(&r);
	ra_reg = version == 1 ? fixed(&r, 1) : uleb(&r);
	c->fde_enc = 0;
	c->signal_frame = 0;
	c->has_aug_data = aug[0] == 'z';
	if (ra_reg != REG_RA)
		return -1;
	if (c->has_aug_data) {
		uint64_t n = uleb(&r);
		const uint8_t *data_end = r.p + n;
		const char *a;

		if (n > (uint64_t)(r.end - r.p))
			return -1;
		for (a = aug + 1; *a && !r.bad; a++) {
			if (*a == 'R')
				c->fde_enc = (uint8_t)fixed(&r, 1);
			else if (*a == 'L')
				fixed(&r, 1);
			else if (*a == 'P') {
				uint8_t enc = (uint8_t)fixed(&r, 1);
				struct reader skip = r;

				/* the personality's pointer: only its size matters here */
				encoded(&skip, enc & 0x0f);
				r.p = skip.p;
				r.bad |= skip.bad;
			} else if (*a == 'S')
				c->signal_frame = 1;
			else
				return -1;
		}
		r.p = data_end;
	}
	if (r.bad)
		return -1;
	c->insns = r;
	return 0;
}

/* Set a register's rule; only %rbp's and the return address's are kept. */
static void set_reg(struct row *row, uint64_t reg, enum reg_how how, int64_t off)
{
	if (reg == REG_RBP) {
		row->rbp = how;
		row->rbp_off = off;
	} else if (reg == REG_RA) {
		row->ra = how;
		row->ra_off = off;
	} else if (reg == REG_RSP && how != SAME) {
		row->cfa_reg = -1; /* %rsp restored from somewhere: not a plain frame */
	}
}

/*
 * Run instructions r from location *loc until the row for pc is reached (or they end).
 * init: the row after the CIE's instructions, which DW_CFA_restore goes back to.
 * Returns 0, or -1 on an instruction the walk cannot follow.
 */
static int run(struct reader *r, const struct cie *c, uint64_t *loc, uint64_t pc, struct row *row,
	       const struct row *init)
{
	struct row saved[STATES];
	int nsaved = 0;

	while (r->p < r->end && !r->bad) {
		uint8_t op = *r->p++;
		uint64_t reg, delta = 0;
		int advance = 0;

		switch (op >> 6) {
		case 1:
			delta = (op & 0x3f) * c->code_align;
			advance = 1;
			break;
		case 2: set_reg(row, op & 0x3f, AT_CFA, (int64_t)uleb(r) * c->data_align); continue;
		case 3:
			reg = op & 0x3f;
			set_reg(row, reg, reg == REG_RBP ? init->rbp : init->ra,
				reg == REG_RBP ? init->rbp_off : init->ra_off);
			continue;
		}
		if (advance) {
			if (*loc + delta > pc)
				return 0;
			*loc += delta;
			continue;
		}
		switch (op) {
		case 0x00: break; /* nop */
		case 0x01: {	  /* set_loc */
			uint64_t to = encoded(r, c->fde_enc);

			if (to > pc)
				return 0;
			*loc = to;
			break;
		}
		case 0x02:
		case 0x03:
		case 0x04:
			delta = fixed(r, op == 0x02 ? 1 : op == 0x03 ? 2 : 4) * c->code_align;
			if (*loc + delta > pc)
				return 0;
			*loc += delta;
			break;
		case 0x05: /* offset_extended */
			reg = uleb(r);
			set_reg(row, reg, AT_CFA, (int64_t)uleb(r) * c->data_align);
			break;
		case 0x06: /* restore_extended */
			reg = uleb(r);
			set_reg(row, reg, reg == REG_RBP ? init->rbp : init->ra,
				reg == REG_RBP ? init->rbp_off : init->ra_off);
			break;
		case 0x07: set_reg(row, uleb(r), UNDEF, 0); break;
		case 0x08: set_reg(row, uleb(r), SAME, 0); break;
		case 0x09: /* register: in another register */
			reg = uleb(r);
			uleb(r);
			set_reg(row, reg, OTHER, 0);
			break;
		case 0x0a:
			if (nsaved == STATES)
				return -1;
			saved[nsaved++] = *row;
			break;
		case 0x0b:
			if (!nsaved)
				return -1;
			*row = saved[--nsaved]; /* the CFA too, as libgcc and libunwind do */
			break;
		case 0x0c: /* def_cfa */
			row->cfa_reg = (int)uleb(r);
			row->cfa_off = (int64_t)uleb(r);
			break;
		case 0x0d: row->cfa_reg = (int)uleb(r); break;
		case 0x0e: row->cfa_off = (int64_t)uleb(r); break;
		case 0x0f: /* def_cfa_expression */
			row->cfa_reg = -1;
			r->p += uleb(r);
			break;
		case 0x10: /* expression */
		case 0x16: /* val_expression */
			reg = uleb(r);
			set_reg(row, reg, OTHER, 0);
			r->p += uleb(r);
			break;
		case 0x11: /* offset_extended_sf */
			reg = uleb(r);
			set_reg(row, reg, AT_CFA, sleb(r) * c->data_align);
			break;
		case 0x12: /* def_cfa_sf */
			row->cfa_reg = (int)uleb(r);
			row->cfa_off = sleb(r) * c->data_align;
			break;
		case 0x13: row->cfa_off = sleb(r) * c->data_align; break;
		case 0x14: /* val_offset */
		case 0x15: /* val_offset_sf */
			reg = uleb(r);
			if (op == 0x14)
				uleb(r);
			else
				sleb(r);
			set_reg(row, reg, OTHER, 0);
			break;
		case 0x2e: uleb(r); break; /* GNU_args_size */
		case 0x2f:		   /* GNU_negative_offset_extended */
			reg = uleb(r);
			set_reg(row, reg, AT_CFA, -(int64_t)uleb(r) * c->data_align);
			break;
		default: return -1;
		}
	}
	return r->bad || r->p > r->end ? -1 : 0;
}

/* The rule of the FDE at fde for pc, into out (kind NONE when the FDE does not hold pc). */
static void rule_of_fde(const uint8_t *fde, uintptr_t pc, struct tt_cfi_rule *out)
{
	struct reader r;
	struct cie c;
	struct row row = { REG_RSP, 8, SAME, AT_CFA, 0, -8 }, init;
	uint32_t len, cie_ptr;
	uint64_t begin, range, loc;

	memcpy(&len, fde, 4);
	memcpy(&cie_ptr, fde + 4, 4);
	if (len == 0 || len == 0xffffffffu || cie_ptr == 0 || read_cie(fde + 4 - cie_ptr, &c) < 0)
		return;
	r.p = fde + 8;
	r.end = fde + 4 + len;
	r.bad = 0;
	begin = encoded(&r, c.fde_enc);
	range = encoded(&r, c.fde_enc & 0x0f);
	if (r.bad || pc < begin || pc - begin >= range)
		return;
	out->kind = TT_CFI_OTHER; /* covered: from here on, OTHER unless followed */
	if (c.signal_frame)
		return;
	if (c.has_aug_data)
		r.p += uleb(&r);
	loc = begin;
	if (run(&c.insns, &c, &loc, UINT64_MAX, &row, &row) < 0)
		return;
	init = row;
	loc = begin;
	if (run(&r, &c, &loc, pc, &row, &init) < 0)
		return;
	if (row.ra == UNDEF) {
		out->kind = TT_CFI_END;
		return;
	}
	if ((row.cfa_reg != REG_RSP && row.cfa_reg != REG_RBP) || row.ra != AT_CFA ||
	    row.ra_off != -8 || (row.rbp != SAME && row.rbp != AT_CFA))
		return;
	out->kind = row.cfa_reg == REG_RSP ? TT_CFI_RSP : TT_CFI_RBP;
	out->cfa_off = row.cfa_off;
	out->rbp_saved = row.rbp == AT_CFA;
	out->rbp_off = row.rbp_off;
}

void tt_cfi_rule_at(const struct tt_elf *o, uintptr_t pc, struct tt_cfi_rule *r)
{
	const uint8_t *fde = tt_eh_fde_below(o, pc);

	memset(r, 0, sizeof(*r));
	r->kind = TT_CFI_NONE;
	if (fde)
		rule_of_fde(fde, pc, r);
}
