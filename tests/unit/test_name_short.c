/*
 * test_name_short.c - long C++ names shortened for text tables (src/report/name_short.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <string.h>

#include "report/name_short.h"

static void check(const char *in, const char *want)
{
	char buf[512];

	assert_string_equal(tt_name_short(in, buf, sizeof(buf)), want);
}

static void test_short_kept(void **state)
{
	char buf[64];

	(void)state;
	assert_ptr_equal(tt_name_short("ns::foo(int)", buf, sizeof(buf)), "ns::foo(int)");
	check("tt::Box<int, std::allocator<int> >::put(int const&)",
	      "tt::Box<int, std::allocator<int> >::put(int const&)");
}

static void test_string_first(void **state)
{
	(void)state;
	check("ns::foo(std::__cxx11::basic_string<char, std::char_traits<char>, "
	      "std::allocator<char> > const&)",
	      "ns::foo(std::string const&)");
}

static void test_templates_elided(void **state)
{
	(void)state;
	check("std::vector<std::pair<int, long>, std::allocator<std::pair<int, long> > >::"
	      "_M_realloc_insert(std::pair<int, long> const&)",
	      "std::vector<...>::_M_realloc_insert(std::pair<...> const&)");
	check("std::basic_ostream<char, std::char_traits<char> >& std::operator<< "
	      "<std::char_traits<char> >(std::basic_ostream<char, std::char_traits<char> >&, char "
	      "const*)",
	      "std::basic_ostream<...>& std::operator<< <...>(std::basic_ostream<...>&, char "
	      "const*)");
}

static void test_cut(void **state)
{
	char buf[16];

	(void)state;
	assert_string_equal(tt_name_short("std::vector<int, std::allocator<int> >::"
					  "push_back_something_long_enough(int const&)",
					  buf, sizeof(buf)),
			    "std::vector<..."); /* 15 bytes and the NUL */
}

/* tt_name_shown: demangled first, shortened whole (a long name is not cut before). */
static void test_shown(void **state)
{
	char out[64], full[4096];
	const char *sym = "_ZNSt6vectorISt4pairIilESaIS1_EE17_M_realloc_insertIJS1_EEEvN9__gnu_"
			  "cxx17__normal_iteratorIPS1_S3_EEDpOT_";

	(void)state;
	assert_string_equal(tt_name_shown("_ZN2ns3fooEi", false, out, sizeof(out), full,
					  sizeof(full)),
			    "ns::foo(int)");
	assert_string_equal(
		tt_name_shown(sym, false, out, sizeof(out), full, sizeof(full)),
		"void std::vector<...>::_M_realloc_insert<...>(__gnu_cxx::__norm"); /* 63 bytes */
	assert_string_equal(
		tt_name_shown(sym, true, full, sizeof(full), out, sizeof(out)),
		"void std::vector<std::pair<int, long>, std::allocator<std::pair<int, "
		"long> > >::_M_realloc_insert<std::pair<int, long> >(__gnu_cxx::"
		"__normal_iterator<std::pair<int, long>*, std::vector<std::pair<int, "
		"long>, std::allocator<std::pair<int, long> > > >, std::pair<int, long>&&)");
	assert_string_equal(tt_name_shown("strlen", false, out, sizeof(out), full, sizeof(full)),
			    "strlen");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_short_kept),
		cmocka_unit_test(test_string_first),
		cmocka_unit_test(test_templates_elided),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_shown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
