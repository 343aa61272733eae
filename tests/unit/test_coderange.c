/*
 * test_coderange.c - an object's known code ranges (src/elf/coderange.c): this test binary's
 * (its .symtab, read from /proc/self/exe: code only listed there) and libc's
 * (dynamic symbols and unwind entries). Checked against addresses the program itself takes.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "elf/coderange.h"

/* Local, without unwind entry (no CFI): only the .symtab knows this code, 16 bytes. */
__asm__(".text\n"
	".p2align 4\n"
	".type tt_coderange_probe, @function\n"
	"tt_coderange_probe:\n"
	"ret\n"
	".fill 15, 1, 0xcc\n"
	".size tt_coderange_probe, 16\n");
void tt_coderange_probe(void);

/* A function symbol of size 0 (as the C runtime's register_tm_clones has), no unwind entry,
 * then data in .text (an object symbol): the code is known from the function's start up to
 * where the data starts, 8 bytes. */
__asm__(".text\n"
	".p2align 4\n"
	".type tt_coderange_bare, @function\n"
	"tt_coderange_bare:\n"
	"xorl %eax, %eax\n"
	"ret\n"
	".fill 5, 1, 0x90\n"
	".type tt_coderange_datum, @object\n"
	"tt_coderange_datum:\n"
	".long 0xe9e9e9e9\n"
	".size tt_coderange_datum, 4\n");
void tt_coderange_bare(void);
extern const char tt_coderange_datum[];

struct want {
	uintptr_t addr; /* a function in the object */
	struct tt_code_ranges c;
	uintptr_t seg_lo, seg_hi;
	uintptr_t hi; /* where the range starting at addr ends */
};

static int object_cb(struct tt_elf *o, void *arg)
{
	struct want *w = arg;
	size_t i;

	if (!tt_elf_in_exec(o, w->addr))
		return 0;
	for (i = 0; i < o->phnum; i++) {
		uintptr_t lo = o->base + o->phdr[i].p_vaddr;

		if (o->phdr[i].p_type == PT_LOAD && (o->phdr[i].p_flags & PF_X) && w->addr >= lo &&
		    w->addr < lo + o->phdr[i].p_memsz) {
			w->seg_lo = lo;
			w->seg_hi = lo + o->phdr[i].p_memsz;
		}
	}
	assert_int_equal(tt_code_ranges_of(o, w->seg_lo, w->seg_hi, &w->c), 0);
	return 1;
}

/* Sorted by start, each start once, every range non-empty and inside the segment; one of
 * them starts at w->addr. */
static void check(struct want *w)
{
	size_t i, at = 0;

	assert_int_equal(tt_elf_foreach(object_cb, w), 1);
	assert_true(w->c.n > 0);
	for (i = 0; i < w->c.n; i++) {
		const struct tt_code_range *r = &w->c.r[i];

		if (r->lo >= r->hi || r->lo < w->seg_lo || r->hi > w->seg_hi)
			fail_msg("range %zu [0x%lx, 0x%lx) outside [0x%lx, 0x%lx)", i,
				 (unsigned long)r->lo, (unsigned long)r->hi,
				 (unsigned long)w->seg_lo, (unsigned long)w->seg_hi);
		if (i && r->lo <= w->c.r[i - 1].lo)
			fail_msg("range %zu starts at or before range %zu", i, i - 1);
		if (r->lo == w->addr)
			at = i + 1;
	}
	if (!at)
		fail_msg("no range starts at 0x%lx", (unsigned long)w->addr);
	assert_true(w->c.r[at - 1].hi > w->addr);
	w->hi = w->c.r[at - 1].hi;
	tt_code_ranges_free(&w->c);
	assert_null(w->c.r);
}

static void test_own_symtab(void **state)
{
	struct want w = { .addr = (uintptr_t)tt_coderange_probe };

	(void)state;
	check(&w);
	assert_int_equal(w.hi, w.addr + 16);
}

static void test_size_zero_ends_at_next_symbol(void **state)
{
	struct want w = { .addr = (uintptr_t)tt_coderange_bare };
	uintptr_t datum = (uintptr_t)tt_coderange_datum;

	(void)state;
	assert_int_equal(datum, w.addr + 8);
	check(&w);
	assert_int_equal(w.hi, datum);
}

static void test_libc(void **state)
{
	struct want w = { .addr = (uintptr_t)abort }; /* a plain function (no IFUNC) */

	(void)state;
	check(&w);
}

static void test_refused_segment(void **state)
{
	struct tt_elf none = { .name = "", .phnum = 0 };
	struct tt_code_ranges c;

	(void)state;
	/* over 4 GiB: offsets are sorted as 32 bits, so such a segment is refused */
	assert_int_equal(tt_code_ranges_of(&none, 0, UINT64_C(1) << 33, &c), -1);
	assert_null(c.r);
	assert_int_equal(c.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_own_symtab),
		cmocka_unit_test(test_size_zero_ends_at_next_symbol),
		cmocka_unit_test(test_libc),
		cmocka_unit_test(test_refused_segment),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
