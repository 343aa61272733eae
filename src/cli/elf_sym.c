/*
 * elf_sym.c - see elf_sym.h. Read with elfutils' libelf (the command links it already).
 */
#include <fcntl.h>
#include <gelf.h>
#include <string.h>
#include <unistd.h>

#include "cli/elf_sym.h"

/* The symbol in one symbol table: a definition (not SHN_UNDEF); a default version ("@@",
 * not hidden in .gnu.version) wins over an older one when both are there. */
static bool in_table(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh, const char *name, Elf_Scn *ver,
		     uint64_t *value)
{
	Elf_Data *d = elf_getdata(scn, NULL), *vd = ver ? elf_getdata(ver, NULL) : NULL;
	size_t i, n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
	bool found = false;

	for (i = 0; d && i < n; i++) {
		GElf_Sym s;
		GElf_Versym v = 0;
		const char *sn;

		if (!gelf_getsym(d, (int)i, &s) || s.st_shndx == SHN_UNDEF)
			continue;
		sn = elf_strptr(e, sh->sh_link, s.st_name);
		if (!sn || strcmp(sn, name) != 0)
			continue;
		if (vd)
			gelf_getversym(vd, (int)i, &v);
		if (!found || !(v & 0x8000)) { /* 0x8000: a hidden (non-default) version */
			*value = s.st_value;
			found = true;
		}
	}
	return found;
}

bool tt_elf_sym_value(const char *path, const char *name, uint64_t *value, uint64_t *first_load)
{
	Elf_Scn *scn = NULL, *dynsym = NULL, *symtab = NULL, *ver = NULL;
	GElf_Shdr dsh, ssh, sh;
	bool found = false;
	size_t i, nph;
	Elf *e;
	int fd;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF || elf_getphdrnum(e, &nph) != 0)
		goto out;
	*first_load = UINT64_MAX;
	for (i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    ph.p_vaddr < *first_load)
			*first_load = ph.p_vaddr & ~(uint64_t)4095;
	}
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_DYNSYM) {
			dynsym = scn;
			dsh = sh;
		} else if (sh.sh_type == SHT_SYMTAB) {
			symtab = scn;
			ssh = sh;
		} else if (sh.sh_type == SHT_GNU_versym) {
			ver = scn;
		}
	}
	if (*first_load == UINT64_MAX)
		goto out;
	found = (dynsym && in_table(e, dynsym, &dsh, name, ver, value)) ||
		(symtab && in_table(e, symtab, &ssh, name, NULL, value));
out:
	if (e)
		elf_end(e);
	close(fd);
	return found;
}
