/*
 * cpu_cache.c - see cpu_cache.h. A file is named by a hash of its key and holds the key
 * itself, so a hash collision or another machine's file (a home shared over NFS) is never
 * taken for this CPU's:
 *
 *   tsctrace cpu 1
 *   key 00a00f11.01020800.fef83203.178bfbff.219c07a9...
 *   max 16
 *   rate15 0
 *   hypervisor 40000001
 *   granularity 25
 *   brand AMD EPYC 7B13
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/platform/x86.h>

#include "base/cache_dir.h"
#include "base/sys.h"
#include "runtime/cpu_cache.h"

#define MAGIC "tsctrace cpu 1\n"

/* The leaves glibc asked at start-up (raw CPUID output), in hex: the CPU's identity. The
 * initial APIC ID (leaf 1 EBX bits 31-24) names the core the loader ran on: left out. */
static void make_key(char *out, size_t len)
{
	size_t at = 0;
	unsigned int i, r;
	int bit;

	out[0] = 0;
	if (len < (CPUID_INDEX_14_ECX_0 + 1) * 4 * 9)
		return;
	for (i = 0; i <= CPUID_INDEX_14_ECX_0; i++) {
		const unsigned int *v = __x86_get_cpuid_feature_leaf(i)->cpuid_array;

		for (r = 0; r < 4; r++) {
			unsigned int x = i == CPUID_INDEX_1 && r == 1 ? v[r] & 0x00ffffffu : v[r];

			if (at)
				out[at++] = '.';
			for (bit = 28; bit >= 0; bit -= 4)
				out[at++] = "0123456789abcdef"[(x >> bit) & 15];
		}
	}
	out[at] = 0;
}

/* dir/cpu-HASH.txt (FNV-1a of the key) into out; false when it does not fit. */
static bool file_name(const char *dir, const char *key, char *out, size_t len)
{
	uint64_t h = 1469598103934665603ull;
	size_t n = strlen(dir);
	const char *p;
	int bit;

	for (p = key; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	if (n + sizeof("/cpu-0123456789abcdef.txt") > len)
		return false;
	memcpy(out, dir, n);
	memcpy(out + n, "/cpu-", 5);
	n += 5;
	for (bit = 60; bit >= 0; bit -= 4)
		out[n++] = "0123456789abcdef"[(h >> bit) & 15];
	memcpy(out + n, ".txt", 5);
	return true;
}

/* "NAME N\n" at *p, N in base `base`: into v, *p past the line. */
static bool read_number(const char **p, const char *name, int base, uint64_t *v)
{
	size_t n = strlen(name);
	const char *s = *p;
	uint64_t x = 0;
	int digits = 0;

	if (strncmp(s, name, n) != 0 || s[n] != ' ')
		return false;
	for (s += n + 1; digits < 16; s++, digits++) {
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

static bool parse(const char *p, struct tt_cpu_kept *k)
{
	size_t klen = strlen(k->key);
	uint64_t max, rate15, hv, gran;
	const char *end;

	if (strncmp(p, MAGIC, strlen(MAGIC)) != 0)
		return false;
	p += strlen(MAGIC);
	if (strncmp(p, "key ", 4) != 0 || strncmp(p + 4, k->key, klen) != 0 || p[4 + klen] != '\n')
		return false;
	p += 4 + klen + 1;
	if (!read_number(&p, "max", 10, &max) || !read_number(&p, "rate15", 10, &rate15) ||
	    !read_number(&p, "hypervisor", 16, &hv) || !read_number(&p, "granularity", 10, &gran) ||
	    strncmp(p, "brand ", 6) != 0 || max > UINT32_MAX || rate15 > 1 || hv > UINT32_MAX)
		return false;
	p += 6;
	end = strchr(p, '\n');
	if (!end || end[1] || (size_t)(end - p) >= sizeof(k->brand))
		return false;
	memcpy(k->brand, p, (size_t)(end - p));
	k->brand[end - p] = 0;
	k->max_basic = (uint32_t)max;
	k->rate15 = rate15 == 1;
	k->hv_max = (uint32_t)hv;
	k->granularity = gran;
	return true;
}

void tt_cpu_cache_load(const char *dir, struct tt_cpu_kept *k)
{
	char path[4200], buf[1024];
	long fd, n, got = 0;

	memset(k, 0, sizeof(*k));
	make_key(k->key, sizeof(k->key));
	if (!dir[0] || !k->key[0])
		return;
	if (!file_name(dir, k->key, path, sizeof(path)))
		return;
	fd = tt_sys_openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0);
	if (fd < 0)
		return;
	while (got < (long)sizeof(buf) - 1 &&
	       (n = tt_sys_read((int)fd, buf + got, sizeof(buf) - 1 - (size_t)got)) > 0)
		got += n;
	tt_sys_close((int)fd);
	buf[got] = 0;
	k->loaded = parse(buf, k);
	if (!k->loaded) {
		char key[sizeof(k->key)];

		memcpy(key, k->key, sizeof(key));
		memset(k, 0, sizeof(*k));
		memcpy(k->key, key, sizeof(key));
	}
}

void tt_cpu_cache_store(const char *dir, const struct tt_cpu_kept *k)
{
	char path[4200], tmp[4240], buf[1024];
	long fd, ok;
	int n;

	if (!dir[0] || !k->key[0] || !tt_cache_dir_make(dir))
		return;
	n = snprintf(buf, sizeof(buf),
		     MAGIC "key %s\nmax %u\nrate15 %d\nhypervisor %x\ngranularity %llu\nbrand %s\n",
		     k->key, k->max_basic, k->rate15 ? 1 : 0, k->hv_max,
		     (unsigned long long)k->granularity, k->brand);
	if (n < 0 || (size_t)n >= sizeof(buf) || strchr(k->brand, '\n'))
		return;
	if (!file_name(dir, k->key, path, sizeof(path)) ||
	    (size_t)snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, tt_sys_getpid()) >= sizeof(tmp))
		return;
	fd = tt_sys_openat(AT_FDCWD, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
			   0600);
	if (fd < 0)
		return;
	ok = tt_sys_write_all((int)fd, buf, (size_t)n);
	tt_sys_close((int)fd);
	/* Whole or not at all: a reader sees the old file or the new one. */
	if (ok < 0 || tt_sys_renameat(AT_FDCWD, tmp, AT_FDCWD, path) < 0)
		tt_sys_unlinkat(AT_FDCWD, tmp, 0);
}
