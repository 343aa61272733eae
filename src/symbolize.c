/*
 * symbolize.c - see symbolize.h.
 *
 * dladdr only knows exported symbols, so a call from main() of a program that was not linked
 * with -rdynamic would be named after the nearest exported function, wrongly. When dladdr's
 * symbol is not the one containing the address (or there is none), the object's file is
 * read: its .symtab, if the file is not stripped, has every function with its size. The last
 * file read is kept, since a report names many addresses of the same few objects.
 */
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basename.h"
#include "symbolize.h"

static struct {
	char path[4096];
	const unsigned char *map;
	size_t size;
} file;

static bool load(const char *path)
{
	struct stat st;
	int fd;

	if (file.map && strcmp(file.path, path) == 0)
		return true;
	if (file.map)
		munmap((void *)file.map, file.size);
	file.map = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) == 0 && st.st_size > (off_t)sizeof(Elf64_Ehdr)) {
		void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);

		if (m != MAP_FAILED) {
			file.map = m;
			file.size = (size_t)st.st_size;
			snprintf(file.path, sizeof(file.path), "%s", path);
		}
	}
	close(fd);
	return file.map != NULL;
}

/* The FUNC symbol of the loaded file containing offset `off` (file virtual address). */
static const char *symtab_find(uint64_t off, uint64_t *start)
{
	const Elf64_Ehdr *eh = (const void *)file.map;
	const Elf64_Shdr *sh;
	unsigned int i;

	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 || eh->e_shoff == 0 ||
	    eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(*sh) > file.size)
		return NULL;
	sh = (const void *)(file.map + eh->e_shoff);
	for (i = 0; i < eh->e_shnum; i++) {
		const Elf64_Sym *sym;
		const char *str;
		size_t n, k;

		if (sh[i].sh_type != SHT_SYMTAB || sh[i].sh_link >= eh->e_shnum ||
		    sh[i].sh_offset + sh[i].sh_size > file.size ||
		    sh[sh[i].sh_link].sh_offset + sh[sh[i].sh_link].sh_size > file.size)
			continue;
		sym = (const void *)(file.map + sh[i].sh_offset);
		str = (const char *)file.map + sh[sh[i].sh_link].sh_offset;
		n = sh[i].sh_size / sizeof(*sym);
		for (k = 0; k < n; k++) {
			if (ELF64_ST_TYPE(sym[k].st_info) != STT_FUNC || !sym[k].st_value ||
			    sym[k].st_name >= sh[sh[i].sh_link].sh_size)
				continue;
			if (off >= sym[k].st_value && off < sym[k].st_value + sym[k].st_size) {
				*start = sym[k].st_value;
				return str + sym[k].st_name;
			}
		}
	}
	return NULL;
}

void tt_symbolize(uint64_t addr, char *out, size_t size)
{
	Dl_info info;
	const char *object, *name;
	uint64_t start, vaddr;

	if (!dladdr((void *)addr, &info) || !info.dli_fname) {
		snprintf(out, size, "0x%llx", (unsigned long long)addr);
		return;
	}
	object = info.dli_fname;
	if (!object[0]) {	/* the program itself */
		static char exe[4096];

		if (!exe[0] && readlink("/proc/self/exe", exe, sizeof(exe) - 1) <= 0)
			snprintf(exe, sizeof(exe), "/proc/self/exe");
		object = exe;
	}
	if (load(object)) {
		/* Shared objects and PIE link at 0, so the file's addresses are offsets from the
		 * load base; a fixed-address program (ET_EXEC) uses run-time addresses. */
		vaddr = ((const Elf64_Ehdr *)file.map)->e_type == ET_EXEC
				? addr : addr - (uint64_t)info.dli_fbase;
		name = symtab_find(vaddr, &start);
		if (name) {
			snprintf(out, size, "%s+0x%llx (%s)", name,
				 (unsigned long long)(vaddr - start), tt_base_name(object));
			return;
		}
	}
	if (info.dli_sname && info.dli_saddr)
		snprintf(out, size, "%s+0x%llx (%s)", info.dli_sname,
			 (unsigned long long)(addr - (uint64_t)info.dli_saddr), tt_base_name(object));
	else
		snprintf(out, size, "%s+0x%llx", tt_base_name(object),
			 (unsigned long long)(addr - (uint64_t)info.dli_fbase));
}
