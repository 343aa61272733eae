/*
 * name_short.h - long C++ names shortened for a text table: "std::__cxx11::basic_string<char,
 * std::char_traits<char>, std::allocator<char> >" as std::string, then, if the name is still
 * long, every template argument list as "<...>". The JSON report and `tsctrace report --wide`
 * keep the full name. Pure: no allocation, no state.
 */
#ifndef TT_NAME_SHORT_H
#define TT_NAME_SHORT_H

#include <stdbool.h>
#include <stddef.h>

#define TT_NAME_SHORT_MAX 60 /* a name up to this many bytes is shown whole */

/* name shortened into buf[0..size) (cut at size - 1 bytes); returns name itself when it is
 * short enough as it is, else buf. */
const char *tt_name_short(const char *name, char *buf, size_t size);

/* A report entry's name as a text table shows it: its C++ symbols demangled
 * (report_names.h), then shortened unless wide. Into out[0..size); full[0..full_size) is
 * scratch for the whole demangled name (shortened whole, never after a cut that would fall
 * inside its template arguments). Returns raw, out or full. */
const char *tt_name_shown(const char *raw, bool wide, char *out, size_t size, char *full,
			  size_t full_size);

#endif /* TT_NAME_SHORT_H */
