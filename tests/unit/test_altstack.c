/*
 * test_altstack.c - code run on a stack of the shim's own (base/altstack.c): it runs there,
 * gets its argument, may use far more stack than a small thread has, and returns to the
 * caller's stack.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "base/altstack.h"

struct probe {
	uintptr_t here; /* an address on the stack fn ran on */
	int arg;
	unsigned long sum;
};

static void fn(void *p)
{
	struct probe *pr = p;
	volatile char big[512 * 1024]; /* more than many thread stacks */
	size_t i;

	memset((char *)big, 1, sizeof(big));
	for (i = 0; i < sizeof(big); i += 4096)
		pr->sum += big[i];
	pr->here = (uintptr_t)&big[0];
	pr->arg++;
}

static void test_runs_elsewhere(void **state)
{
	struct probe pr = { 0, 41, 0 };
	int local;
	uintptr_t mine = (uintptr_t)&local;

	(void)state;
	assert_true(tt_altstack_run(fn, &pr));
	assert_int_equal(pr.arg, 42);
	assert_int_equal(pr.sum, 512 / 4);
	/* Not on this thread's stack: more than the stack's own size away, or below it. */
	assert_true(pr.here > mine || mine - pr.here > TT_ALTSTACK_BYTES);
	assert_int_equal(local = 7, 7); /* and back on ours */
}

/* The kept stack: the same, twice (the second call on the stack the first guarded). */
static void test_kept_runs_elsewhere_twice(void **state)
{
	struct probe pr = { 0, 40, 0 };
	uintptr_t first;
	int local;
	uintptr_t mine = (uintptr_t)&local;

	(void)state;
	assert_true(tt_altstack_run_kept(fn, &pr));
	first = pr.here;
	assert_true(tt_altstack_run_kept(fn, &pr));
	assert_int_equal(pr.arg, 42);
	assert_int_equal(pr.sum, 2 * 512 / 4);
	assert_true(pr.here == first);
	assert_true(pr.here > mine || mine - pr.here > TT_ALTSTACK_BYTES);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runs_elsewhere),
		cmocka_unit_test(test_kept_runs_elsewhere_twice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
