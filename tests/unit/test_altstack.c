/*
 * test_altstack.c - code run on a stack of the shim's own (base/altstack.c): it runs there,
 * gets its argument, may use far more stack than a small thread has, and returns to the
 * caller's stack.
 */
#include <stdarg.h>
#include <stdbool.h>
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

/* The kept stack while it is in use (a signal handler's report interrupting the calibration,
 * another thread's): the inner call gets a stack of its own, and the outer call's frame and
 * locals are intact when it returns. */
struct nest {
	uintptr_t outer, inner;
	unsigned long canary;
	bool ok;
};

static void inner_fn(void *p)
{
	struct nest *n = p;
	volatile char scribble[64 * 1024];

	memset((char *)scribble, 0x5a, sizeof(scribble));
	n->inner = (uintptr_t)&scribble[0];
}

static void outer_fn(void *p)
{
	struct nest *n = p;
	volatile unsigned long canary = 0x1234567890abcdefull;

	n->outer = (uintptr_t)&canary;
	n->ok = tt_altstack_run_kept(inner_fn, n);
	n->canary = canary;
}

static void test_kept_nested_gets_its_own(void **state)
{
	struct nest n = { 0, 0, 0, false };

	(void)state;
	assert_true(tt_altstack_run_kept(outer_fn, &n));
	assert_true(n.ok);
	assert_true(n.canary == 0x1234567890abcdefull);
	/* Not within the kept stack the outer call runs on. */
	assert_true(n.inner > n.outer || n.outer - n.inner > TT_ALTSTACK_BYTES);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_runs_elsewhere),
		cmocka_unit_test(test_kept_runs_elsewhere_twice),
		cmocka_unit_test(test_kept_nested_gets_its_own),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
