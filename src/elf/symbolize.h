/*
 * symbolize.h - naming code addresses for the report: "func+0x4c (app)".
 */
#ifndef TT_SYMBOLIZE_H
#define TT_SYMBOLIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Write a name for code address addr into out: the nearest function symbol below it, from
 * the object's dynamic symbols (dladdr) or, for functions not exported (main, static
 * functions), from the .symtab of the object's file when it is not stripped, as
 * "name+0xoff (object)"; else "object+0xoff". Report time only (opens files, mallocs).
 */
void tt_symbolize(uint64_t addr, char *out, size_t size);

/* The loaded object holding a code address, as a report names it for symbolizers. */
struct tt_code_object {
	char path[4096];    /* its file; the program's own path for the program */
	uint64_t bias;	    /* its load bias: the address in the file is addr - bias */
	char build_id[129]; /* its GNU build ID in hex (at most 64 bytes), "" when none */
};

/* The object whose executable segments hold addr, into out; false when none does. Report
 * time only (walks the loader's list, under its lock). */
bool tt_symbolize_object(uint64_t addr, struct tt_code_object *out);

#endif /* TT_SYMBOLIZE_H */
