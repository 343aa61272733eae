/*
 * elf_sym.h - a symbol's value in an ELF file on disk (.dynsym, else .symtab): where
 * `tsctrace attach` finds libc's dlopen and environ, and the shim's tt_attach_* functions,
 * to add to the address the target mapped the file at.
 */
#ifndef TT_ELF_SYM_H
#define TT_ELF_SYM_H

#include <stdbool.h>
#include <stdint.h>

/* The value of the defined symbol `name` (any version; the default one when several) and
 * the lowest PT_LOAD's page-aligned address (a shared object's: 0), so that a symbol's
 * address in a process is its mapping at offset 0 + value - first_load. False when the
 * file cannot be read or does not define it. */
bool tt_elf_sym_value(const char *path, const char *name, uint64_t *value, uint64_t *first_load);

#endif /* TT_ELF_SYM_H */
