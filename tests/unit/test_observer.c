/*
 * test_observer.c - the observer effect's share and warning (src/report/observer.c): the
 * share of a thread's CPU time the brackets took, from the density of timed calls, the
 * brackets' cost and the clock's rate; the threshold; the warning's line.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "report/observer.h"

/* Timed calls per 2^20 ns for `calls` in `ns`. */
static uint64_t density(uint64_t calls, uint64_t ns)
{
	return (calls << 20) / ns;
}

static void test_share(void **state)
{
	(void)state;
	/* 1,000,000 calls of 100 ticks at 1 GHz in 1 s: 100 ms, 10% (the density in whole
	 * calls per 2^20 ns: within 0.1% of it). */
	assert_in_range(tt_observer_ppm(density(1000000, 1000000000), 100, 1000000000), 99900,
			100000);
	/* At 2 GHz a tick is half a ns: 5%. */
	assert_in_range(tt_observer_ppm(density(1000000, 1000000000), 100, 2000000000), 49950,
			50000);
	/* Every ns in brackets, or more: all of it. */
	assert_int_equal(tt_observer_ppm(density(1000000, 1000000), 5000, 1000000000), 1000000);
	/* Unknown: nothing. */
	assert_int_equal(tt_observer_ppm(0, 100, 1000000000), 0);
	assert_int_equal(tt_observer_ppm(density(10, 1000), 0, 1000000000), 0);
	assert_int_equal(tt_observer_ppm(density(10, 1000), 100, 0), 0);
}

static void test_threshold(void **state)
{
	(void)state;
	assert_false(tt_observer_dense(TT_OBSERVER_PERCENT * 10000));
	assert_true(tt_observer_dense(TT_OBSERVER_PERCENT * 10000 + 1));
	assert_false(tt_observer_dense(0));
}

static void test_warning(void **state)
{
	char line[512];
	int n;

	(void)state;
	n = tt_observer_warning(line, sizeof(line), "memcmp", 474000, 3273326, 141);
	assert_true(n > 0 && (size_t)n < sizeof(line));
	assert_string_equal(line, "memcmp: timing took 47% of its thread's CPU time (3273326 timed "
				  "calls, ~141 clock units each): past 25%, timing changes what "
				  "it times (fences drain the pipeline around every call); "
				  "TSC_SAMPLE=16 or TSC_BUDGET=2% times fewer calls");
	/* Sized first, as runtime/report_build.c does. */
	assert_int_equal(tt_observer_warning(NULL, 0, "memcmp", 474000, 3273326, 141), n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_share),
		cmocka_unit_test(test_threshold),
		cmocka_unit_test(test_warning),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
