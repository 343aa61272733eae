/*
 * cache_dir.c - see cache_dir.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "base/cache_dir.h"
#include "base/sys.h"

/* The refusal: 0 none, 1 being recorded, 2 recorded and not said yet, 3 said. */
static int refusal;
static char refusal_why[320];

void tt_cache_refuse(const char *why)
{
	int none = 0;

	if (!__atomic_compare_exchange_n(&refusal, &none, 1, false, __ATOMIC_ACQ_REL,
					 __ATOMIC_ACQUIRE))
		return; /* the first reason is the one said */
	snprintf(refusal_why, sizeof(refusal_why), "%s", why);
	__atomic_store_n(&refusal, 2, __ATOMIC_RELEASE);
}

bool tt_cache_refused(void)
{
	return __atomic_load_n(&refusal, __ATOMIC_ACQUIRE) != 0;
}

const char *tt_cache_refusal_unsaid(void)
{
	int unsaid = 2;

	return __atomic_compare_exchange_n(&refusal, &unsaid, 3, false, __ATOMIC_ACQ_REL,
					   __ATOMIC_ACQUIRE)
		       ? refusal_why
		       : NULL;
}

/* Why st (of what, at path) is not the effective user's alone, or NULL. */
static const char *not_own(const struct stat *st, const char *what, const char *path, char *why,
			   size_t len)
{
	long euid = tt_syscall3(SYS_geteuid, 0, 0, 0);

	if ((long)st->st_uid != euid)
		snprintf(why, len, "%s %s is owned by uid %ld, not by this process's (%ld)", what,
			 path, (long)st->st_uid, euid);
	else if (st->st_mode & (S_IWGRP | S_IWOTH))
		snprintf(why, len, "%s %s is writable by %s (mode %04o)", what, path,
			 st->st_mode & S_IWOTH ? "others" : "its group",
			 (unsigned int)(st->st_mode & 07777));
	else
		return NULL;
	return why;
}

/* Why the directory at path is not to be trusted, NULL when it is or is missing; follow:
 * whether a link there is followed (the parent, chosen by the user) or refused. */
static const char *dir_untrusted(const char *path, bool follow, char *why, size_t len)
{
	struct stat st;
	long r = tt_sys_fstatat(AT_FDCWD, path, &st, follow ? 0 : AT_SYMLINK_NOFOLLOW);

	if (r == -ENOENT || r == -ENOTDIR) /* missing; one that cannot be made is no threat */
		return NULL;
	if (r < 0) {
		snprintf(why, len, "cache directory %s cannot be examined (error %ld)", path, -r);
		return why;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, len, "cache directory %s is not a directory%s", path,
			 S_ISLNK(st.st_mode) ? " but a symbolic link" : "");
		return why;
	}
	return not_own(&st, "cache directory", path, why, len);
}

const char *tt_cache_dir_untrusted(const char *dir, char *why, size_t len)
{
	char parent[4096];
	char *slash;
	const char *bad = dir_untrusted(dir, false, why, len);

	if (bad || strlen(dir) >= sizeof(parent))
		return bad;
	memcpy(parent, dir, strlen(dir) + 1);
	slash = strrchr(parent, '/');
	if (!slash || slash == parent)
		return NULL;
	*slash = 0;
	return dir_untrusted(parent, true, why, len);
}

bool tt_cache_file_trusted(int fd, const char *path)
{
	char why[sizeof(refusal_why)];
	struct stat st;

	if (tt_sys_fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
		return false; /* not a file to read: a miss, nothing to refuse */
	if (!not_own(&st, "cache file", path, why, sizeof(why)))
		return true;
	tt_cache_refuse(why);
	return false;
}

/* dir's verdict (refused when untrusted): true when it may be used. */
static bool dir_usable(const char *dir)
{
	char why[sizeof(refusal_why)];

	if (tt_cache_refused())
		return false;
	if (!tt_cache_dir_untrusted(dir, why, sizeof(why)))
		return true;
	tt_cache_refuse(why);
	return false;
}

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
	if (n < 0 || (size_t)n >= len || !dir_usable(out)) {
		out[0] = 0;
		return false;
	}
	return true;
}

/* mkdir path 0700, whatever the umask (a directory just made is chmod'ed: the umask may
 * have taken bits from the owner too); 0 or the error, -EEXIST when it was there. */
static long make_private_dir(const char *path)
{
	long r = tt_syscall3(SYS_mkdirat, AT_FDCWD, path, 0700);

	if (r == 0)
		tt_syscall3(SYS_fchmodat, AT_FDCWD, path, 0700);
	return r;
}

bool tt_cache_dir_make(const char *dir)
{
	char parent[4096];
	char *slash;
	long r;

	if (!dir_usable(dir))
		return false;
	r = make_private_dir(dir);
	if (r == -ENOENT && strlen(dir) < sizeof(parent)) {
		memcpy(parent, dir, strlen(dir) + 1);
		slash = strrchr(parent, '/');
		if (!slash || slash == parent)
			return false;
		*slash = 0;
		r = make_private_dir(parent);
		if (r != 0 && r != -EEXIST)
			return false;
		r = make_private_dir(dir);
	}
	/* Looked at again: another may have made it between the look and the mkdir. */
	return (r == 0 || r == -EEXIST) && dir_usable(dir);
}

long tt_cache_file_read(const char *path, char *buf, size_t len)
{
	long fd, n, got = 0;

	if (!len)
		return -1;
	if (tt_cache_refused())
		return -1;
	fd = tt_sys_openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0);
	if (fd < 0)
		return -1;
	if (!tt_cache_file_trusted((int)fd, path)) {
		tt_sys_close((int)fd);
		return -1;
	}
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

	if (tt_cache_refused() ||
	    (size_t)snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, tt_sys_getpid()) >= sizeof(tmp))
		return;
	fd = tt_sys_openat(AT_FDCWD, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
			   0600);
	if (fd < 0)
		return;
	/* 0600 whatever the umask; one that was there (a dead process of this pid) too. */
	ok = tt_syscall3(SYS_fchmod, fd, 0600, 0);
	if (ok == 0)
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

const char *tt_cache_file_load_keyed(const char *dir, const char *prefix, const char *magic,
				     const char *key, char *buf, size_t len)
{
	char path[4200];
	size_t mlen = strlen(magic), klen = strlen(key);
	const char *p = buf;

	if (!dir[0] || !tt_cache_file_name(dir, prefix, key, path, sizeof(path)) ||
	    tt_cache_file_read(path, buf, len) < 0)
		return NULL;
	if (strncmp(p, magic, mlen) != 0)
		return NULL;
	p += mlen;
	if (strncmp(p, "key ", 4) != 0 || strncmp(p + 4, key, klen) != 0 || p[4 + klen] != '\n')
		return NULL;
	return p + 4 + klen + 1;
}

void tt_cache_file_store(const char *dir, const char *prefix, const char *key, const char *buf,
			 int n, size_t cap)
{
	char path[4200];

	if (!dir[0] || n < 0 || (size_t)n >= cap || !tt_cache_dir_make(dir))
		return;
	if (tt_cache_file_name(dir, prefix, key, path, sizeof(path)))
		tt_cache_file_replace(path, buf, (size_t)n);
}
