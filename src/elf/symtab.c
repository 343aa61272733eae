/*
 * symtab.c - see symtab.h. The file is mapped read-only for the look-up and unmapped after:
 * names are resolved at start-up and after a dlopen, not on any hot path.
 */
#include <elf.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf/symtab.h"

/* Which symbols a walk passes on, and to what. */
struct walker {
	bool functions; /* only STT_FUNC; else every symbol of code or data */
	int (*fn)(const Elf64_Sym *sym, const char *name, void *ctx);
	void *ctx;
};

static bool wanted(const Elf64_Sym *sym, bool functions)
{
	int type = ELF64_ST_TYPE(sym->st_info);

	if (functions)
		return type == STT_FUNC;
	return type != STT_SECTION && type != STT_FILE && type != STT_TLS;
}

/* Every defined symbol of the .symtab that w wants to w->fn. */
static int walk(const unsigned char *map, size_t size, const struct walker *w)
{
	const Elf64_Ehdr *eh = (const void *)map;
	const Elf64_Shdr *sh;
	int seen = -1;
	unsigned int i;

	if (size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shoff == 0 ||
	    eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(*sh) > size)
		return -1;
	sh = (const void *)(map + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *strs;
		const Elf64_Sym *sym;
		size_t n, k;

		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum)
			continue;
		strs = &sh[sh[i].sh_link];
		if (sh[i].sh_offset + sh[i].sh_size > size ||
		    strs->sh_offset + strs->sh_size > size)
			continue;
		sym = (const void *)(map + sh[i].sh_offset);
		n = sh[i].sh_size / sizeof(*sym);
		seen = 0;
		for (k = 0; k < n; k++) {
			const char *sname = (const char *)map + strs->sh_offset + sym[k].st_name;

			if (!wanted(&sym[k], w->functions) || sym[k].st_shndx == SHN_UNDEF ||
			    sym[k].st_shndx == SHN_ABS || !sym[k].st_value ||
			    sym[k].st_name >= strs->sh_size ||
			    !memchr(sname, 0, strs->sh_size - sym[k].st_name))
				continue;
			seen++;
			if (w->fn(&sym[k], sname, w->ctx))
				return seen;
		}
	}
	return seen;
}

/* The callers' callbacks, which take a symbol's name, value and size. */
struct named_fn {
	int (*fn)(const char *name, uint64_t value, uint64_t size, void *ctx);
	void *ctx;
};

static int call_named(const Elf64_Sym *sym, const char *name, void *arg)
{
	struct named_fn *f = arg;

	return f->fn(name, sym->st_value, sym->st_size, f->ctx);
}

int tt_symtab_each(const unsigned char *map, size_t size,
		   int (*fn)(const char *name, uint64_t value, uint64_t size, void *ctx), void *ctx)
{
	struct named_fn f = { fn, ctx };
	struct walker w = { true, call_named, &f };

	return walk(map, size, &w);
}

/* tt_symtab_find's filter in front of the caller's callback. */
struct by_name {
	const char *name;
	bool glob;
	int (*fn)(const char *name, uint64_t value, uint64_t size, void *ctx);
	void *ctx;
	int found;
};

static int match(const char *name, uint64_t value, uint64_t size, void *arg)
{
	struct by_name *b = arg;

	if (b->name && (b->glob ? fnmatch(b->name, name, 0) != 0 : strcmp(name, b->name) != 0))
		return 0;
	b->found++;
	return b->fn(name, value, size, b->ctx);
}

/* The file at path mapped read-only for fn(map, size, ctx), then unmapped: fn's result, or
 * -1 when the file cannot be read. */
static int with_file(const char *path, int (*fn)(const unsigned char *map, size_t size, void *ctx),
		     void *ctx)
{
	struct stat st;
	void *map;
	int fd, ret = -1;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) == 0 && st.st_size > 0) {
		map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map != MAP_FAILED) {
			ret = fn(map, (size_t)st.st_size, ctx);
			munmap(map, (size_t)st.st_size);
		}
	}
	close(fd);
	return ret;
}

/* A walk of every symbol of the mapped file (w's). */
static int every_in(const unsigned char *map, size_t size, void *arg)
{
	return walk(map, size, arg);
}

int tt_symtab_each_symbol(const char *path,
			  int (*fn)(const char *name, uint64_t value, uint64_t size, void *ctx),
			  void *ctx)
{
	struct named_fn f = { fn, ctx };
	struct walker w = { false, call_named, &f };

	return with_file(path, every_in, &w);
}

/* The callers' callbacks of tt_symtab_each_start. */
struct start_fn {
	int (*fn)(uint64_t value, uint64_t size, bool code, void *ctx);
	void *ctx;
};

static int call_start(const Elf64_Sym *sym, const char *name, void *arg)
{
	struct start_fn *f = arg;
	int type = ELF64_ST_TYPE(sym->st_info);

	(void)name;
	return f->fn(sym->st_value, sym->st_size, type == STT_FUNC || type == STT_GNU_IFUNC,
		     f->ctx);
}

int tt_symtab_each_start(const char *path,
			 int (*fn)(uint64_t value, uint64_t size, bool code, void *ctx), void *ctx)
{
	struct start_fn f = { fn, ctx };
	struct walker w = { false, call_start, &f };

	return with_file(path, every_in, &w);
}

static int find_in(const unsigned char *map, size_t size, void *arg)
{
	struct by_name *b = arg;

	return tt_symtab_each(map, size, match, b) < 0 ? -1 : b->found;
}

int tt_symtab_find(const char *path, const char *name, bool glob,
		   int (*fn)(const char *name, uint64_t value, uint64_t size, void *ctx), void *ctx)
{
	struct by_name b = { name, glob, fn, ctx, 0 };

	return with_file(path, find_in, &b);
}

/* tt_symtab_absence's question and answer. */
struct absence {
	const char *name;
	size_t len;
	char *clone;
	size_t size;
	bool cloned;
};

/* A function symbol name.SUFFIX: a copy the compiler made (constprop, isra, part, cold). */
static int clone_of(const char *sym, uint64_t value, uint64_t size, void *arg)
{
	struct absence *a = arg;

	(void)value;
	(void)size;
	if (strncmp(sym, a->name, a->len) != 0 || sym[a->len] != '.')
		return 0;
	snprintf(a->clone, a->size, "%s", sym);
	a->cloned = true;
	return 1;
}

static bool is_ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_';
}

/* name as a whole NUL-terminated string in s[0..n): a DWARF name (.debug_str holds them one
 * after another; .debug_info inline after an attribute's bytes). */
static bool holds_name(const unsigned char *s, size_t n, const char *name, size_t len)
{
	const unsigned char *p = s, *end = s + n;

	while ((p = memmem(p, (size_t)(end - p), name, len + 1)) != NULL) {
		if (p == s || !is_ident((char)p[-1]))
			return true;
		p++;
	}
	return false;
}

/* The name in the uncompressed .debug_str or .debug_info of the mapped file. */
static bool in_debug_info(const unsigned char *map, size_t size, const char *name, size_t len)
{
	const Elf64_Ehdr *eh = (const void *)map;
	const Elf64_Shdr *sh, *names;
	unsigned int i;

	if (eh->e_shstrndx >= eh->e_shnum)
		return false;
	sh = (const void *)(map + eh->e_shoff);
	names = &sh[eh->e_shstrndx];
	if (names->sh_offset + names->sh_size > size)
		return false;
	for (i = 0; i < eh->e_shnum; i++) {
		const char *sname = (const char *)map + names->sh_offset + sh[i].sh_name;

		if (sh[i].sh_name >= names->sh_size || sh[i].sh_type == SHT_NOBITS ||
		    (sh[i].sh_flags & SHF_COMPRESSED) || sh[i].sh_offset + sh[i].sh_size > size ||
		    !memchr(sname, 0, names->sh_size - sh[i].sh_name))
			continue;
		if ((!strcmp(sname, ".debug_str") || !strcmp(sname, ".debug_info")) &&
		    holds_name(map + sh[i].sh_offset, sh[i].sh_size, name, len))
			return true;
	}
	return false;
}

static int absence_in(const unsigned char *map, size_t size, void *arg)
{
	struct absence *a = arg;

	if (tt_symtab_each(map, size, clone_of, a) < 0)
		return TT_ABSENT_STRIPPED;
	if (a->cloned)
		return TT_ABSENT_CLONES;
	return in_debug_info(map, size, a->name, a->len) ? TT_ABSENT_INLINED : TT_ABSENT_UNKNOWN;
}

enum tt_symtab_absence tt_symtab_absence(const char *path, const char *name, char *clone,
					 size_t size)
{
	struct absence a = { name, strlen(name), clone, size, false };
	int r = with_file(path, absence_in, &a);

	return r < 0 ? TT_ABSENT_UNKNOWN : (enum tt_symtab_absence)r;
}
