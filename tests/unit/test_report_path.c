/*
 * test_report_path.c - TSC_OUTPUT template expansion (src/report/report_path.c): each escape, literal
 * unknown escapes, a trailing '%', "-", and every way the result can fail to fit.
 */
#include <limits.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "report/report_path.h"

#define PID 4242
#define EXE "sort"
#define START UINT64_C(1795000000)

/* Expand tmpl with the fixed pid/exe/start into a buffer of `size` bytes; check it gives want
 * (NULL: -1 and an empty string). The bytes after the buffer must be untouched. */
static void check(const char *tmpl, size_t size, const char *want)
{
	char buf[600];
	int rc;

	assert_true(size < sizeof(buf));
	memset(buf, 'Z', sizeof(buf));
	rc = tt_report_path_expand(tmpl, PID, EXE, START, buf, size);
	if (want) {
		if (rc < 0 || strcmp(buf, want))
			fail_msg("\"%s\": got %d \"%s\", expected \"%s\"", tmpl, rc,
				 rc < 0 ? "" : buf, want);
		assert_int_equal(rc, strlen(want));
	} else {
		assert_int_equal(rc, -1);
		if (size)
			assert_string_equal(buf, "");
	}
	assert_int_equal(buf[size], 'Z');
}

static void test_plain(void **state)
{
	(void)state;
	check("report.txt", 100, "report.txt");
	check("/tmp/dir/r", 100, "/tmp/dir/r");
	check("", 100, "");
}

static void test_pid(void **state)
{
	char buf[64];

	(void)state;
	check("r.%p", 100, "r.4242");
	check("%p%p", 100, "42424242");
	assert_int_equal(tt_report_path_expand("%p", 0, EXE, START, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "0");
	assert_int_equal(tt_report_path_expand("%p", -7, EXE, START, buf, sizeof(buf)), 2);
	assert_string_equal(buf, "-7");
	assert_int_equal(tt_report_path_expand("%p", INT64_MAX, EXE, START, buf, sizeof(buf)), 19);
	assert_string_equal(buf, "9223372036854775807");
	assert_int_equal(tt_report_path_expand("%p", INT64_MIN, EXE, START, buf, sizeof(buf)), 20);
	assert_string_equal(buf, "-9223372036854775808");
}

static void test_exe(void **state)
{
	char buf[64];

	(void)state;
	check("tsctrace.%e.txt", 100, "tsctrace.sort.txt");
	assert_int_equal(tt_report_path_expand("a%eb", 1, "", START, buf, sizeof(buf)), 2);
	assert_string_equal(buf, "ab");
	assert_int_equal(tt_report_path_expand("a%eb", 1, NULL, START, buf, sizeof(buf)), 2);
	assert_string_equal(buf, "ab");
	/* the name is inserted as is: no escape inside it is expanded */
	assert_int_equal(tt_report_path_expand("%e", 1, "x%py", START, buf, sizeof(buf)), 4);
	assert_string_equal(buf, "x%py");
}

static void test_time(void **state)
{
	char buf[64];

	(void)state;
	check("t%t", 100, "t1795000000");
	assert_int_equal(tt_report_path_expand("%t", 1, EXE, 0, buf, sizeof(buf)), 1);
	assert_string_equal(buf, "0");
	assert_int_equal(tt_report_path_expand("%t", 1, EXE, UINT64_MAX, buf, sizeof(buf)), 20);
	assert_string_equal(buf, "18446744073709551615");
}

static void test_percent(void **state)
{
	(void)state;
	check("100%%", 100, "100%");
	check("%%p", 100, "%p");
	check("%%%p", 100, "%4242");
	check("%%%%", 100, "%%");
}

static void test_all_escapes(void **state)
{
	(void)state;
	check("/r/%e-%p-%t-%%.json", 100, "/r/sort-4242-1795000000-%.json");
}

static void test_unknown_escape_literal(void **state)
{
	(void)state;
	check("a%xb", 100, "a%xb");
	check("%P%E%T", 100, "%P%E%T");
	check("%d%s%n", 100, "%d%s%n");
	check("%-%p", 100, "%-4242");
	check("%\xc3\xa9", 100, "%\xc3\xa9");
}

static void test_trailing_percent(void **state)
{
	(void)state;
	check("r%", 100, "r%");
	check("%", 100, "%");
	check("%p%", 100, "4242%");
	check("%%%", 100, "%%");
}

static void test_stderr(void **state)
{
	(void)state;
	check("-", 100, "-");
	check("-", 2, "-");
	check("-", 1, NULL);
	check("--", 100, "--");
	check("-%p", 100, "-4242");
}

static void test_fit_exactly(void **state)
{
	(void)state;
	check("abc", 4, "abc");
	check("r.%p", 7, "r.4242");
	check("%e", 5, "sort");
	check("%t", 11, "1795000000");
	check("%%", 2, "%");
	check("", 1, "");
}

static void test_overflow(void **state)
{
	char big[520];

	(void)state;
	check("abc", 3, NULL);
	check("r.%p", 6, NULL); /* fails inside the number */
	check("r.%p", 3, NULL);
	check("%e", 4, NULL);
	check("%t", 10, NULL);
	check("%%", 1, NULL);
	check("%x", 2, NULL);
	check("r%", 2, NULL);
	check("abc", 0, NULL);
	check("", 0, NULL);
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	check(big, 519, NULL);
	check(big, 520, big);
}

static void test_null_template(void **state)
{
	char buf[8] = "x";

	(void)state;
	assert_int_equal(tt_report_path_expand(NULL, 1, EXE, START, buf, sizeof(buf)), -1);
	assert_string_equal(buf, "");
}

static void test_default(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(tt_report_path_default(0), "tsctrace.%e.%p.txt");
	assert_string_equal(tt_report_path_default(1), "tsctrace.%e.%p.json");
	assert_int_equal(tt_report_path_expand(tt_report_path_default(1), PID, EXE, START, buf,
					       sizeof(buf)),
			 23);
	assert_string_equal(buf, "tsctrace.sort.4242.json");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_pid),
		cmocka_unit_test(test_exe),
		cmocka_unit_test(test_time),
		cmocka_unit_test(test_percent),
		cmocka_unit_test(test_all_escapes),
		cmocka_unit_test(test_unknown_escape_literal),
		cmocka_unit_test(test_trailing_percent),
		cmocka_unit_test(test_stderr),
		cmocka_unit_test(test_fit_exactly),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_null_template),
		cmocka_unit_test(test_default),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
