/*
 * test_edit_distance.c - the distance behind "did you mean" (src/base/edit_distance.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/edit_distance.h"

static size_t dist(const char *a, const char *b, size_t max, bool fold)
{
	return tt_edit_distance(a, strlen(a), b, strlen(b), max, fold);
}

static void test_edits(void **state)
{
	(void)state;
	assert_int_equal(dist("strlen", "strlen", 2, false), 0);
	assert_int_equal(dist("strlne", "strlen", 2, false), 1);  /* a swap of neighbours */
	assert_int_equal(dist("strln", "strlen", 2, false), 1);	  /* a deletion */
	assert_int_equal(dist("sttrlen", "strlen", 2, false), 1); /* an insertion */
	assert_int_equal(dist("strlan", "strlen", 2, false), 1);  /* a substitution */
	assert_int_equal(dist("srtlne", "strlen", 2, false), 2);
	assert_int_equal(dist("", "abc", 3, false), 3);
}

static void test_capped(void **state)
{
	char long_name[TT_EDIT_MAX_LEN + 2];

	(void)state;
	assert_int_equal(dist("memcpy", "strlen", 2, false), 3); /* above max: max + 1 */
	assert_int_equal(dist("a", "abcdef", 2, false), 3);	 /* lengths alone say so */
	memset(long_name, 'a', sizeof(long_name) - 1);
	long_name[sizeof(long_name) - 1] = 0;
	assert_int_equal(dist(long_name, long_name, 2, false), 3);
}

static void test_fold(void **state)
{
	(void)state;
	assert_int_equal(dist("tsc_funcs", "TSC_FUNCS", 2, true), 0);
	assert_int_equal(dist("tsc_funcs", "TSC_FUNCS", 2, false), 3);
	assert_int_equal(dist("TSC_FUCNS", "TSC_FUNCS", 2, true), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_edits),
		cmocka_unit_test(test_capped),
		cmocka_unit_test(test_fold),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
