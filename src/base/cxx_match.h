/*
 * cxx_match.h - does a C++ function name as a user writes it ("ns::foo", "ns::Klass::method",
 * "ns::foo(std::string const&)") name this demangled symbol ("ns::foo(std::__cxx11::
 * basic_string<char, std::char_traits<char>, std::allocator<char> > const&)")?
 *
 * Pure: no allocation, no state. Used by the shim to resolve TSC_FUNCS entries (hook/resolve.c)
 * and unit-tested.
 */
#ifndef TT_CXX_MATCH_H
#define TT_CXX_MATCH_H

#include <stdbool.h>
#include <stddef.h>

/* True when a TSC_FUNCS name is written as a C++ name: it holds "::" or '('. */
bool tt_cxx_is_name(const char *name);

/* True when s[i] ('<', '>' or '(') is part of an operator's name ("operator<<", "operator->"),
 * not the start or end of a nesting: s[0..i) ends with the keyword operator and operator
 * characters. */
bool tt_cxx_in_operator(const char *s, size_t i);

/*
 * True when `want` names the function whose demangled form (with parameters, as c++filt
 * prints it) is `demangled`:
 *  - without a parameter list, want is its qualified name ("ns::Klass::method"): every
 *    overload matches; a function template matches with or without its template arguments
 *    ("ns::max" or "ns::max<int>"); with glob, want is an fnmatch pattern over that name;
 *  - with one, the parameter types must be the same ("ns::foo(int, char const*)"), with or
 *    without the trailing qualifiers (" const", " &&").
 * White space is compared only where it separates two words ("unsigned int"), and
 * "std::string" stands for std::__cxx11::basic_string<char, ...> (and std::basic_string<char,
 * ...>). Never true for a compiler's clone of a function ("[clone .cold]", ".isra"): that is
 * a part or a copy of a function, not the one the program calls.
 */
bool tt_cxx_match(const char *want, const char *demangled, bool glob);

/*
 * A quick test before demangling: a piece every mangled symbol that tt_cxx_match(want, ...)
 * accepts holds, "<length><identifier>" ("6method" for ns::Klass::method): the function's own
 * name, or the class or namespace before an operator or a glob, is always spelled out once in
 * the Itanium mangling. Written to out (size bytes); returns its length, 0 when want has no
 * such word (a global operator, std::...), and then every symbol must be demangled.
 */
size_t tt_cxx_needle(const char *want, char *out, size_t size);

#endif /* TT_CXX_MATCH_H */
