/*
 * test_siphash.c - SipHash-2-4 (src/base/siphash.c) against the test vectors of its paper's
 * reference: key 00 01 .. 0f, message 00 01 .. n-1, for n = 0 to 47. The incremental form
 * must give the same answer wherever the message is split.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

#include <cmocka.h>

#include "base/siphash.h"

static const uint64_t vectors[48] = {
	0x726fdb47dd0e0e31, 0x74f839c593dc67fd, 0x0d6c8009d9a94f5a, 0x85676696d7fb7e2d,
	0xcf2794e0277187b7, 0x18765564cd99a68d, 0xcbc9466e58fee3ce, 0xab0200f58b01d137,
	0x93f5f5799a932462, 0x9e0082df0ba9e4b0, 0x7a5dbbc594ddb9f3, 0xf4b32f46226bada7,
	0x751e8fbc860ee5fb, 0x14ea5627c0843d90, 0xf723ca908e7af2ee, 0xa129ca6149be45e5,
	0x3f2acc7f57c29bdb, 0x699ae9f52cbe4794, 0x4bc1b3f0968dd39c, 0xbb6dc91da77961bd,
	0xbed65cf21aa2ee98, 0xd0f2cbb02e3b67c7, 0x93536795e3a33e88, 0xa80c038ccd5ccec8,
	0xb8ad50c6f649af94, 0xbce192de8a85b8ea, 0x17d835b85bbb15f3, 0x2f2e6163076bcfad,
	0xde4daaaca71dc9a5, 0xa6a2506687956571, 0xad87a3535c49ef28, 0x32d892fad841c342,
	0x7127512f72f27cce, 0xa7f32346f95978e3, 0x12e0b01abb051238, 0x15e034d40fa197ae,
	0x314dffbe0815a3b4, 0x027990f029623981, 0xcadcd4e59ef40c4d, 0x9abfd8766a33735c,
	0x0e3ea96b5304a7d0, 0xad0c42d6fc585992, 0x187306c89bc215a9, 0xd4a60abcf3792b95,
	0xf935451de4f21df2, 0xa9538f0419755787, 0xdb9acddff56ca510, 0xd06c98cd5c0975eb,
};

static uint8_t key[TT_SIPHASH_KEY], msg[48];

static int setup(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)i;
	for (unsigned int i = 0; i < sizeof(msg); i++)
		msg[i] = (uint8_t)i;
	return 0;
}

static void test_reference_vectors(void **state)
{
	(void)state;
	for (size_t n = 0; n < 48; n++)
		assert_int_equal(tt_siphash(key, msg, n), vectors[n]);
}

/* Every message cut in two (and in three) at every place: the same answer. */
static void test_incremental_any_split(void **state)
{
	struct tt_siphash s;

	(void)state;
	for (size_t n = 0; n < 48; n++)
		for (size_t a = 0; a <= n; a++)
			for (size_t b = a; b <= n; b++) {
				tt_siphash_init(&s, key);
				tt_siphash_update(&s, msg, a);
				tt_siphash_update(&s, msg + a, b - a);
				tt_siphash_update(&s, msg + b, n - b);
				assert_int_equal(tt_siphash_final(&s), vectors[n]);
			}
}

/* Another key, one bit apart: another answer. */
static void test_key_matters(void **state)
{
	uint8_t other[TT_SIPHASH_KEY];

	(void)state;
	for (unsigned int i = 0; i < sizeof(other); i++)
		other[i] = (uint8_t)i;
	other[15] ^= 0x80;
	assert_int_not_equal(tt_siphash(other, msg, 15), vectors[15]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_vectors),
		cmocka_unit_test(test_incremental_any_split),
		cmocka_unit_test(test_key_matters),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
