/*
 * symbolize.h - naming code addresses for the report: "func+0x4c (app)".
 */
#ifndef TT_SYMBOLIZE_H
#define TT_SYMBOLIZE_H

#include <stddef.h>
#include <stdint.h>

/*
 * Write a name for code address addr into out: the nearest function symbol below it, from
 * the object's dynamic symbols (dladdr) or, for functions not exported (main, static
 * functions), from the .symtab of the object's file when it is not stripped, as
 * "name+0xoff (object)"; else "object+0xoff". Report time only (opens files, mallocs).
 */
void tt_symbolize(uint64_t addr, char *out, size_t size);

#endif /* TT_SYMBOLIZE_H */
