/*
 * test_cxx_match.c - C++ names as users write them in TSC_FUNCS against demangled symbols
 * (base/cxx_match.c): qualified names, overloads, parameter lists in c++filt's spelling or
 * with std::string, templates, operators, and what never matches.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "base/cxx_match.h"

#define STR "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >"

static void test_is_name(void **state)
{
	(void)state;
	assert_true(tt_cxx_is_name("ns::foo"));
	assert_true(tt_cxx_is_name("foo(int)"));
	assert_false(tt_cxx_is_name("strlen"));
	assert_false(tt_cxx_is_name("_ZN2ns3fooEv"));
	assert_false(tt_cxx_is_name("str*"));
}

static void test_qualified(void **state)
{
	(void)state;
	assert_true(tt_cxx_match("ns::foo", "ns::foo(int)", false));
	assert_true(tt_cxx_match("ns::foo", "ns::foo(" STR " const&)", false));
	assert_true(tt_cxx_match("ns::Klass::method", "ns::Klass::method(long) const", false));
	assert_false(tt_cxx_match("ns::foo", "ns::foobar(int)", false));
	assert_false(tt_cxx_match("ns::foo", "other::ns::foo(int)", false));
	assert_false(tt_cxx_match("foo", "ns::foo(int)", false));
	assert_true(tt_cxx_match("(anonymous namespace)::helper",
				 "(anonymous namespace)::helper(int)", false));
	/* Clones are parts or copies, never the function called. */
	assert_false(tt_cxx_match("ns::foo", "ns::foo(int) [clone .cold]", false));
	assert_false(tt_cxx_match("ns::foo", "ns::foo(int) [clone .isra.0]", false));
}

static void test_params(void **state)
{
	(void)state;
	assert_true(tt_cxx_match("ns::foo(int)", "ns::foo(int)", false));
	assert_false(tt_cxx_match("ns::foo(int)", "ns::foo(long)", false));
	assert_true(tt_cxx_match("ns::foo(std::string const&)", "ns::foo(" STR " const&)", false));
	assert_true(
		tt_cxx_match("ns::foo( std::string  const & )", "ns::foo(" STR " const&)", false));
	assert_true(tt_cxx_match("ns::foo(" STR " const&)", "ns::foo(" STR " const&)", false));
	assert_false(tt_cxx_match("ns::foo(std::string&)", "ns::foo(" STR " const&)", false));
	assert_true(tt_cxx_match("ns::f(int,char const*)", "ns::f(int, char const*)", false));
	assert_true(tt_cxx_match("ns::f(unsigned int)", "ns::f(unsigned int)", false));
	assert_false(tt_cxx_match("ns::f(unsignedint)", "ns::f(unsigned int)", false));
	/* Qualifiers may be left out, or given. */
	assert_true(tt_cxx_match("K::get()", "K::get() const", false));
	assert_true(tt_cxx_match("K::get() const", "K::get() const", false));
	assert_false(tt_cxx_match("K::get() const", "K::get()", false));
}

static void test_templates_operators(void **state)
{
	(void)state;
	assert_true(tt_cxx_match("ns::max", "int ns::max<int>(int, int)", false));
	assert_true(tt_cxx_match("ns::max<int>", "int ns::max<int>(int, int)", false));
	assert_false(tt_cxx_match("ns::max<long>", "int ns::max<int>(int, int)", false));
	assert_true(tt_cxx_match("ns::max<int>(int, int)", "int ns::max<int>(int, int)", false));
	assert_true(tt_cxx_match("ns::V<int, long>::push", "ns::V<int, long>::push(int const&)",
				 false));
	assert_true(
		tt_cxx_match("ns::operator<", "ns::operator<(ns::A const&, ns::A const&)", false));
	assert_true(tt_cxx_match("ns::operator<<", "ns::operator<<(std::ostream&, ns::A const&)",
				 false));
	assert_true(tt_cxx_match("ns::A::operator()", "ns::A::operator()(int)", false));
	assert_true(tt_cxx_match("ns::A::operator->", "ns::A::operator->() const", false));
	assert_true(tt_cxx_match("operator new", "operator new(unsigned long)", false));
	assert_true(tt_cxx_match("ns::A::operator int", "ns::A::operator int() const", false));
}

static void test_glob(void **state)
{
	(void)state;
	assert_true(tt_cxx_match("ns::*", "ns::foo(int)", true));
	assert_true(tt_cxx_match("ns::Klass::*", "ns::Klass::method(long) const", true));
	assert_false(tt_cxx_match("ns::Klass::*", "ns::foo(int)", true));
}

static void check_needle(const char *want, const char *needle)
{
	char out[64];

	assert_int_equal(tt_cxx_needle(want, out, sizeof(out)), strlen(needle));
	if (*needle)
		assert_string_equal(out, needle);
}

static void test_needle(void **state)
{
	(void)state;
	check_needle("ns::foo", "3foo");
	check_needle("ns::foo(std::string const&)", "3foo");
	check_needle("ns::Klass::method(int) const", "6method");
	check_needle("int ns::max<int>(int, int)", "3max");
	check_needle("ns::V<int, long>::push", "4push");
	check_needle("ns::Klass::~Klass", "5Klass");
	check_needle("ns::A::operator<<", "1A");
	check_needle("ns::*", "2ns");
	check_needle("ns::fo*", "2ns");
	check_needle("(anonymous namespace)::helper", "6helper");
	check_needle("operator new", "");
	check_needle("std::*", "");
	check_needle("*::get", "3get");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_is_name), cmocka_unit_test(test_qualified),
		cmocka_unit_test(test_params),	cmocka_unit_test(test_templates_operators),
		cmocka_unit_test(test_glob),	cmocka_unit_test(test_needle),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
