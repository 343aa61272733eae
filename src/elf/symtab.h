/*
 * symtab.h - the functions of an object's file that its dynamic symbols do not list: static
 * and hidden functions, and a program's own functions when it was not linked with -rdynamic.
 * They are in the file's .symtab, unless the file is stripped. And every symbol, code or data.
 */
#ifndef TT_SYMTAB_H
#define TT_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* fn(name, value, size, ctx) for every defined function symbol of the ELF file image at map
 * (size bytes); fn returns nonzero to stop. Returns how many were seen, or -1 when the image
 * is not a 64-bit ELF file with a .symtab. */
int tt_symtab_each(const unsigned char *map, size_t size,
		   int (*fn)(const char *name, uint64_t value, uint64_t size, void *ctx),
		   void *ctx);

/* fn(symbol name, value, size, ctx) for every defined function symbol of the file at path
 * whose name is `name` (glob: matches the fnmatch pattern `name`; NULL: every one); fn
 * returns nonzero to stop. Returns how many matched, or -1 when the file cannot be read or has no .symtab. */
int tt_symtab_find(const char *path, const char *name, bool glob,
		   int (*fn)(const char *name, uint64_t value, uint64_t size, void *ctx),
		   void *ctx);

/* Every defined symbol of the file at path's .symtab that names code or data (any binding)
 * to fn, until fn returns non-zero; returns how many were seen, -1 when the file cannot be
 * read or has no .symtab. */
int tt_symtab_each_symbol(const char *path,
			  int (*fn)(const char *name, uint64_t value, uint64_t size, void *ctx),
			  void *ctx);

/* The same walk as tt_symtab_each_symbol, telling fn whether each symbol names code (a
 * function: its value is where an instruction starts) or not (data, a label: only where
 * something else begins). */
int tt_symtab_each_start(const char *path,
			 int (*fn)(uint64_t value, uint64_t size, bool code, void *ctx), void *ctx);

/* Why a function name found in no loaded object may be missing from the file at path. */
enum tt_symtab_absence {
	TT_ABSENT_UNKNOWN,  /* nothing here says why */
	TT_ABSENT_STRIPPED, /* no .symtab: its functions that are not exported have no names */
	TT_ABSENT_INLINED,  /* named in the debug information, no code of that name: inlined */
	TT_ABSENT_CLONES,   /* only the compiler's copies: name.constprop.0, name.part.0 ... */
};			    /* in order: a later one says more */

/* The likeliest reason the file at path has no function `name`, most telling first: its
 * clones (the first one's name into clone, size bytes), then the name in .debug_str or
 * .debug_info (inlined into its callers), then no .symtab at all. */
enum tt_symtab_absence tt_symtab_absence(const char *path, const char *name, char *clone,
					 size_t size);

#endif /* TT_SYMTAB_H */
