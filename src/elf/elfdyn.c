/*
 * elfdyn.c - see elfdyn.h. Runs at start-up and after dlopen, never on the hot path.
 *
 * Pointers in the dynamic section: glibc rewrites them to run-time addresses when it
 * relocates an object, but not in every object (the vDSO, some loaders keep offsets), so a
 * value below the load bias is taken as an offset.
 *
 * No libc string functions here: the dl* wrappers use this file before anything else has
 * started, and a sanitizer runtime preloaded ahead of us calls dlsym from inside its own
 * initialisation, while its interceptors of strcmp/memchr/memset still point nowhere. The
 * audit in `make check` keeps it that way.
 */
#include "elf/elfdyn.h"

#include <sys/mman.h>

static bool same(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

static bool starts(const char *s, const char *prefix)
{
	while (*prefix && *s == *prefix)
		s++, prefix++;
	return !*prefix;
}

static const void *dyn_ptr(const struct tt_elf *o, ElfW(Addr) v)
{
	return (const void *)(v < o->base ? o->base + v : v);
}

/* Number of symbols from DT_GNU_HASH: one past the highest index any chain reaches. */
static size_t gnu_hash_nsyms(const uint32_t *h)
{
	uint32_t nbuckets = h[0], symoffset = h[1], bloom_size = h[2];
	const uint32_t *buckets = h + 4 + bloom_size * (sizeof(ElfW(Addr)) / 4);
	const uint32_t *chain = buckets + nbuckets;
	uint32_t i, last = 0;

	for (i = 0; i < nbuckets; i++)
		if (buckets[i] > last)
			last = buckets[i];
	if (last < symoffset)
		return symoffset;
	while (!(chain[last - symoffset] & 1))
		last++;
	return (size_t)last + 1;
}

/* Fill o from a dl_iterate_phdr entry. Returns 0, or -1 when it has no usable dynamic
 * section (the vDSO, a static program). */
static int tt_elf_open(const struct dl_phdr_info *info, struct tt_elf *o)
{
	const ElfW(Dyn) *dyn = NULL;
	size_t relasz = 0, pltrelsz = 0, i;

	*o = (struct tt_elf){ 0 };
	o->name = info->dlpi_name ? info->dlpi_name : "";
	o->base = info->dlpi_addr;
	o->phdr = info->dlpi_phdr;
	o->phnum = info->dlpi_phnum;
	for (i = 0; i < o->phnum; i++) {
		if (o->phdr[i].p_type == PT_DYNAMIC)
			dyn = (const ElfW(Dyn) *)(o->base + o->phdr[i].p_vaddr);
		if (o->phdr[i].p_type == PT_GNU_RELRO) {
			o->relro_start = o->base + o->phdr[i].p_vaddr;
			o->relro_end = o->relro_start + o->phdr[i].p_memsz;
		}
	}
	if (!dyn)
		return -1;
	for (; dyn->d_tag != DT_NULL; dyn++) {
		switch (dyn->d_tag) {
		case DT_SYMTAB: o->symtab = dyn_ptr(o, dyn->d_un.d_ptr); break;
		case DT_STRTAB: o->strtab = dyn_ptr(o, dyn->d_un.d_ptr); break;
		case DT_STRSZ: o->strsz = dyn->d_un.d_val; break;
		case DT_GNU_HASH: o->gnu_hash = dyn_ptr(o, dyn->d_un.d_ptr); break;
		case DT_HASH: o->sysv_hash = dyn_ptr(o, dyn->d_un.d_ptr); break;
		case DT_VERSYM: o->versym = dyn_ptr(o, dyn->d_un.d_ptr); break;
		case DT_VERDEF: o->verdef = dyn_ptr(o, dyn->d_un.d_ptr); break;
		case DT_VERNEED: o->verneed = dyn_ptr(o, dyn->d_un.d_ptr); break;
		case DT_RELA: o->rela = dyn_ptr(o, dyn->d_un.d_ptr); break;
		case DT_RELASZ: relasz = dyn->d_un.d_val; break;
		case DT_JMPREL: o->jmprel = dyn_ptr(o, dyn->d_un.d_ptr); break;
		case DT_PLTRELSZ: pltrelsz = dyn->d_un.d_val; break;
		default: break;
		}
	}
	if (!o->symtab || !o->strtab)
		return -1;
	if (o->sysv_hash)
		o->nsyms = o->sysv_hash[1];
	else if (o->gnu_hash)
		o->nsyms = gnu_hash_nsyms(o->gnu_hash);
	o->nrela = o->rela ? relasz / sizeof(ElfW(Rela)) : 0;
	o->njmprel = o->jmprel ? pltrelsz / sizeof(ElfW(Rela)) : 0;
	return 0;
}

const char *tt_elf_sym_name(const struct tt_elf *o, size_t i)
{
	ElfW(Word) off = o->symtab[i].st_name;

	return off < o->strsz ? o->strtab + off : "";
}

const char *tt_elf_def_version(const struct tt_elf *o, size_t i)
{
	const ElfW(Verdef) *vd = o->verdef;
	ElfW(Half) ndx;

	if (!o->versym || !vd)
		return NULL;
	ndx = o->versym[i] & 0x7fff;
	if (ndx <= 1)
		return NULL;
	for (;;) {
		if (vd->vd_ndx == ndx) {
			const ElfW(Verdaux) *aux = (const void *)((const char *)vd + vd->vd_aux);

			return o->strtab + aux->vda_name;
		}
		if (!vd->vd_next)
			return NULL;
		vd = (const void *)((const char *)vd + vd->vd_next);
	}
}

const char *tt_elf_ref_version(const struct tt_elf *o, size_t i)
{
	const ElfW(Verneed) *vn = o->verneed;
	ElfW(Half) ndx;

	if (!o->versym || !vn)
		return NULL;
	ndx = o->versym[i] & 0x7fff;
	if (ndx <= 1)
		return NULL;
	for (;;) {
		const ElfW(Vernaux) *aux = (const void *)((const char *)vn + vn->vn_aux);
		ElfW(Half) k;

		for (k = 0; k < vn->vn_cnt; k++) {
			if (aux->vna_other == ndx)
				return o->strtab + aux->vna_name;
			aux = (const void *)((const char *)aux + aux->vna_next);
		}
		if (!vn->vn_next)
			return NULL;
		vn = (const void *)((const char *)vn + vn->vn_next);
	}
}

/* Symbol i of o, if it is the exported definition of name asked for (see tt_elf_lookup). */
static bool is_wanted(const struct tt_elf *o, size_t i, const char *name, const char *version)
{
	const ElfW(Sym) *s = &o->symtab[i];
	unsigned char bind = ELF64_ST_BIND(s->st_info);
	const char *v;

	if (s->st_shndx == SHN_UNDEF ||
	    (bind != STB_GLOBAL && bind != STB_WEAK && bind != STB_GNU_UNIQUE))
		return false;
	if (!same(tt_elf_sym_name(o, i), name))
		return false;
	if (version) {
		v = tt_elf_def_version(o, i);
		return v && same(v, version);
	}
	if (o->versym && (o->versym[i] & 0x8000))
		return false;				   /* hidden: not the default version */
	return !o->versym || (o->versym[i] & 0x7fff) != 0; /* 0: local */
}

static uint32_t gnu_hash_of(const char *name)
{
	uint32_t h = 5381;

	for (; *name; name++)
		h = h * 33 + (uint8_t)*name;
	return h;
}

static uint32_t sysv_hash_of(const char *name)
{
	uint32_t h = 0, g;

	for (; *name; name++) {
		h = (h << 4) + (uint8_t)*name;
		g = h & 0xf0000000u;
		if (g)
			h ^= g >> 24;
		h &= ~g;
	}
	return h;
}

/* DT_GNU_HASH: the Bloom filter says "surely not" for most names absent from o; else the
 * chain of the name's bucket, whose entries carry the hashes of their symbols. */
static const ElfW(Sym) *gnu_lookup(const struct tt_elf *o, const char *name, const char *version)
{
	const uint32_t *h = o->gnu_hash;
	uint32_t nbuckets = h[0], symoffset = h[1], bloom_size = h[2], shift = h[3];
	const ElfW(Addr) *bloom = (const ElfW(Addr) *)(const void *)(h + 4);
	const uint32_t *buckets = h + 4 + bloom_size * (sizeof(ElfW(Addr)) / 4);
	const uint32_t *chain = buckets + nbuckets;
	const unsigned int bits = sizeof(ElfW(Addr)) * 8;
	uint32_t hash = gnu_hash_of(name), i;
	ElfW(Addr) word;

	if (!nbuckets || !bloom_size)
		return NULL;
	word = bloom[(hash / bits) & (bloom_size - 1)];
	if (!((word >> (hash % bits)) & (word >> ((hash >> shift) % bits)) & 1))
		return NULL;
	i = buckets[hash % nbuckets];
	if (i < symoffset)
		return NULL;
	for (;; i++) {
		uint32_t ch = chain[i - symoffset];

		if ((ch | 1) == (hash | 1) && is_wanted(o, i, name, version))
			return &o->symtab[i];
		if (ch & 1)
			return NULL;
	}
}

/* DT_HASH: nbucket, nchain, buckets, chains. */
static const ElfW(Sym) *sysv_lookup(const struct tt_elf *o, const char *name, const char *version)
{
	const uint32_t *h = o->sysv_hash;
	uint32_t nbucket = h[0], nchain = h[1], i, steps = 0;

	if (!nbucket)
		return NULL;
	for (i = h[2 + sysv_hash_of(name) % nbucket]; i && i < nchain && steps < nchain;
	     i = h[2 + nbucket + i], steps++)
		if (is_wanted(o, i, name, version))
			return &o->symtab[i];
	return NULL;
}

const ElfW(Sym) *tt_elf_lookup(const struct tt_elf *o, const char *name, const char *version)
{
	size_t i;

	if (o->gnu_hash)
		return gnu_lookup(o, name, version);
	if (o->sysv_hash)
		return sysv_lookup(o, name, version);
	for (i = 1; i < o->nsyms; i++)
		if (is_wanted(o, i, name, version))
			return &o->symtab[i];
	return NULL;
}

void *tt_elf_sym_addr(const struct tt_elf *o, const ElfW(Sym) *sym)
{
	uintptr_t addr = o->base + sym->st_value;

	if (ELF64_ST_TYPE(sym->st_info) == STT_GNU_IFUNC)
		return ((void *(*)(void))addr)();
	return (void *)addr;
}

/* Whether the note's owner field (namesz bytes) spells owner, NUL-padded: the Go linker
 * writes "Go\0\0" with namesz 4. No libc here. */
static bool owner_is(const uint8_t *field, uint32_t namesz, const char *owner)
{
	uint32_t i;

	for (i = 0; i < namesz && owner[i] && field[i] == (uint8_t)owner[i]; i++)
		;
	if (owner[i] || i == namesz)
		return false;
	for (; i < namesz; i++)
		if (field[i])
			return false;
	return true;
}

const uint8_t *tt_elf_note(const struct tt_elf *o, const char *owner, uint32_t type, size_t *len)
{
	size_t i, off;

	for (i = 0; i < o->phnum; i++) {
		const ElfW(Phdr) *ph = &o->phdr[i];
		const uint8_t *p = (const uint8_t *)(o->base + ph->p_vaddr);

		if (ph->p_type != PT_NOTE)
			continue;
		for (off = 0; off + sizeof(ElfW(Nhdr)) <= ph->p_memsz;) {
			const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)(const void *)(p + off);
			size_t name = (n->n_namesz + 3) & ~(size_t)3,
			       desc = (n->n_descsz + 3) & ~(size_t)3;
			const uint8_t *d = p + off + sizeof(*n) + name;

			if (off + sizeof(*n) + name + desc > ph->p_memsz)
				break;
			if (n->n_type == type && n->n_descsz &&
			    owner_is(p + off + sizeof(*n), n->n_namesz, owner)) {
				*len = n->n_descsz;
				return d;
			}
			off += sizeof(*n) + name + desc;
		}
	}
	return NULL;
}

const uint8_t *tt_elf_build_id(const struct tt_elf *o, size_t *len)
{
	return tt_elf_note(o, "GNU", NT_GNU_BUILD_ID, len);
}

bool tt_elf_is_shim(const struct tt_elf *o)
{
	return tt_elf_in_exec(o, (uintptr_t)&tt_elf_is_shim);
}

const ElfW(Phdr) *tt_elf_exec_phdr(const struct tt_elf *o, uintptr_t addr)
{
	size_t i;

	for (i = 0; i < o->phnum; i++) {
		const ElfW(Phdr) *p = &o->phdr[i];

		if (p->p_type == PT_LOAD && (p->p_flags & PF_X) && addr >= o->base + p->p_vaddr &&
		    addr < o->base + p->p_vaddr + p->p_memsz)
			return p;
	}
	return NULL;
}

int tt_elf_phdr_prot(const ElfW(Phdr) *p)
{
	return (p->p_flags & PF_R ? PROT_READ : 0) | (p->p_flags & PF_W ? PROT_WRITE : 0) |
	       (p->p_flags & PF_X ? PROT_EXEC : 0);
}

bool tt_elf_in_exec(const struct tt_elf *o, uintptr_t addr)
{
	return tt_elf_exec_phdr(o, addr) != NULL;
}

void *tt_elf_find_ret(const struct tt_elf *o)
{
	size_t i;

	for (i = 0; i < o->phnum; i++) {
		const ElfW(Phdr) *p = &o->phdr[i];
		const unsigned char *c = (const unsigned char *)(o->base + p->p_vaddr);
		const unsigned char *end = c + p->p_filesz;

		if (p->p_type != PT_LOAD || !(p->p_flags & PF_X) || !(p->p_flags & PF_R))
			continue;
		for (; c < end; c++)
			if (*c == 0xc3)
				return (void *)c;
	}
	return NULL;
}

struct foreach_ctx {
	int (*fn)(struct tt_elf *o, void *ctx);
	void *ctx;
};

static int foreach_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct foreach_ctx *c = arg;
	struct tt_elf o;

	(void)size;
	if (tt_elf_open(info, &o) < 0)
		return 0;
	return c->fn(&o, c->ctx);
}

typedef int (*iterate_fn)(int (*)(struct dl_phdr_info *, size_t, void *), void *);

/* The object of link map l as dl_iterate_phdr would show it, read from its ELF header at
 * its load bias (a shared library's first segment maps offset 0 at address 0): 0, or -1
 * for the program (bias 0) or no ELF header there. */
static int map_info(const struct link_map *l, struct dl_phdr_info *info)
{
	const ElfW(Ehdr) *eh = (const ElfW(Ehdr) *)l->l_addr;

	if (!l->l_addr || eh->e_ident[EI_MAG0] != ELFMAG0 || eh->e_ident[EI_MAG1] != ELFMAG1 ||
	    eh->e_ident[EI_MAG2] != ELFMAG2 || eh->e_ident[EI_MAG3] != ELFMAG3 ||
	    eh->e_phentsize != sizeof(ElfW(Phdr)))
		return -1;
	*info = (struct dl_phdr_info){ 0 };
	info->dlpi_addr = l->l_addr;
	info->dlpi_name = l->l_name;
	info->dlpi_phdr = (const ElfW(Phdr) *)(l->l_addr + eh->e_phoff);
	info->dlpi_phnum = eh->e_phnum;
	return 0;
}

/* The definition of `name` in the object of link map l; NULL if not found. */
static void *map_lookup(const struct link_map *l, const char *name)
{
	struct dl_phdr_info info;
	const ElfW(Sym) *s;
	struct tt_elf o;

	if (map_info(l, &info) < 0 || tt_elf_open(&info, &o) < 0 ||
	    !(s = tt_elf_lookup(&o, name, NULL)) || ELF64_ST_TYPE(s->st_info) != STT_FUNC)
		return NULL;
	return (void *)(o.base + s->st_value);
}

/*
 * libc's own dl_iterate_phdr, called directly: a sanitizer runtime preloaded ahead of us may
 * interpose one (ThreadSanitizer does) that crashes when called before that runtime is
 * initialised, and its initialisation calls dlsym, ours, which needs this. Found in libc's
 * dynamic symbols through the loader's list of objects, walked from its head to libc only:
 * those were loaded at start-up and are never unloaded, so the walk needs no lock. The bound
 * dl_iterate_phdr if libc is not found that way.
 */
static iterate_fn libc_iterate(void)
{
	static iterate_fn found;
	iterate_fn f = __atomic_load_n(&found, __ATOMIC_ACQUIRE);
	const struct link_map *l;
	const char *base, *p;
	unsigned int n = 0;

	if (f)
		return f;
	for (l = _r_debug.r_map; l && n < 256; l = l->l_next, n++) {
		for (base = p = l->l_name ? l->l_name : ""; *p; p++)
			if (*p == '/')
				base = p + 1;
		if (starts(base, "libc.so")) {
			f = (iterate_fn)map_lookup(l, "dl_iterate_phdr");
			break;
		}
	}
	if (!f)
		f = dl_iterate_phdr;
	__atomic_store_n(&found, f, __ATOMIC_RELEASE);
	return f;
}

/*
 * The namespaces dlmopen made: dl_iterate_phdr shows only its caller's (the base one, ours).
 * Since glibc 2.35, _r_debug heads a list of struct r_debug_extended, one per namespace, and
 * says so with r_version 2 once a second one exists; each r_map heads that namespace's
 * objects. Walked inside a dl_iterate_phdr callback: under the loader's dl_load_write_lock,
 * which every change to those lists (and to r_map) holds. Namespace k counts from 1.
 */
struct other_ns {
	struct foreach_ctx *c;
	int ret;
};

#define MAX_NAMESPACES 64 /* glibc's DL_NNS is 16: a bound against a list gone bad */
#define MAX_NS_OBJECTS 65536

static int other_ns_objects(const struct link_map *l, unsigned int ns, struct foreach_ctx *c)
{
	struct dl_phdr_info info;
	struct tt_elf o;
	unsigned int n;
	int ret;

	for (n = 0; l && n < MAX_NS_OBJECTS; l = l->l_next, n++) {
		if (map_info(l, &info) < 0 || tt_elf_open(&info, &o) < 0)
			continue;
		o.ns = ns;
		ret = c->fn(&o, c->ctx);
		if (ret)
			return ret;
	}
	return 0;
}

static int other_ns_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
	struct other_ns *x = arg;
	const struct r_debug_extended *r;
	unsigned int ns;

	(void)info;
	(void)size;
	if (_r_debug.r_version < 2)
		return 1;
	/* _r_debug is declared as the shorter struct r_debug: the compiler must not reason
	 * about its size when r_next, past it, is read. */
	__asm__("" : "=r"(r) : "0"(&_r_debug));
	for (r = r->r_next, ns = 1; r && ns <= MAX_NAMESPACES && !x->ret; r = r->r_next, ns++)
		x->ret = other_ns_objects(r->base.r_map, ns, x->c);
	return 1; /* the first callback walked them all */
}

int tt_elf_foreach(int (*fn)(struct tt_elf *o, void *ctx), void *ctx)
{
	struct foreach_ctx c = { fn, ctx };
	struct other_ns x = { &c, 0 };
	int ret = libc_iterate()(foreach_cb, &c);

	if (ret)
		return ret;
	libc_iterate()(other_ns_cb, &x);
	return x.ret;
}

bool tt_elf_is_vdso(const struct tt_elf *o)
{
	return starts(o->name, "linux-vdso") || starts(o->name, "linux-gate");
}

bool tt_elf_is_loader(const char *path)
{
	const char *base = path, *p;

	for (p = path; *p; p++)
		if (*p == '/')
			base = p + 1;
	return starts(base, "ld-linux") || starts(base, "ld64.so") || starts(base, "ld.so");
}

struct loaded_ctx {
	const char *name;
	uintptr_t base;
};

static int object_loaded_cb(struct tt_elf *o, void *arg)
{
	const struct loaded_ctx *c = arg;

	return o->base == c->base &&
	       (same(o->name, c->name) || (!o->name[0] && same(c->name, TT_ELF_PROGRAM)));
}

bool tt_elf_object_loaded(const char *name, uintptr_t base)
{
	struct loaded_ctx c = { name, base };

	return tt_elf_foreach(object_loaded_cb, &c) != 0;
}
