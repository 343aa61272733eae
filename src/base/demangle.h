/*
 * demangle.h - C++ symbol names (Itanium ABI, "_Z...") for people: "ns::foo(int)".
 *
 * libiberty's demangler (Debian libiberty-dev, linked statically), through its callback entry
 * point, which never calls malloc and keeps no state: safe in the report path (an _exit
 * wrapper, a fatal signal), in a fork child, in any thread. Its working memory is on the
 * stack, in proportion to the name's length: names longer than TT_DEMANGLE_MAX are left as
 * they are (docs/names.md measures the stack this takes).
 */
#ifndef TT_DEMANGLE_H
#define TT_DEMANGLE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"

#define TT_DEMANGLE_MAX 512 /* longest mangled name demangled, in bytes */

/* True when s[0..len) looks like an Itanium C++ symbol ("_Z" followed by more). */
static inline bool tt_is_mangled(const char *s, size_t len)
{
	return len > 2 && s[0] == '_' && s[1] == 'Z';
}

/*
 * The demangled form of sym[0..len) (with parameter types, "[clone .cold]" for a part the
 * compiler split off), into out[0..size) NUL-terminated and cut at size - 1 bytes. Returns the
 * full length of the demangled form (like snprintf), or 0 when sym is not a C++ symbol the
 * demangler reads, or is longer than TT_DEMANGLE_MAX; out is then "".
 */
size_t tt_demangle(const char *sym, size_t len, char *out, size_t size);

/* The same, appended whole to b. False (b unchanged) when tt_demangle would return 0. */
bool tt_demangle_buf(const char *sym, size_t len, struct tt_buf *b);

#endif /* TT_DEMANGLE_H */
