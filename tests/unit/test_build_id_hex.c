/*
 * test_build_id_hex.c - which build IDs of a report may name a debug file
 * (src/base/build_id_hex.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/build_id_hex.h"

static void test_hex_taken(void **state)
{
	(void)state;
	assert_true(tt_build_id_hex_ok("93ac61ec0f5e4f1ad6a04e2ad5cb6e3b5b0c3c55")); /* SHA-1 */
	assert_true(tt_build_id_hex_ok("ab"));
	assert_true(tt_build_id_hex_ok("AB12cd"));
}

static void test_not_hex_refused(void **state)
{
	(void)state;
	assert_false(tt_build_id_hex_ok(NULL));
	assert_false(tt_build_id_hex_ok(""));
	assert_false(tt_build_id_hex_ok("../../x"));
	assert_false(tt_build_id_hex_ok("ab/cd"));
	assert_false(tt_build_id_hex_ok("abc")); /* odd: not whole bytes */
	assert_false(tt_build_id_hex_ok("a"));
	assert_false(tt_build_id_hex_ok("abcg"));
	assert_false(tt_build_id_hex_ok("ab cd"));
	assert_false(tt_build_id_hex_ok("abcd\n"));
	assert_false(tt_build_id_hex_ok("0x1234"));
}

static void test_length_bounded(void **state)
{
	char id[TT_BUILD_ID_HEX_MAX + 3];

	(void)state;
	memset(id, 'a', sizeof(id) - 1);
	id[sizeof(id) - 1] = '\0';
	id[TT_BUILD_ID_HEX_MAX] = '\0';
	assert_true(tt_build_id_hex_ok(id)); /* 64 bytes */
	id[TT_BUILD_ID_HEX_MAX] = 'a';
	assert_false(tt_build_id_hex_ok(id)); /* 65 bytes */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hex_taken),
		cmocka_unit_test(test_not_hex_refused),
		cmocka_unit_test(test_length_bounded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
