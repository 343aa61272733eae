/*
 * test_unbracketable.c - the functions no trampoline may time (src/hook/unbracketable.c): the
 * setjmp family, context switchers, clone, entry points; and none of the ordinary ones,
 * including those that never return (their calls are counted as unwound).
 */
#include <stddef.h>
#include <string.h>

#include <stdarg.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "hook/unbracketable.h"

static void test_refused(void **state)
{
	static const char *const names[] = {
		"setjmp",      "_setjmp", "sigsetjmp", "__sigsetjmp",  "getcontext",
		"swapcontext", "clone",	  "_start",    "__restore_rt",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_non_null(tt_unbracketable_why(names[i]));
	assert_string_equal(tt_unbracketable_why("_setjmp"), "returns twice");
	assert_string_equal(tt_unbracketable_why("_start"), "is entered without a return address");
}

/* Those that return twice or on another stack are counted only; entry points not traced. */
static void test_count_only(void **state)
{
	static const char *const counted[] = {
		"setjmp", "_setjmp", "__sigsetjmp", "getcontext", "swapcontext", "clone", "clone3",
	};
	static const char *const untraced[] = {
		"_start",
		"__restore_rt",
		"_dl_runtime_resolve",
		"_dl_runtime_resolve_xsavec",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(counted) / sizeof(counted[0]); i++) {
		assert_non_null(tt_count_only_why(counted[i]));
		assert_false(tt_untraceable(counted[i]));
	}
	for (i = 0; i < sizeof(untraced) / sizeof(untraced[0]); i++) {
		assert_null(tt_count_only_why(untraced[i]));
		assert_true(tt_untraceable(untraced[i]));
	}
	assert_string_equal(tt_count_only_why("swapcontext"), "returns on another stack");
	assert_null(tt_count_only_why("memcpy"));
	assert_false(tt_untraceable("memcpy"));
}

static void test_allowed(void **state)
{
	static const char *const names[] = {
		"longjmp",    "siglongjmp",  "exit",   "_exit",	  "abort",    "fork", "vfork",
		"setcontext", "makecontext", "memcpy", "setjmp_", "_setjmpx", "",     "start",
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_null(tt_unbracketable_why(names[i]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_count_only),
		cmocka_unit_test(test_allowed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
