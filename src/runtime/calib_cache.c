/*
 * calib_cache.c - see calib_cache.h. A file is named by a hash of its key and holds the key
 * itself, so a hash collision or another machine's file (a home shared over NFS) is never
 * taken for ours:
 *
 *   tsctrace calibration 1
 *   key sig=00a00f11 cpu=AMD EPYC ... build=ef5b...
 *   min 49
 *   median 52
 *   nested 30
 *   granularity 1
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/cache_dir.h"
#include "base/sys.h"
#include "runtime/calib_cache.h"

#define MAGIC "tsctrace calibration 1\n"

/* The shim's own ELF header (the linker defines it): its build ID is found from there. */
extern const ElfW(Ehdr) __ehdr_start __attribute__((visibility("hidden")));

/* The shim's GNU build ID in hex, "" without one. */
static void own_build_id(char *out, size_t len)
{
	uintptr_t base = (uintptr_t)&__ehdr_start;
	const ElfW(Ehdr) *eh;
	const ElfW(Phdr) *ph;
	size_t i;

	/* The headers run past the Ehdr the symbol is declared as: the compiler (and UBSan's
	 * object-size check) must not take its size for the extent of what is read. */
	__asm__("" : "+r"(base));
	eh = (const ElfW(Ehdr) *)base;
	ph = (const ElfW(Phdr) *)(base + eh->e_phoff);

	out[0] = 0;
	for (i = 0; i < eh->e_phnum; i++) {
		const char *p = (const char *)(base + ph[i].p_vaddr), *end = p + ph[i].p_memsz;

		if (ph[i].p_type != PT_NOTE)
			continue;
		while (p + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
			const unsigned char *desc = (const unsigned char *)p + sizeof(*n) +
						    ((n->n_namesz + 3) & ~3u);
			size_t k;

			if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
			    memcmp(p + sizeof(*n), "GNU", 4) == 0 && n->n_descsz * 2 < len) {
				for (k = 0; k < n->n_descsz; k++) {
					out[2 * k] = "0123456789abcdef"[desc[k] >> 4];
					out[2 * k + 1] = "0123456789abcdef"[desc[k] & 15];
				}
				out[2 * k] = 0;
				return;
			}
			p += sizeof(*n) + ((n->n_namesz + 3) & ~3u) + ((n->n_descsz + 3) & ~3u);
		}
	}
}

bool tt_calib_cache_dir(const struct tt_config *cfg, char *out, size_t len)
{
	out[0] = 0;
	/* TSC_CPU emulates another CPU's readings: nothing to keep or trust. */
	if (!cfg->cache || cfg->cpu.set)
		return false;
	return tt_cache_dir(out, len);
}

void tt_calib_cache_key(const struct tt_clock *c, const struct tt_config *cfg, bool inline_route,
			struct tt_calib_key *k)
{
	char build[129];

	own_build_id(build, sizeof(build));
	/* Sampling and call paths change the trampoline's work around the readings. */
	snprintf(k->text, sizeof(k->text),
		 "sig=%08x cpu=%s hv=%d serialize=%s route=%s callers=%u sample=%llu "
		 "budget=%u build=%s",
		 c->signature, c->cpu, c->hypervisor, c->serialize ? c->serialize : "?",
		 inline_route ? "inline" : "got", cfg->callers, (unsigned long long)cfg->sample,
		 cfg->budget_ppm, build);
}

bool tt_calib_cache_load(const char *dir, const struct tt_calib_key *k, struct tt_overhead *out)
{
	char buf[1024];
	const char *p = tt_cache_file_load_keyed(dir, "calib", MAGIC, k->text, buf, sizeof(buf));
	struct tt_overhead o = { 0 };

	if (!p)
		return false;
	if (!tt_cache_file_field(&p, "min", 10, &o.min) ||
	    !tt_cache_file_field(&p, "median", 10, &o.median) ||
	    !tt_cache_file_field(&p, "nested", 10, &o.nested) ||
	    !tt_cache_file_field(&p, "granularity", 10, &o.granularity) || *p || o.median < o.min ||
	    !o.granularity)
		return false;
	*out = o;
	return true;
}

void tt_calib_cache_store(const char *dir, const struct tt_calib_key *k,
			  const struct tt_overhead *o)
{
	char buf[1024];
	int n;

	n = snprintf(buf, sizeof(buf),
		     MAGIC "key %s\nmin %llu\nmedian %llu\nnested %llu\n"
			   "granularity %llu\n",
		     k->text, (unsigned long long)o->min, (unsigned long long)o->median,
		     (unsigned long long)o->nested, (unsigned long long)o->granularity);
	tt_cache_file_store(dir, "calib", k->text, buf, n, sizeof(buf));
}
