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

/* The fields after the magic and key lines (tt_cache_file_load_keyed). */
static bool parse(const char *p, struct tt_cpu_kept *k)
{
	uint64_t max, rate15, hv, gran;
	const char *end;

	if (!tt_cache_file_field(&p, "max", 10, &max) ||
	    !tt_cache_file_field(&p, "rate15", 10, &rate15) ||
	    !tt_cache_file_field(&p, "hypervisor", 16, &hv) ||
	    !tt_cache_file_field(&p, "granularity", 10, &gran) || strncmp(p, "brand ", 6) != 0 ||
	    max > UINT32_MAX || rate15 > 1 || hv > UINT32_MAX)
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
	char buf[1024];
	const char *p;

	memset(k, 0, sizeof(*k));
	make_key(k->key, sizeof(k->key));
	if (!k->key[0])
		return;
	p = tt_cache_file_load_keyed(dir, "cpu", MAGIC, k->key, buf, sizeof(buf));
	if (!p)
		return;
	k->loaded = parse(p, k);
	if (!k->loaded) {
		char key[sizeof(k->key)];

		memcpy(key, k->key, sizeof(key));
		memset(k, 0, sizeof(*k));
		memcpy(k->key, key, sizeof(key));
	}
}

void tt_cpu_cache_store(const char *dir, const struct tt_cpu_kept *k)
{
	char buf[1024];
	int n;

	if (!k->key[0] || strchr(k->brand, '\n'))
		return;
	n = snprintf(buf, sizeof(buf),
		     MAGIC "key %s\nmax %u\nrate15 %d\nhypervisor %x\ngranularity %llu\nbrand %s\n",
		     k->key, k->max_basic, k->rate15 ? 1 : 0, k->hv_max,
		     (unsigned long long)k->granularity, k->brand);
	tt_cache_file_store(dir, "cpu", k->key, buf, n, sizeof(buf));
}
