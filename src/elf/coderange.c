/*
 * coderange.c - see coderange.h. The array lives in its own mapping (raw system calls): this
 * runs while functions are being patched, and malloc may be one of them.
 */
#include <string.h>
#include <sys/mman.h>

#include "base/sys.h"
#include "elf/coderange.h"
#include "elf/ehframe.h"
#include "elf/symtab.h"

struct collect {
	struct tt_code_ranges *c;
	uintptr_t base, seg_lo, seg_hi;
	size_t cap; /* entries; the mapping holds twice as many, the second half scratch */
	int failed;
};

/* Room for cap entries and as many of scratch, faulted in at once (a fault each costs more
 * than what is written to the page). Returns 0 or -1. */
static int reserve(struct collect *k, size_t cap)
{
	struct tt_code_ranges *c = k->c;
	size_t bytes = 2 * cap * sizeof(*c->r);
	void *p = c->r ? tt_sys_mremap(c->r, c->bytes, bytes, MREMAP_MAYMOVE)
		       : tt_sys_mmap(NULL, bytes, PROT_READ | PROT_WRITE,
				     MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

	if (!p) {
		k->failed = 1;
		return -1;
	}
	c->r = p;
	c->bytes = bytes;
	k->cap = cap;
	return 0;
}

/*
 * While collecting, hi also says what an entry is: an instruction start whose end the tables
 * give (hi > lo), one whose end they do not (a function symbol of size 0: END_UNKNOWN), or
 * only where something else begins (a data object, a label: STOP). Real ends are > seg_lo.
 */
#define END_UNKNOWN 0
#define STOP 1

static int put(struct collect *k, uintptr_t lo, uintptr_t hi)
{
	struct tt_code_ranges *c = k->c;

	if (lo < k->seg_lo || lo >= k->seg_hi)
		return 0;
	if (c->n == k->cap && reserve(k, 2 * k->cap) < 0)
		return 1;
	c->r[c->n].lo = lo;
	c->r[c->n].hi = hi;
	c->n++;
	return 0;
}

/* Code from lo, len bytes of it (0: the tables do not say how many). */
static int add(struct collect *k, uintptr_t lo, uint64_t len)
{
	if (!len)
		return put(k, lo, END_UNKNOWN);
	return put(k, lo, len > k->seg_hi - lo ? k->seg_hi : lo + len);
}

static int add_static(uint64_t value, uint64_t size, bool code, void *arg)
{
	struct collect *k = arg;

	return code ? add(k, k->base + value, size) : put(k, k->base + value, STOP);
}

static int add_fde(uintptr_t addr, size_t len, void *arg)
{
	return add(arg, addr, len);
}

/*
 * Sort r[0, n) by lo (all in [seg_lo, seg_lo + 4 GiB)) through scratch[0, n): a radix sort
 * of the 32-bit offset, a byte a pass, stable, without branches that depend on the data
 * (which a comparison sort of a few thousand entries pays for) and without libc. Passes
 * where every entry has the same byte are skipped. Returns the array that holds the result.
 */
static struct tt_code_range *sort(struct tt_code_range *r, struct tt_code_range *scratch, size_t n,
				  uintptr_t seg_lo)
{
	struct tt_code_range *from = r, *to = scratch, *t;
	unsigned int shift;
	size_t i;

	for (shift = 0; shift < 32; shift += 8) {
		size_t count[256] = { 0 }, at = 0;

		for (i = 0; i < n; i++)
			count[(from[i].lo - seg_lo) >> shift & 0xff]++;
		if (n && count[(from[0].lo - seg_lo) >> shift & 0xff] == n)
			continue;
		for (i = 0; i < 256; i++) {
			size_t c = count[i];

			count[i] = at;
			at += c;
		}
		for (i = 0; i < n; i++)
			to[count[(from[i].lo - seg_lo) >> shift & 0xff]++] = from[i];
		t = from;
		from = to;
		to = t;
	}
	return from;
}

/* The dynamic symbols of o: functions as code, any other defined symbol as a stop. */
static void add_dynamic(const struct tt_elf *o, struct collect *k)
{
	size_t i;

	for (i = 0; i < o->nsyms && !k->failed; i++) {
		const ElfW(Sym) *s = &o->symtab[i];
		unsigned int type = ELF64_ST_TYPE(s->st_info);

		if (s->st_shndx == SHN_UNDEF || s->st_shndx == SHN_ABS || type == STT_SECTION ||
		    type == STT_FILE || type == STT_TLS)
			continue;
		if (type == STT_FUNC || type == STT_GNU_IFUNC)
			add(k, o->base + s->st_value, s->st_size);
		else
			put(k, o->base + s->st_value, STOP);
	}
}

/* Sorted entries of one start merged into out->r[w - 1]: a known end wins (the longest),
 * then an unknown one, then a stop. */
static void merge(struct tt_code_range *into, const struct tt_code_range *e)
{
	if (into->hi == STOP || (e->hi != STOP && e->hi > into->hi))
		into->hi = e->hi;
}

/* A start of unknown end ends where the next entry of any kind starts, or the segment
 * does; then the stops go. Returns how many are left. */
static size_t close_ranges(struct tt_code_range *r, size_t n, uintptr_t seg_hi)
{
	uintptr_t next = seg_hi;
	size_t i, w;

	for (i = n; i-- > 0;) {
		if (r[i].hi == END_UNKNOWN)
			r[i].hi = next;
		next = r[i].lo;
	}
	for (i = w = 0; i < n; i++)
		if (r[i].hi != STOP)
			r[w++] = r[i];
	return w;
}

int tt_code_ranges_of(const struct tt_elf *o, uintptr_t seg_lo, uintptr_t seg_hi,
		      struct tt_code_ranges *out)
{
	struct collect k = { out, o->base, seg_lo, seg_hi, 0, 0 };
	int fdes = tt_eh_each(o, NULL, NULL);
	struct tt_code_range *r;
	size_t i, w, keep;

	*out = (struct tt_code_ranges){ 0 };
	if (seg_hi - seg_lo > UINT32_MAX ||
	    reserve(&k, o->nsyms + (fdes > 0 ? (size_t)fdes : 0) + 1024) < 0)
		return -1;
	tt_eh_each(o, add_fde, &k);
	add_dynamic(o, &k);
	if (!k.failed)
		tt_symtab_each_start(o->name[0] ? o->name : "/proc/self/exe", add_static, &k);
	if (k.failed) {
		tt_code_ranges_free(out);
		return -1;
	}
	r = sort(out->r, out->r + k.cap, out->n, seg_lo);
	for (i = w = 0; i < out->n; i++) { /* one entry per start */
		if (w && out->r[w - 1].lo == r[i].lo) {
			merge(&out->r[w - 1], &r[i]);
			continue;
		}
		out->r[w++] = r[i]; /* r is out->r or after it: w <= i */
	}
	out->n = close_ranges(out->r, w, seg_hi);
	keep = (out->n * sizeof(*r) + 4095) & ~(size_t)4095; /* the scratch and the spare room */
	if (keep && keep < out->bytes) {
		tt_sys_munmap((char *)out->r + keep, out->bytes - keep);
		out->bytes = keep;
	}
	return 0;
}

/* .symtab symbols of any kind (walked with functions=false): starts only, one byte each. */
static int add_any(const char *name, uint64_t value, uint64_t size, void *arg)
{
	struct collect *k = arg;

	(void)name, (void)size;
	return add(k, k->base + value, 1);
}

/* Sorted, and one entry per start (the ranges' ends are not used by the symbol starts). */
static void sort_unique(struct collect *k, uintptr_t seg_lo)
{
	struct tt_code_ranges *out = k->c;
	struct tt_code_range *r = sort(out->r, out->r + k->cap, out->n, seg_lo);
	size_t i, w;

	for (i = w = 0; i < out->n; i++)
		if (!w || out->r[w - 1].lo != r[i].lo)
			out->r[w++] = r[i]; /* r is out->r or after it: w <= i */
	out->n = w;
}

int tt_symbol_starts_of(const struct tt_elf *o, uintptr_t seg_lo, uintptr_t seg_hi,
			struct tt_code_ranges *out)
{
	struct collect k = { out, o->base, seg_lo, seg_hi, 0, 0 };
	size_t i;

	*out = (struct tt_code_ranges){ 0 };
	if (seg_hi - seg_lo > UINT32_MAX || reserve(&k, o->nsyms + 1024) < 0)
		return -1;
	for (i = 0; i < o->nsyms && !k.failed; i++) {
		const ElfW(Sym) *s = &o->symtab[i];
		unsigned int type = ELF64_ST_TYPE(s->st_info);

		if (s->st_shndx != SHN_UNDEF && s->st_shndx != SHN_ABS && type != STT_SECTION &&
		    type != STT_FILE && type != STT_TLS)
			add(&k, o->base + s->st_value, 1);
	}
	if (!k.failed)
		tt_symtab_each_symbol(o->name[0] ? o->name : "/proc/self/exe", add_any, &k);
	if (k.failed) {
		tt_code_ranges_free(out);
		return -1;
	}
	sort_unique(&k, seg_lo);
	return 0;
}

bool tt_code_ranges_start_within(const struct tt_code_ranges *c, uintptr_t lo, uintptr_t hi)
{
	size_t a = 0, b = c->n;

	while (a < b) { /* the first entry whose start is >= lo */
		size_t m = a + (b - a) / 2;

		if (c->r[m].lo < lo)
			a = m + 1;
		else
			b = m;
	}
	return a < c->n && c->r[a].lo < hi;
}

void tt_code_ranges_free(struct tt_code_ranges *c)
{
	if (c->r)
		tt_sys_munmap(c->r, c->bytes);
	*c = (struct tt_code_ranges){ 0 };
}
