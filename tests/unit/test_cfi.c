/*
 * test_cfi.c - the call frame rule at an address (src/elf/cfi.c), read from this test
 * binary's .eh_frame and followed by hand from inside the frames it describes: from a
 * function without a frame pointer (CFA at %rsp + k) and one with it (CFA at %rbp + 16,
 * %rbp saved at CFA - 16), the rule must find the return address the function itself saw.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "elf/cfi.h"

struct seen {
	uintptr_t ret_of_caller; /* what the function whose frame is walked returns to */
	struct tt_cfi_rule rule; /* at the probe's return address, less 1 */
	uintptr_t found;	 /* that function's return address, by the rule */
};

static struct seen seen;

static int in_exec(struct tt_elf *o, void *arg)
{
	uintptr_t pc = *(uintptr_t *)arg;

	if (!tt_elf_in_exec(o, pc))
		return 0;
	tt_cfi_rule_at(o, pc, &seen.rule);
	return 1;
}

/*
 * Called by the function under test: its return address and the caller's %rsp after the
 * return and %rbp (both as the caller has them there) give the caller's frame, which the rule
 * at that return address must undo. Frame pointer: its own frame is known exactly.
 */
__attribute__((noinline, optimize("no-omit-frame-pointer"))) static void probe(void)
{
	uintptr_t *fp = __builtin_frame_address(0);
	uintptr_t ret = fp[1], sp = (uintptr_t)(fp + 2), rbp = fp[0], pc = ret - 1, cfa;

	memset(&seen.rule, 0, sizeof(seen.rule));
	tt_elf_foreach(in_exec, &pc);
	seen.found = 0;
	if (seen.rule.kind == TT_CFI_RSP)
		cfa = sp + (uintptr_t)seen.rule.cfa_off;
	else if (seen.rule.kind == TT_CFI_RBP)
		cfa = rbp + (uintptr_t)seen.rule.cfa_off;
	else
		return;
	seen.found = *(uintptr_t *)(cfa - 8);
}

static volatile int sink;

__attribute__((noinline, optimize("omit-frame-pointer"))) static void without_fp(void)
{
	volatile char pad[40];

	pad[0] = 1;
	seen.ret_of_caller = (uintptr_t)__builtin_return_address(0);
	probe();
	sink += pad[0]; /* after the call: no tail call */
}

__attribute__((noinline, optimize("no-omit-frame-pointer"))) static void with_fp(void)
{
	seen.ret_of_caller = (uintptr_t)__builtin_return_address(0);
	probe();
	sink++;
}

static void test_without_frame_pointer(void **state)
{
	(void)state;
	without_fp();
	assert_int_equal(seen.rule.kind, TT_CFI_RSP);
	assert_true(seen.rule.cfa_off > 8);
	assert_true(seen.found == seen.ret_of_caller);
}

static void test_with_frame_pointer(void **state)
{
	(void)state;
	with_fp();
	assert_int_equal(seen.rule.kind, TT_CFI_RBP);
	assert_int_equal(seen.rule.cfa_off, 16);
	assert_true(seen.rule.rbp_saved);
	assert_int_equal(seen.rule.rbp_off, -16);
	assert_true(seen.found == seen.ret_of_caller);
}

static int first_exec(struct tt_elf *o, void *arg)
{
	uintptr_t pc = *(uintptr_t *)arg;

	if (!tt_elf_in_exec(o, pc))
		return 0;
	/* The object's first bytes (its ELF header): below every unwind entry. */
	tt_cfi_rule_at(o, o->base + o->phdr[0].p_vaddr, &seen.rule);
	return 1;
}

static void test_uncovered(void **state)
{
	uintptr_t pc = (uintptr_t)&test_uncovered;

	(void)state;
	seen.rule.kind = TT_CFI_RSP;
	tt_elf_foreach(first_exec, &pc);
	assert_int_equal(seen.rule.kind, TT_CFI_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_without_frame_pointer),
		cmocka_unit_test(test_with_frame_pointer),
		cmocka_unit_test(test_uncovered),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
