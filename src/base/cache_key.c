/*
 * cache_key.c - see cache_key.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>

#include "base/cache_dir.h"
#include "base/cache_key.h"
#include "base/sys.h"

#define GRND_NONBLOCK_FLAG 1 /* no wait at early boot: no key, no cache, the program runs on */

static bool have_key;
static uint8_t the_key[TT_SIPHASH_KEY];
static char key_dir[512]; /* the directory the_key is of */

/* dir/key's bytes into buf when it is whole: true. */
static bool read_key(const char *path, uint8_t *buf)
{
	char raw[TT_CACHE_KEY_FILE_BYTES + 2];
	long n = tt_cache_file_read(path, raw, sizeof(raw));

	if (n != TT_CACHE_KEY_FILE_BYTES)
		return false;
	memcpy(buf, raw, TT_SIPHASH_KEY);
	return true;
}

/* A new key at path (none there when fresh, else a bad one): true with its bytes in buf, or
 * those of a key another process linked there first. */
static bool new_key(const char *path, bool fresh, uint8_t *buf)
{
	uint8_t bytes[TT_CACHE_KEY_FILE_BYTES];
	char tmp[sizeof(key_dir) + 48];
	long fd, ok;

	if (tt_syscall3(SYS_getrandom, bytes, sizeof(bytes), GRND_NONBLOCK_FLAG) !=
		    (long)sizeof(bytes) ||
	    (size_t)snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, tt_sys_getpid()) >= sizeof(tmp))
		return false;
	tt_sys_unlinkat(AT_FDCWD, tmp, 0); /* a dead process's of this pid */
	fd = tt_sys_openat(AT_FDCWD, tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
			   0600);
	if (fd < 0)
		return false;
	ok = tt_syscall3(SYS_fchmod, fd, 0600, 0); /* whatever the umask */
	if (ok == 0)
		ok = tt_sys_write_all_nosig((int)fd, bytes, sizeof(bytes));
	tt_sys_close((int)fd);
	if (ok >= 0)
		ok = fresh ? tt_sys_linkat(AT_FDCWD, tmp, AT_FDCWD, path)
			   : tt_sys_renameat(AT_FDCWD, tmp, AT_FDCWD, path);
	tt_sys_unlinkat(AT_FDCWD, tmp, 0); /* after a link; a failed rename's */
	if (ok == -EEXIST)
		return read_key(path, buf); /* another process's, linked first */
	if (ok < 0)
		return false;
	memcpy(buf, bytes, TT_SIPHASH_KEY);
	return true;
}

bool tt_cache_key(const char *dir, bool make, uint8_t key[TT_SIPHASH_KEY])
{
	char path[sizeof(key_dir) + 8];
	uint8_t got[TT_SIPHASH_KEY];
	long n;

	if (tt_cache_refused())
		return false;
	if (have_key && !strcmp(dir, key_dir)) {
		memcpy(key, the_key, TT_SIPHASH_KEY);
		return true;
	}
	if (strlen(dir) >= sizeof(key_dir))
		return false;
	n = snprintf(path, sizeof(path), "%s/key", dir);
	if (n < 0 || (size_t)n >= sizeof(path))
		return false;
	if (!read_key(path, got)) {
		char probe[1];
		/* Missing, or there but of another length (a refusal stops here). */
		bool fresh = tt_cache_file_read(path, probe, sizeof(probe)) < 0;

		if (tt_cache_refused() || !make || !new_key(path, fresh, got) || tt_cache_refused())
			return false;
	}
	memcpy(the_key, got, sizeof(got));
	snprintf(key_dir, sizeof(key_dir), "%s", dir);
	have_key = true;
	memcpy(key, got, TT_SIPHASH_KEY);
	return true;
}
