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

long tt_cache_file_read(const char *path, char *buf, size_t len)
{
	long fd, n, got = 0;

	if (!len)
		return -1;
	fd = tt_sys_openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	while (got < (long)len - 1 &&
	       (n = tt_sys_read((int)fd, buf + got, len - 1 - (size_t)got)) > 0)
		got += n;
	tt_sys_close((int)fd);
	buf[got] = 0;
	return got;
}

void tt_cache_file_replace(const char *path, const char *buf, size_t len)
{
	char tmp[4300];
	long fd, ok;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, tt_sys_getpid()) >= sizeof(tmp))
		return;
	fd = tt_sys_openat(AT_FDCWD, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
			   0600);
	if (fd < 0)
		return;
	ok = tt_sys_write_all_nosig((int)fd, buf, len);
	tt_sys_close((int)fd);
	if (ok < 0 || tt_sys_renameat(AT_FDCWD, tmp, AT_FDCWD, path) < 0)
		tt_sys_unlinkat(AT_FDCWD, tmp, 0);
}

bool tt_cache_file_name(const char *dir, const char *prefix, const char *key, char *out, size_t len)
{
	uint64_t h = 1469598103934665603ull;
	const char *p;
	int n;

	for (p = key; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	n = snprintf(out, len, "%s/%s-%016llx.txt", dir, prefix, (unsigned long long)h);
	return n >= 0 && (size_t)n < len;
}

bool tt_cache_file_field(const char **p, const char *name, int base, uint64_t *v)
{
	size_t n = strlen(name);
	const char *s = *p;
	uint64_t x = 0;
	int digits = 0, most = base == 16 ? 16 : 19; /* no overflow of 64 bits */

	if (strncmp(s, name, n) != 0 || s[n] != ' ')
		return false;
	for (s += n + 1; digits < most; s++, digits++) {
		int d = *s >= '0' && *s <= '9'	 ? *s - '0'
			: *s >= 'a' && *s <= 'f' ? *s - 'a' + 10
						 : 99;

		if (d >= base)
			break;
		x = x * (uint64_t)base + (uint64_t)d;
	}
	if (!digits || *s != '\n')
		return false;
	*v = x;
	*p = s + 1;
	return true;
}
