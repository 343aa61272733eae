/*
 * elfdyn.h - reading a loaded object's dynamic section: its symbols, versions, relocations
 * and RELRO range, straight from memory (what dl_iterate_phdr shows), without the dl*
 * functions: they take the loader lock, set dlerror state the program may read, and answer
 * differently depending on who calls them.
 */
#ifndef TT_ELFDYN_H
#define TT_ELFDYN_H

#include <elf.h>
#include <link.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tt_elf {
	const char *name; /* file name as the loader has it ("" for the program) */
	uintptr_t base;	  /* load bias */
	const ElfW(Phdr) *phdr;
	size_t phnum;
	const ElfW(Sym) *symtab;
	const char *strtab;
	size_t strsz;
	size_t nsyms;		      /* from the hash table */
	const uint32_t *gnu_hash;     /* DT_GNU_HASH, or NULL: what lookups go through */
	const uint32_t *sysv_hash;    /* DT_HASH, or NULL: when there is no GNU one */
	const ElfW(Half) *versym;     /* may be NULL */
	const ElfW(Verdef) *verdef;   /* may be NULL */
	const ElfW(Verneed) *verneed; /* may be NULL */
	const ElfW(Rela) *rela;	      /* DT_RELA: GLOB_DAT lives here */
	size_t nrela;
	const ElfW(Rela) *jmprel; /* DT_JMPREL: JUMP_SLOT */
	size_t njmprel;
	uintptr_t relro_start, relro_end; /* PT_GNU_RELRO, 0 when none */
	unsigned int ns; /* link-map namespace: 0 the base one, k the k-th dlmopen made */
};

/* The exported definition of name in o: a function (FUNC or IFUNC) or any other defined
 * symbol (check its type). version NULL: the default version or an unversioned symbol;
 * otherwise the version of that name. Returns the symbol or NULL. Through the object's hash
 * table (a few probes whatever its size), as the loader looks names up. */
const ElfW(Sym) *tt_elf_lookup(const struct tt_elf *o, const char *name, const char *version);

/* Name of symbol index i of o. */
const char *tt_elf_sym_name(const struct tt_elf *o, size_t i);

/* Version name of the definition at symbol index i (NULL when unversioned). */
const char *tt_elf_def_version(const struct tt_elf *o, size_t i);

/* Version an undefined reference at symbol index i requires (NULL when none). */
const char *tt_elf_ref_version(const struct tt_elf *o, size_t i);

/* Run-time address of a defined symbol: for an IFUNC, the implementation its resolver
 * picks for this CPU (the resolver is called). */
void *tt_elf_sym_addr(const struct tt_elf *o, const ElfW(Sym) *sym);

/* The executable PT_LOAD segment of o that holds addr, or NULL. */
const ElfW(Phdr) *tt_elf_exec_phdr(const struct tt_elf *o, uintptr_t addr);

/* A segment's PROT_* as its flags give them. */
int tt_elf_phdr_prot(const ElfW(Phdr) *p);

/* True if addr lies in one of o's executable PT_LOAD segments. */
bool tt_elf_in_exec(const struct tt_elf *o, uintptr_t addr);

/* The name reports give the program, whose loader entry has an empty file name. */
#define TT_ELF_PROGRAM "(program)"

/* o's file name as the loader has it, TT_ELF_PROGRAM for the program. */
static inline const char *tt_elf_name(const struct tt_elf *o)
{
	return o->name[0] ? o->name : TT_ELF_PROGRAM;
}

/* The descriptor of o's first note of that owner ("GNU", "Go") and type, *len bytes, or NULL:
 * read from its PT_NOTE segments in memory. */
const uint8_t *tt_elf_note(const struct tt_elf *o, const char *owner, uint32_t type, size_t *len);

/* o's GNU build ID (the bytes of its NT_GNU_BUILD_ID note, *len of them), or NULL. */
const uint8_t *tt_elf_build_id(const struct tt_elf *o, size_t *len);

/* True if o is the shim itself (the object holding this code). */
bool tt_elf_is_shim(const struct tt_elf *o);

/* First byte 0xc3 (`ret`) in o's executable segments, or NULL. */
void *tt_elf_find_ret(const struct tt_elf *o);

/* Iterate loaded objects in load order, the base namespace's, then those of each namespace
 * dlmopen made (o->ns): fn(o, ctx) returns nonzero to stop (and that value is returned).
 * Objects without a dynamic section are skipped. Through libc's own dl_iterate_phdr,
 * whatever a sanitizer interposes: fn runs under the loader's dl_load_write_lock, so it must
 * not call dlopen, dlclose, dlsym or dladdr. */
int tt_elf_foreach(int (*fn)(struct tt_elf *o, void *ctx), void *ctx);

/* True if an object of that file name (as the loader has it; "(program)" for the program)
 * is loaded at that load bias. */
bool tt_elf_object_loaded(const char *name, uintptr_t base);

/* True if o is the kernel's vDSO: its functions (clock_gettime...) are what libc calls
 * internally, never what the program's calls reach; libc's exported ones are. */
bool tt_elf_is_vdso(const struct tt_elf *o);

/* True if the path names the dynamic loader (ld-linux*, ld64.so*). */
bool tt_elf_is_loader(const char *path);

#endif /* TT_ELFDYN_H */
