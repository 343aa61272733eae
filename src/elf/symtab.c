/*
 * symtab.c - see symtab.h. The file is mapped read-only for the look-up and unmapped after:
 * names are resolved at start-up and after a dlopen, not on any hot path.
 */
#include <elf.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf/symtab.h"

/* Every defined symbol of the .symtab that names code or data (functions only with
 * `functions`) to fn. */
static int walk(const unsigned char *map, size_t size, bool functions,
		int (*fn)(const char *name, uint64_t value, uint64_t size, void *ctx), void *ctx)
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

			int type = ELF64_ST_TYPE(sym[k].st_info);

			if ((functions ? type != STT_FUNC
				       : type == STT_SECTION || type == STT_FILE ||
						 type == STT_TLS) ||
			    sym[k].st_shndx == SHN_UNDEF || sym[k].st_shndx == SHN_ABS ||
			    !sym[k].st_value || sym[k].st_name >= strs->sh_size ||
			    !memchr(sname, 0, strs->sh_size - sym[k].st_name))
				continue;
			seen++;
			if (fn(sname, sym[k].st_value, sym[k].st_size, ctx))
				return seen;
		}
	}
	return seen;
}

int tt_symtab_each(const unsigned char *map, size_t size,
		   int (*fn)(const char *name, uint64_t value, uint64_t size, void *ctx), void *ctx)
{
	return walk(map, size, true, fn, ctx);
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

/* tt_symtab_each_symbol's walk of the mapped file. */
struct every {
	int (*fn)(const char *name, uint64_t value, uint64_t size, void *ctx);
	void *ctx;
};

static int every_in(const unsigned char *map, size_t size, void *arg)
{
	struct every *e = arg;

	return walk(map, size, false, e->fn, e->ctx);
}

int tt_symtab_each_symbol(const char *path,
			  int (*fn)(const char *name, uint64_t value, uint64_t size, void *ctx),
			  void *ctx)
{
	struct every e = { fn, ctx };

	return with_file(path, every_in, &e);
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
