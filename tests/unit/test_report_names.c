/*
 * test_report_names.c - report entries found by any of their names (report_names.c): what
 * plot -f, diff and merge match, and the names of a report written before "names" existed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "base/demangle.h"
#include "report/report_names.h"

static const char *const both[] = { "memcpy", "memmove" };

static const struct tt_report_func alias = { .name = "memcpy|memmove", .names = both, .nnames = 2 };
static const struct tt_report_func plain = { .name = "strlen" };	     /* no list: its name */
static const struct tt_report_func old_alias = { .name = "memcpy|memmove" }; /* no list */

static void test_named(void **state)
{
	(void)state;
	assert_true(tt_report_func_named(&alias, "memcpy"));
	assert_true(tt_report_func_named(&alias, "memmove"));
	assert_true(tt_report_func_named(&alias, "memcpy|memmove")); /* as displayed */
	assert_false(tt_report_func_named(&alias, "memmove|memcpy"));
	assert_false(tt_report_func_named(&alias, "mem"));
	assert_false(tt_report_func_named(&alias, ""));
	assert_true(tt_report_func_named(&plain, "strlen"));
	assert_false(tt_report_func_named(&plain, "strle"));
	assert_int_equal(tt_report_func_nnames(&plain), 1);
	assert_string_equal(tt_report_func_name(&plain, 0), "strlen");
	assert_int_equal(tt_report_func_nnames(&alias), 2);
	assert_string_equal(tt_report_func_name(&alias, 1), "memmove");
	/* Without a list only the display form counts: the loader splits it first. */
	assert_false(tt_report_func_named(&old_alias, "memmove"));
}

/* Split display into at most 4 spans; check them against want (NULL-terminated). */
static void check_split(const char *display, const char *const *want)
{
	struct tt_name_span spans[4];
	size_t n = tt_report_name_split(display, spans, 4), i;

	for (i = 0; want[i]; i++) {
		assert_true(i < n);
		assert_int_equal(spans[i].len, strlen(want[i]));
		assert_memory_equal(spans[i].s, want[i], spans[i].len);
	}
	assert_int_equal(n, i);
	assert_int_equal(tt_report_name_split(display, NULL, 0), n); /* counting alone */
}

static void test_split(void **state)
{
	(void)state;
	check_split("strlen", (const char *const[]){ "strlen", NULL });
	check_split("memcpy|memmove", (const char *const[]){ "memcpy", "memmove", NULL });
	check_split("a|b|c", (const char *const[]){ "a", "b", "c", NULL });
	check_split("|a||b|", (const char *const[]){ "a", "b", NULL }); /* empty parts */
	check_split("", (const char *const[]){ "", NULL });		/* nothing inside: itself */
	check_split("||", (const char *const[]){ "||", NULL });
	check_split("libq.so:we\"ird\\<fn>&",
		    (const char *const[]){ "libq.so:we\"ird\\<fn>&", NULL });
}

/* More names than spans: the count is still all of them, the spans the first ones. */
static void test_split_truncated(void **state)
{
	struct tt_name_span spans[2];

	(void)state;
	assert_int_equal(tt_report_name_split("a|bb|ccc|d", spans, 2), 4);
	assert_int_equal(spans[0].len, 1);
	assert_memory_equal(spans[1].s, "bb", 2);
	assert_int_equal(spans[1].len, 2);
}

/* C++ names shown demangled: each symbol of a display name or a site, the rest kept. */
static void test_demangled(void **state)
{
	char buf[256], tiny[8];
	struct tt_buf b = TT_BUF_INIT;

	(void)state;
	assert_string_equal(tt_report_demangled("_ZN2ns3fooEv", buf, sizeof(buf)), "ns::foo()");
	assert_string_equal(tt_report_demangled("_ZN2ns3fooERKNSt7__cxx1112basic_stringIcSt11char_"
						"traitsIcESaIcEEE|_Z3bari",
						buf, sizeof(buf)),
			    "ns::foo(std::__cxx11::basic_string<char, std::char_traits<char>, "
			    "std::allocator<char> > const&)|bar(int)");
	assert_string_equal(
		tt_report_demangled("_ZN2ns5Klass6methodEi+0x1c (app) <- main+0x9 (app)", buf,
				    sizeof(buf)),
		"ns::Klass::method(int)+0x1c (app) <- main+0x9 (app)");
	assert_string_equal(tt_report_demangled("_ZN2ns3fooEv.cold", buf, sizeof(buf)),
			    "ns::foo() [clone .cold]");
	/* Nothing to demangle: the string itself, not a copy. */
	const char *same = "strlen|memcpy";
	assert_ptr_equal(tt_report_demangled(same, buf, sizeof(buf)), same);
	const char *notcxx = "_Zx_strlen";
	assert_ptr_equal(tt_report_demangled(notcxx, buf, sizeof(buf)), notcxx);
	/* Cut to the buffer, always terminated. */
	assert_string_equal(tt_report_demangled("_ZN2ns3fooEv", tiny, sizeof(tiny)), "ns::foo");
	assert_true(tt_report_demangled_buf("x|_ZN2ns3fooEi", &b));
	assert_string_equal(b.data, "x|ns::foo(int)");
	assert_false(tt_report_demangled_buf("strlen", &b));
	assert_int_equal(b.len, strlen("x|ns::foo(int)"));
	tt_buf_free(&b);
}

/* Past TT_DEMANGLE_MAX a name is kept as it is (the demangler's stack grows with it). */
static void test_demangle_bound(void **state)
{
	char name[TT_DEMANGLE_MAX + 8], out[64];
	size_t i;

	(void)state;
	memcpy(name, "_Z3fooPPPPv", 12); /* valid; then pad it into a long valid name */
	assert_int_equal(tt_demangle(name, strlen(name), out, sizeof(out)),
			 strlen("foo(void****)"));
	assert_string_equal(out, "foo(void****)");
	for (i = 0; i < sizeof(name) - 1; i++)
		name[i] = 'x';
	name[0] = '_';
	name[1] = 'Z';
	name[sizeof(name) - 1] = 0;
	assert_int_equal(tt_demangle(name, strlen(name), out, sizeof(out)), 0);
	assert_string_equal(out, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_named),		cmocka_unit_test(test_split),
		cmocka_unit_test(test_split_truncated), cmocka_unit_test(test_demangled),
		cmocka_unit_test(test_demangle_bound),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
