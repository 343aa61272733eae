/*
 * exec_target.c - see exec_target.h. Only ENOENT and ENOTDIR count as missing: they answer
 * the same for every user, while EACCES may depend on the user the exec runs as, and a file
 * created between this look and the exec is a race the report would lose only then.
 */
#include "wrap/exec_target.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/sys.h"

static bool missing(const char *path)
{
	struct stat st;
	long err = tt_sys_fstatat(AT_FDCWD, path, &st, 0);

	return err == -ENOENT || err == -ENOTDIR;
}

bool tt_exec_target_missing(const char *file, bool search)
{
	char cand[PATH_MAX];
	const char *dirs, *p, *end;
	size_t flen, dlen;

	if (!file)
		return false; /* EFAULT: the exec's own business */
	if (!search || !file[0] || strchr(file, '/'))
		return missing(file);
	dirs = getenv("PATH");
	if (!dirs)
		dirs = "/bin:/usr/bin";
	flen = strlen(file);
	for (p = dirs;; p = end + 1) {
		end = strchrnul(p, ':');
		dlen = (size_t)(end - p);
		if (dlen + 1 + flen >= sizeof(cand))
			return false; /* not looked at: it may be there */
		if (dlen) {
			memcpy(cand, p, dlen);
			cand[dlen] = '/';
			memcpy(cand + dlen + 1, file, flen + 1);
		} else {
			memcpy(cand, file, flen + 1); /* an empty entry: the current directory */
		}
		if (!missing(cand))
			return false;
		if (!*end)
			return true;
	}
}
