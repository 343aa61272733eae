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

#include "base/basename.h"
#include "elf/elfdyn.h"
#include "elf/symbolize.h"
#include "elf/symtab.h"

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

struct containing {
	uint64_t off;
	const char *name;
	uint64_t start;
};

static int contains(const char *name, uint64_t value, uint64_t size, void *arg)
{
	struct containing *c = arg;

	if (c->off < value || c->off >= value + size)
		return 0;
	c->name = name;
	c->start = value;
	return 1;
}

/* The FUNC symbol of the loaded file containing offset `off` (file virtual address). */
static const char *symtab_find(uint64_t off, uint64_t *start)
{
	struct containing c = { off, NULL, 0 };

	tt_symtab_each(file.map, file.size, contains, &c);
	*start = c.start;
	return c.name;
}

static const char *program_path(void)
{
	static char exe[4096];

	if (!exe[0] && readlink("/proc/self/exe", exe, sizeof(exe) - 1) <= 0)
		snprintf(exe, sizeof(exe), "/proc/self/exe");
	return exe;
}

struct holder {
	uint64_t addr;
	struct tt_code_object *out;
};

static int holds(struct tt_elf *o, void *arg)
{
	static const char hex[] = "0123456789abcdef";
	struct holder *h = arg;
	const uint8_t *id;
	size_t len = 0, i;

	if (!tt_elf_in_exec(o, (uintptr_t)h->addr))
		return 0;
	snprintf(h->out->path, sizeof(h->out->path), "%s", o->name[0] ? o->name : program_path());
	h->out->bias = o->base;
	id = tt_elf_build_id(o, &len);
	if (!id || len > (sizeof(h->out->build_id) - 1) / 2)
		len = 0;
	for (i = 0; i < len; i++) {
		h->out->build_id[2 * i] = hex[id[i] >> 4];
		h->out->build_id[2 * i + 1] = hex[id[i] & 15];
	}
	h->out->build_id[2 * len] = '\0';
	return 1;
}

bool tt_symbolize_object(uint64_t addr, struct tt_code_object *out)
{
	struct holder h = { addr, out };

	return tt_elf_foreach(holds, &h) != 0;
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
	if (!object[0]) /* the program itself */
		object = program_path();
	if (load(object)) {
		/* Shared objects and PIE link at 0, so the file's addresses are offsets from the
		 * load base; a fixed-address program (ET_EXEC) uses run-time addresses. */
		vaddr = ((const Elf64_Ehdr *)file.map)->e_type == ET_EXEC
				? addr
				: addr - (uint64_t)info.dli_fbase;
		name = symtab_find(vaddr, &start);
		if (name) {
			snprintf(out, size, "%s+0x%llx (%s)", name,
				 (unsigned long long)(vaddr - start), tt_base_name(object));
			return;
		}
	}
	if (info.dli_sname && info.dli_saddr)
		snprintf(out, size, "%s+0x%llx (%s)", info.dli_sname,
			 (unsigned long long)(addr - (uint64_t)info.dli_saddr),
			 tt_base_name(object));
	else
		snprintf(out, size, "%s+0x%llx", tt_base_name(object),
			 (unsigned long long)(addr - (uint64_t)info.dli_fbase));
}
