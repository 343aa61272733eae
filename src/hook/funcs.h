/*
 * funcs.h - the traced functions: a dense array indexed by stub number (what the trampoline
 * knows) and a uthash table by name and by address (what configuration, dlsym and the report
 * ask). Index 0 is the overhead calibration function and never appears in a report.
 */
#ifndef TT_FUNCS_H
#define TT_FUNCS_H

#include <stdbool.h>
#include <stdint.h>

#include <uthash.h>

#include "config/variant.h"
#include "hot/tramp_layout.h"

/* How calls of a traced function reach its trampoline (the report's "hook" field). */
enum tt_route {
	TT_ROUTE_GOT,	 /* through its GOT slots and dlsym answers, to its stub */
	TT_ROUTE_INLINE, /* through a jump patched at its own entry */
	TT_ROUTE_NONE,	 /* neither: not exported and not patchable, never traced */
	TT_ROUTE_TRAP,	 /* an int3 at its entry (too short for the jump; trap.c), and its GOT
			  * slots like TT_ROUTE_GOT: those calls skip the trap */
};

/* True when GOT slots and dlsym answers lead to the stub (got, trap). */
static inline bool tt_route_uses_got(enum tt_route route)
{
	return route == TT_ROUTE_GOT || route == TT_ROUTE_TRAP;
}

/* "got", "inline", "none", "trap". */
const char *tt_route_name(enum tt_route route);

struct tt_func {
	uint32_t index; /* stub number */
	char *name;	/* as named by the user; "a|b" when two names share the address */
	char **names;	/* each of those names once, in the order they were added (the
				 * order of TSC_FUNCS): what the report's "names" lists */
	size_t nnames;
	char *key;		/* the name it was added under (its own for each of several
				 * statics sharing a name), to find it again after a reload */
	char *symbol;		/* symbol found at the address */
	char *object;		/* file of the defining object */
	uintptr_t object_base;	/* its load bias: with the name, tells a reloaded object apart */
	unsigned int ns;	/* its object's link-map namespace (struct tt_elf) */
	void *addr;		/* the real function */
	char *version;		/* version of the definition (GLIBC_2.14), NULL if none */
	uint64_t slots;		/* GOT slots redirected to it so far */
	enum tt_route route;	/* how its calls reach the trampoline */
	size_t size;		/* bytes, from its symbol; 0 when unknown (an IFUNC's choice) */
	bool local;		/* found in .symtab only (static, hidden): no GOT slot reaches it */
	bool route_decided;	/* inline.c decided its route at its current address */
	bool refusal_said;	/* inline.c said why it was not patched, or that it traps
				 * (said once) */
	uint8_t *slot;		/* inline: its pool slot (stub jump, relocated entry) */
	void *patched_addr;	/* inline: the address whose entry is patched */
	uint8_t *patched_at;	/* inline: where the jump is (after an endbr64) */
	uint8_t jump[5];	/* inline: the jump written there (trap: the int3) */
	uint8_t jump_len;	/* of jump: 5, or 1 for a trap */
	uint8_t saved[5];	/* inline: the bytes the jump replaced (tt_inline_unhook_all) */
	bool unhooked;		/* inline: saved is back at patched_at (a detach) */
	int prot;		/* inline: its code segment's protection */
	bool unloaded;		/* its object was dlclosed: kept for the report, never patched in */
	bool data_use_said;	/* got.c: a GOT slot holding its address as data was said */
	UT_hash_handle hh;	/* by name (each alias gets an entry in tt_funcs_alias) */
	UT_hash_handle hh_addr; /* by address */
};

/* Stub address of function index (stubs.c: written for the variant chosen at start-up). */
void *tt_funcs_stub(uint32_t index);

/* The inline-hook body of the chosen variant (tramp_body.S IBODY): entered from a pool slot
 * with the index in %r11d and the caller's %r11 at -112(%rsp). */
void *tt_funcs_inline_body(void);

/* Whether the calls sampling passes over are counted in each function's own stub and pool
 * slot (slot_code.h): sampling is on and they need no frame (no TSC_CALLERS). Fixed before
 * the first stub is written (runtime/sample_setup.h). */
bool tt_funcs_counting(void);

/* Its timed entry (tramp.h), for a counting slot head (slot_code.h). */
void *tt_funcs_inline_timed(void);

/* Choose the trampoline variant (TT_VAR_*), before any function is added; writes the first
 * stubs. 0, or -1 when no memory could be mapped within reach of the body. */
int tt_funcs_set_variant(int variant);

/* True if addr is one of our stubs. */
bool tt_funcs_is_stub(const void *addr);

/* The function whose stub addr is, or NULL. */
struct tt_func *tt_funcs_of_stub(const void *addr);

/*
 * Add a function under the look-up name `name`, shown as `display` (NULL: the same), or find
 * the one already at addr (then `name` is added as an alias, `display` is appended to its
 * names unless there already, and the shown name becomes "memcpy|memmove"). symbol/object may
 * be NULL. Returns the entry or NULL when the table is full or memory ran out. Takes the table
 * lock.
 */
struct tt_func *tt_funcs_add(const char *name, const char *display, void *addr, const char *symbol,
			     const char *object, uintptr_t object_base, const char *version,
			     bool *is_alias);

/* The function named `name` (an alias counts), or NULL; *version (if version is not NULL)
 * gets the version of that name's definition, which an alias may not share with the entry
 * (memcpy@GLIBC_2.14, memmove@GLIBC_2.2.5). Takes the table lock. */
struct tt_func *tt_funcs_by_name(const char *name, const char **version);

/* The stub for a real address if it is traced through GOT slots, else addr itself (also for
 * an inline-hooked function: its own entry leads to the stub). Takes the table lock. */
void *tt_funcs_stub_for(void *addr);

/*
 * Forget functions whose code is no longer loaded (dlclose): they stop matching by name and
 * by address, so no slot of a later object is pointed at a stub whose target is gone, and
 * the name can be resolved again (same entry, see tt_funcs_add). Their counts stay for the
 * report. Callers hold the loader lock (dllock.h): no object is loaded or unloaded meanwhile.
 * Returns how many.
 */
unsigned int tt_funcs_forget_unloaded(bool (*loaded)(const char *object, uintptr_t base));

/* Number of indexes in use, including the calibration function (so user functions are
 * 1..tt_funcs_count()-1). */
uint32_t tt_funcs_count(void);

/* Entry of index i (1 <= i < tt_funcs_count()). */
struct tt_func *tt_funcs_get(uint32_t index);

/* Lock protecting the table (also used by got.c while it patches). */
void tt_funcs_lock(void);
void tt_funcs_unlock(void);

#endif /* TT_FUNCS_H */
