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

#include "symtab.h"

static int scan(const unsigned char *map, size_t size, const char *name, bool glob,
		int (*fn)(const char *, uint64_t, uint64_t, void *), void *ctx)
{
	const Elf64_Ehdr *eh = (const void *)map;
	const Elf64_Shdr *sh;
	int found = -1;
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
		if (sh[i].sh_offset + sh[i].sh_size > size || strs->sh_offset + strs->sh_size > size)
			continue;
		sym = (const void *)(map + sh[i].sh_offset);
		n = sh[i].sh_size / sizeof(*sym);
		found = 0;
		for (k = 0; k < n; k++) {
			const char *sname = (const char *)map + strs->sh_offset + sym[k].st_name;

			if (ELF64_ST_TYPE(sym[k].st_info) != STT_FUNC ||
			    sym[k].st_shndx == SHN_UNDEF || !sym[k].st_value ||
			    sym[k].st_name >= strs->sh_size ||
			    !memchr(sname, 0, strs->sh_size - sym[k].st_name))
				continue;
			if (glob ? fnmatch(name, sname, 0) != 0 : strcmp(sname, name) != 0)
				continue;
			found++;
			if (fn(sname, sym[k].st_value, sym[k].st_size, ctx))
				return found;
		}
	}
	return found;
}

int tt_symtab_find(const char *path, const char *name, bool glob,
		   int (*fn)(const char *name, uint64_t value, uint64_t size, void *ctx),
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
			ret = scan(map, (size_t)st.st_size, name, glob, fn, ctx);
			munmap(map, (size_t)st.st_size);
		}
	}
	close(fd);
	return ret;
}
