/*
 * test_log2_table.c - hot/log2_table.h, the constant table of sample.c's geometric draw: every
 * entry is log2(1 + i/256) in Q32 as the integer method computes it (squaring a Q62 mantissa
 * 32 times, a bit of the logarithm each), the method start-up used before the table became a
 * constant.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "hot/log2_table.h"

/* log2(x) for x in [1, 2) given in Q62, as Q32. */
static uint64_t log2_mantissa(uint64_t x)
{
	uint64_t r = 0;
	int b;

	for (b = 31; b >= 0; b--) {
		x = (uint64_t)(((unsigned __int128)x * x) >> 62);
		if (x >= 2ull << 62) {
			x >>= 1;
			r |= 1ull << b;
		}
	}
	return r;
}

static void test_every_entry(void **state)
{
	uint32_t i;

	(void)state;
	for (i = 0; i < 1u << TT_LOG2_BITS; i++)
		assert_int_equal(tt_log2_q32[i],
				 log2_mantissa((1ull << 62) +
					       ((uint64_t)i << (62 - TT_LOG2_BITS))));
	assert_int_equal(tt_log2_q32[1u << TT_LOG2_BITS], 1ull << 32); /* log2(2) */
}

/* Increasing and concave: the draw interpolates between neighbours. */
static void test_shape(void **state)
{
	uint32_t i;

	(void)state;
	for (i = 1; i < 1u << TT_LOG2_BITS; i++) {
		assert_true(tt_log2_q32[i] > tt_log2_q32[i - 1]);
		assert_true(tt_log2_q32[i + 1] - tt_log2_q32[i] <=
			    tt_log2_q32[i] - tt_log2_q32[i - 1]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_entry),
		cmocka_unit_test(test_shape),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
