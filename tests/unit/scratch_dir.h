/*
 * scratch_dir.h - a directory of a unit test's own under $TMPDIR (else /tmp), made before
 * each test and removed with all it holds after: tests that write files run beside others.
 */
#ifndef TT_TEST_SCRATCH_DIR_H
#define TT_TEST_SCRATCH_DIR_H

#include <stdio.h>
#include <stdlib.h>

/* A new directory named NAME.XXXXXX into dir (len bytes); 0, or -1 when none was made. */
static inline int scratch_dir_make(char *dir, size_t len, const char *name)
{
	const char *tmp = getenv("TMPDIR");
	int n = snprintf(dir, len, "%s/%s.XXXXXX", tmp && *tmp ? tmp : "/tmp", name);

	return n > 0 && (size_t)n < len && mkdtemp(dir) ? 0 : -1;
}

/* Remove dir and everything in it; 0 when done. */
static inline int scratch_dir_remove(const char *dir)
{
	char cmd[4200];
	int n = snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);

	return n > 0 && (size_t)n < sizeof(cmd) && system(cmd) == 0 ? 0 : -1;
}

#endif /* TT_TEST_SCRATCH_DIR_H */
