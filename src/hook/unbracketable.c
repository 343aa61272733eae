/*
 * unbracketable.c - see unbracketable.h. The names are glibc's exported symbols for each
 * behaviour (setjmp is a macro for _setjmp, sigsetjmp one for __sigsetjmp), plus the entry
 * points a program or the kernel jumps to. vfork, which returns twice too, is not here: the
 * shim wraps it (vfork.S) so that it can be traced.
 */
#include <stddef.h>
#include <string.h>

#include "hook/unbracketable.h"

struct entry {
	const char *name;
	const char *why;
};

#define TWICE "returns twice"
#define STACKS "returns on another stack"
#define NO_RETURN_ADDRESS "is entered without a return address"

static const struct entry table[] = {
	{ "setjmp", TWICE },
	{ "_setjmp", TWICE },
	{ "__setjmp", TWICE },
	{ "sigsetjmp", TWICE },
	{ "__sigsetjmp", TWICE },
	{ "savectx", TWICE },
	{ "getcontext", TWICE },
	{ "__getcontext", TWICE },
	{ "swapcontext", STACKS },
	{ "__swapcontext", STACKS },
	{ "clone", STACKS },
	{ "__clone", STACKS },
	{ "clone3", STACKS },
	{ "__clone3", STACKS },
	{ "__clone_internal", STACKS },
	{ "_start", NO_RETURN_ADDRESS },
	{ "__start", NO_RETURN_ADDRESS },
	{ "_dl_start", NO_RETURN_ADDRESS },
	{ "__restore_rt", NO_RETURN_ADDRESS },
	{ "_dl_runtime_resolve", NO_RETURN_ADDRESS },
	{ "_dl_runtime_resolve_xsave", NO_RETURN_ADDRESS },
	{ "_dl_runtime_resolve_xsavec", NO_RETURN_ADDRESS },
	{ "_dl_runtime_resolve_fxsave", NO_RETURN_ADDRESS },
	{ "_dl_runtime_profile", NO_RETURN_ADDRESS },
};

const char *tt_unbracketable_why(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (strcmp(table[i].name, name) == 0)
			return table[i].why;
	return NULL;
}

const char *tt_count_only_why(const char *name)
{
	const char *why = tt_unbracketable_why(name);

	return why && strcmp(why, NO_RETURN_ADDRESS) != 0 ? why : NULL;
}
