/*
 * funcs.c - the table of traced functions.
 *
 * The trampoline knows a function only by its stub number, so the hot path needs no look-up:
 * tt_func_words(i)->target is the real address behind stub i. The entries are a chunked
 * table (base/chunked.h) as long as the functions added: no cap but the 32-bit index. Configuration, the dl* wrappers and the
 * report find entries by name or by address through two uthash tables. Entries are added at
 * start-up and when dlopen brings a pending name; they are never removed, so an index stays
 * valid for the whole run (a function of an unloaded object keeps its data in the report).
 *
 * Who writes: only the bookkeeping of start-up and of the dl* wrappers, one at a time under
 * the loader lock (dllock.h); the hash tables also under table_lock, which dlsym's look-up
 * takes without the loader lock. Readers that take neither (dlsym's hook test, the report)
 * see fields that change after an entry is published through atomic loads and stores, and
 * strings that are replaced are never freed: a reader may still hold the old one.
 */
/* uthash's own allocations may fail: then a name is not added (its function is not traced)
 * or a function is not found by its address (dlsym answers its own address), instead of the
 * traced program ending, as uthash's default would have it. */
#define HASH_NONFATAL_OOM 1
#define uthash_nonfatal_oom(obj) (hash_oom = true)

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/variant.h"
#include "hook/funcs.h"
#include "hook/stubs.h"
#include "hook/unbracketable.h"
#include "hot/func_table.h"
#include "hot/sample.h"
#include "tramp/tramp.h"

static bool hash_oom; /* set by uthash when an insertion found no memory */

/* The bodies stubs jump to, one per variant, in TT_VAR_* order (tramp_body.S). */
static char *const bodies[TT_VAR_COUNT] = {
	tt_body_rdtscp,		tt_body_lfence, tt_body_mfence, tt_body_cpuid,
	tt_body_cpuid_nordtscp, tt_body_none,	tt_body_mono,
};

static char *const timed_bodies[TT_VAR_COUNT] = {
	tt_body_rdtscp_timed, tt_body_lfence_timed,	    tt_body_mfence_timed,
	tt_body_cpuid_timed,  tt_body_cpuid_nordtscp_timed, tt_body_none_timed,
	tt_body_mono_timed,
};

static char *const inline_bodies[TT_VAR_COUNT] = {
	tt_ibody_rdtscp,	 tt_ibody_lfence, tt_ibody_mfence, tt_ibody_cpuid,
	tt_ibody_cpuid_nordtscp, tt_ibody_none,	  tt_ibody_mono,
};
static char *const inline_timed[TT_VAR_COUNT] = {
	tt_ibody_rdtscp_timed, tt_ibody_lfence_timed,	      tt_ibody_mfence_timed,
	tt_ibody_cpuid_timed,  tt_ibody_cpuid_nordtscp_timed, tt_ibody_none_timed,
	tt_ibody_mono_timed,
};

/* An alias name pointing at an entry: "memmove" -> the "memcpy|memmove" entry. */
struct alias {
	char *name;
	char *version; /* of this name's definition: memcpy@GLIBC_2.14 vs memmove's */
	struct tt_func *func;
	UT_hash_handle hh;
};

static struct tt_chunked entries; /* struct tt_func by index */
static uint32_t nentries = 1;	  /* index 0: calibration */
static uint32_t nunloaded;	  /* entries marked unloaded: revive looks only then */

static struct tt_func *entry(uint32_t i)
{
	return tt_chunked_at(&entries, i, sizeof(struct tt_func));
}

/* Room for index i: its entry, its words (func_table.h) and its stub. */
static int reserve(uint32_t i)
{
	if (tt_chunked_reserve(&entries, (uint64_t)i + 1, sizeof(struct tt_func)) < 0 ||
	    tt_chunked_reserve(&tt_func_words_table, (uint64_t)i + 1,
			       sizeof(struct tt_func_words)) < 0 ||
	    tt_stubs_make(i) < 0)
		return -1;
	return 0;
}
static struct alias *by_name;
static struct tt_func *by_addr;
static int variant = TT_VAR_RDTSCP;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

void tt_funcs_lock(void)
{
	pthread_mutex_lock(&table_lock);
}

void tt_funcs_unlock(void)
{
	pthread_mutex_unlock(&table_lock);
}

int tt_funcs_set_variant(int v)
{
	if (v >= 0 && v < TT_VAR_COUNT)
		variant = v;
	if (tt_stubs_start(bodies[variant], timed_bodies[variant], tt_funcs_counting()) < 0)
		return -1;
	return reserve(0); /* the calibration function's words */
}

void *tt_funcs_stub(uint32_t index)
{
	return tt_stubs_at(index);
}

void *tt_funcs_inline_body(void)
{
	return inline_bodies[variant];
}

bool tt_funcs_counting(void)
{
	return tt_sample_mode != TT_SAMPLE_OFF && !tt_sample_framed;
}

void *tt_funcs_inline_timed(void)
{
	return inline_timed[variant];
}

bool tt_funcs_is_stub(const void *addr)
{
	uint32_t index;

	return tt_stubs_index(addr, &index);
}

struct tt_func *tt_funcs_of_stub(const void *addr)
{
	uint32_t index;

	return tt_stubs_index(addr, &index) ? tt_funcs_get(index) : NULL;
}

static int add_alias(const char *name, const char *version, struct tt_func *f)
{
	struct alias *a = calloc(1, sizeof(*a));

	if (!a || !(a->name = strdup(name)) || (version && !(a->version = strdup(version)))) {
		if (a)
			free(a->name);
		free(a);
		return -1;
	}
	a->func = f;
	hash_oom = false;
	HASH_ADD_KEYPTR(hh, by_name, a->name, strlen(a->name), a);
	if (hash_oom) {
		free(a->name);
		free(a->version);
		free(a);
		return -1;
	}
	return 0;
}

static bool has_name(const struct tt_func *f, const char *display)
{
	size_t i;

	for (i = 0; i < f->nnames; i++)
		if (strcmp(f->names[i], display) == 0)
			return true;
	return false;
}

/* Arrays and strings replaced while a reader may still hold them (add_name): kept, and
 * reachable from here, so that a leak checker does not take them for leaks. */
struct retired {
	struct retired *next;
	void *p;
};

static struct retired *retired;

static void retire(void *p)
{
	struct retired *r = malloc(sizeof(*r));

	if (!r)
		return; /* then p is merely lost */
	r->p = p;
	r->next = retired;
	retired = r;
}

/*
 * Another name for f's address: listed in f->names, and the shown name grows from "memcpy" to
 * "memcpy|memmove". Once only: a name found again (its object dlclosed and reopened) would
 * otherwise show twice. Out of memory leaves f as it was: the name is traced, not listed.
 *
 * A report may read f meanwhile (a dump while another thread dlopens): the new array and
 * string are published whole, the old ones are left to it, never freed (retired: one each
 * per name added). Each array holds a copy of its last name one past its end, so a reader
 * that pairs the old array with the new count still reads a name.
 */
static void add_name(struct tt_func *f, const char *display)
{
	size_t len = strlen(f->name) + strlen(display) + 2, n = f->nnames;
	char **names, *copy, *joined;

	if (has_name(f, display))
		return;
	names = malloc((n + 2) * sizeof(*names));
	copy = strdup(display);
	joined = malloc(len);
	if (!names || !copy || !joined) {
		free(names);
		free(copy);
		free(joined);
		return;
	}
	if (n)
		memcpy(names, f->names, n * sizeof(*names));
	names[n] = names[n + 1] = copy;
	snprintf(joined, len, "%s|%s", f->name, display);
	retire(f->names);
	retire(f->name);
	__atomic_store_n(&f->names, names, __ATOMIC_RELEASE);
	__atomic_store_n(&f->nnames, n + 1, __ATOMIC_RELEASE);
	__atomic_store_n(&f->name, joined, __ATOMIC_RELEASE);
}

/* The first name of a new entry f (with its copy past the end, see add_name); -1 when out
 * of memory. */
static int first_name(struct tt_func *f, const char *display)
{
	f->names = malloc(2 * sizeof(*f->names));
	if (!f->names || !(f->names[0] = strdup(display))) {
		free(f->names);
		f->names = NULL;
		return -1;
	}
	f->names[1] = f->names[0];
	f->nnames = 1;
	return 0;
}

/*
 * A function whose object was unloaded and is found again (the library dlopened anew, maybe
 * at another address) keeps its entry and stub: one function, one line in the report.
 */
static struct tt_func *revive(const char *name, void *addr, uintptr_t object_base,
			      const char *version)
{
	uint32_t i;

	/* A whole library's functions are added one by one: no scan while none was unloaded. */
	if (!__atomic_load_n(&nunloaded, __ATOMIC_RELAXED))
		return NULL;
	for (i = 1; i < nentries; i++) {
		struct tt_func *f = entry(i);

		if (!f->unloaded || strcmp(f->key, name) != 0 ||
		    (version && f->version && strcmp(version, f->version) != 0))
			continue;
		if (add_alias(name, version, f) < 0)
			return NULL;
		f->addr = addr;
		f->object_base = object_base;
		__atomic_store_n(&f->route, TT_ROUTE_GOT, __ATOMIC_RELAXED);
		/* new code at a new address: decide again */
		__atomic_store_n(&f->route_decided, false, __ATOMIC_RELEASE);
		tt_func_set_target(i, addr);
		HASH_ADD(hh_addr, by_addr, addr, sizeof(f->addr), f);
		f->unloaded = false;
		__atomic_store_n(&nunloaded, nunloaded - 1, __ATOMIC_RELAXED);
		return f;
	}
	return NULL;
}

/*
 * A function whose calls cannot be bracketed (unbracketable.h): every thread's counters of it
 * start with a countdown that never ends (hot/thread.h). Set before its stub is reachable
 * for a new function; an alias added later reaches only threads that have not called it.
 */
static void mark_count_only(struct tt_func *f)
{
	__atomic_store_n(&tt_func_words(f->index)->count_only, 1, __ATOMIC_RELEASE);
}

struct tt_func *tt_funcs_add(const char *name, const char *display, void *addr, const char *symbol,
			     const char *object, uintptr_t object_base, const char *version,
			     bool *is_alias)
{
	struct tt_func *f = NULL;
	struct alias *a;

	if (!display)
		display = name;

	*is_alias = false;
	tt_funcs_lock();
	HASH_FIND_STR(by_name, name, a);
	if (a) {
		f = a->func;
		goto out;
	}
	HASH_FIND(hh_addr, by_addr, &addr, sizeof(addr), f);
	if (f) {
		if (add_alias(name, version, f) == 0)
			add_name(f, display);
		*is_alias = true;
		goto out;
	}
	f = revive(name, addr, object_base, version);
	if (f)
		goto out;
	if (nentries == UINT32_MAX || reserve(nentries) < 0)
		goto out;
	f = entry(nentries);
	f->key = strdup(name);
	f->name = strdup(display);
	f->symbol = strdup(symbol ? symbol : name);
	f->object = strdup(object ? object : "?");
	f->version = version ? strdup(version) : NULL;
	if (!f->key || !f->name || !f->symbol || !f->object || (version && !f->version) ||
	    first_name(f, display) < 0 || add_alias(name, version, f) < 0) {
		if (f->names)
			free(f->names[0]);
		free(f->names);
		free(f->version);
		free(f->key);
		free(f->name);
		free(f->symbol);
		free(f->object);
		memset(f, 0, sizeof(*f));
		f = NULL;
		goto out;
	}
	f->index = nentries;
	f->addr = addr;
	f->object_base = object_base;
	f->route = TT_ROUTE_GOT;
	tt_func_set_target(f->index, addr);
	HASH_ADD(hh_addr, by_addr, addr, sizeof(f->addr), f);
	/* Threads size their tables of counters by this (hot/thread_state.c). */
	__atomic_store_n(&tt_func_words_used, nentries + 1, __ATOMIC_RELEASE);
	__atomic_store_n(&nentries, nentries + 1, __ATOMIC_RELEASE);
out:
	if (f && (tt_count_only_why(name) || tt_count_only_why(f->symbol)))
		mark_count_only(f);
	tt_funcs_unlock();
	return f;
}

struct tt_func *tt_funcs_by_name(const char *name, const char **version)
{
	struct alias *a;
	struct tt_func *f;

	tt_funcs_lock();
	HASH_FIND_STR(by_name, name, a);
	f = a ? a->func : NULL;
	if (version) /* read under the lock: tt_funcs_forget_unloaded frees aliases */
		*version = a ? a->version : NULL;
	tt_funcs_unlock();
	return f;
}

/*
 * Called by dlsym without the loader lock: the entry's hook may change meanwhile (its
 * object reloaded in place), hence the atomic reads. The decision is taken under the table
 * lock, which forget and revive hold while they move an entry in or out of by_addr.
 */
void *tt_funcs_stub_for(void *addr)
{
	struct tt_func *f;
	bool got = false;
	uint32_t index = 0;

	if (!addr)
		return addr;
	tt_funcs_lock();
	HASH_FIND(hh_addr, by_addr, &addr, sizeof(addr), f);
	/* An inline-hooked function is traced at its own address: pointers to it stay equal. */
	/* Until inline.c has decided, hand out no stub: a call through it could reach an entry
	 * patched meanwhile and be counted twice. */
	if (f && __atomic_load_n(&f->route_decided, __ATOMIC_ACQUIRE) &&
	    tt_route_uses_got(__atomic_load_n(&f->route, __ATOMIC_RELAXED))) {
		got = true;
		index = f->index;
	}
	tt_funcs_unlock();
	return got ? tt_funcs_stub(index) : addr;
}

const char *tt_route_name(enum tt_route route)
{
	static const char *const names[] = { "got", "inline", "none", "trap" };

	return route < sizeof(names) / sizeof(names[0]) ? names[route] : "?";
}

uint32_t tt_funcs_count(void)
{
	return __atomic_load_n(&nentries, __ATOMIC_ACQUIRE);
}

struct tt_func *tt_funcs_get(uint32_t index)
{
	return index > 0 && index < tt_funcs_count() ? entry(index) : NULL;
}

unsigned int tt_funcs_forget_unloaded(bool (*loaded)(const char *object, uintptr_t base))
{
	struct alias *a, *next;
	unsigned int n = 0;
	uint32_t i, count = tt_funcs_count();

	/* Ask the loader first, without our lock: dl_iterate_phdr takes the loader's lock, and
	 * code running under that lock (a glob match) takes ours. */
	for (i = 1; i < count; i++) {
		struct tt_func *f = entry(i);

		if (f->unloaded || loaded(f->object, f->object_base))
			continue;
		tt_funcs_lock();
		f->unloaded = true;
		__atomic_store_n(&nunloaded, nunloaded + 1, __ATOMIC_RELAXED);
		HASH_DELETE(hh_addr, by_addr, f);
		tt_funcs_unlock();
		n++;
	}
	/* Their names, in one pass over all names (not one per function: a whole library may
	 * go at once). Names of functions unloaded before went then, or came back with them. */
	if (n) {
		tt_funcs_lock();
		HASH_ITER(hh, by_name, a, next) {
			if (!a->func->unloaded)
				continue;
			HASH_DEL(by_name, a);
			free(a->name);
			free(a->version);
			free(a);
		}
		tt_funcs_unlock();
	}
	return n;
}
