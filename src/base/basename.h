/*
 * basename.h - the file name part of a path, without copying (basename(3) may modify its
 * argument or return static storage).
 */
#ifndef TT_BASENAME_H
#define TT_BASENAME_H

#include <string.h>

static inline const char *tt_base_name(const char *path)
{
	const char *b = strrchr(path, '/');

	return b ? b + 1 : path;
}

#endif /* TT_BASENAME_H */
