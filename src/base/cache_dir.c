/*
 * cache_dir.c - see cache_dir.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>

#include "base/cache_dir.h"
#include "base/sys.h"

bool tt_cache_dir(char *out, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n;

	out[0] = 0;
	if (getauxval(AT_SECURE))
		return false;
	if (xdg && xdg[0] == '/')
		n = snprintf(out, len, "%s/tsctrace", xdg);
	else if (home && home[0] == '/')
		n = snprintf(out, len, "%s/.cache/tsctrace", home);
	else
		return false;
	if (n < 0 || (size_t)n >= len) {
		out[0] = 0;
		return false;
	}
	return true;
}

bool tt_cache_dir_make(const char *dir)
{
	char parent[4096];
	char *slash;
	long r = tt_syscall3(SYS_mkdirat, AT_FDCWD, dir, 0700);

	if (r == 0 || r == -EEXIST)
		return true;
	if (r != -ENOENT || strlen(dir) >= sizeof(parent))
		return false;
	memcpy(parent, dir, strlen(dir) + 1);
	slash = strrchr(parent, '/');
	if (!slash || slash == parent)
		return false;
	*slash = 0;
	r = tt_syscall3(SYS_mkdirat, AT_FDCWD, parent, 0700);
	if (r != 0 && r != -EEXIST)
		return false;
	r = tt_syscall3(SYS_mkdirat, AT_FDCWD, dir, 0700);
	return r == 0 || r == -EEXIST;
}
