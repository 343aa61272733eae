/*
 * shim_path.c - see shim_path.h.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/shim_path.h"

#define LIBNAME "libtsctrace.so"

/* Where to look, relative to the executable's directory, in this order. */
static const char *const lib_dirs[] = { "", "../lib", "../lib64", "../lib/x86_64-linux-gnu" };

/* The resolved path of dir/rel/LIBNAME into out when it is a readable file. */
static bool try_lib(const char *dir, const char *rel, char *out)
{
	char path[PATH_MAX];
	int n = snprintf(path, sizeof(path), "%s%s%s/" LIBNAME, dir, *rel ? "/" : "", rel);

	return n > 0 && (size_t)n < sizeof(path) && access(path, R_OK) == 0 &&
	       realpath(path, out) != NULL;
}

int tt_cli_find_shim(const char *cmd, char *out)
{
	const char *env = getenv("TSCTRACE_LIB");
	char exe[PATH_MAX], *slash;
	ssize_t n;
	size_t i;

	if (env && *env) {
		if (access(env, R_OK) < 0 || !realpath(env, out)) {
			tt_cli_err("%s: TSCTRACE_LIB=%s: %s", cmd, env, strerror(errno));
			return -1;
		}
		return 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	slash = strrchr(exe, '/');
	if (slash)
		*slash = '\0';
	for (i = 0; slash && i < sizeof(lib_dirs) / sizeof(lib_dirs[0]); i++)
		if (try_lib(exe, lib_dirs[i], out))
			return 0;
	tt_cli_err("%s: cannot find " LIBNAME " in %s, nor in ../lib, ../lib64 or "
		   "../lib/x86_64-linux-gnu beside it: set TSCTRACE_LIB",
		   cmd, slash ? exe : "?");
	return -1;
}
