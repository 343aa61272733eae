/*
 * real.c - the next definition of a name after the shim's (or the first that is not the
 * shim's), from the loaded objects' dynamic symbol tables: the loader's own order, without
 * calling dlsym (which the shim wraps, and which a sanitizer runtime preloaded ahead of us
 * may intercept and call back into us).
 */
#include "elf/elfdyn.h"
#include "elf/real.h"

struct find_real {
	const char *name;
	struct tt_elf *obj; /* the object of the definition found, and its symbol */
	const ElfW(Sym) *sym;
	bool past_us;
	bool any; /* any object but the shim, before it too */
};

/* An object preloaded before us (a sanitizer runtime) may wrap the same function and call
 * ours: only definitions after the shim count, as with RTLD_NEXT. */
static int find_real_cb(struct tt_elf *o, void *arg)
{
	struct find_real *f = arg;
	const ElfW(Sym) *s;

	if (tt_elf_is_shim(o)) {
		f->past_us = true;
		return 0;
	}
	if (!f->past_us && !f->any)
		return 0;
	s = tt_elf_lookup(o, f->name, NULL);
	if (!s || ELF64_ST_TYPE(s->st_info) != STT_FUNC)
		return 0;
	*f->obj = *o;
	f->sym = s;
	return 1;
}

const ElfW(Sym) *tt_real_def(const char *name, struct tt_elf *obj)
{
	struct find_real f = { name, obj, NULL, false, false };

	tt_elf_foreach(find_real_cb, &f);
	if (!f.sym && f.past_us) {
		/* The shim came last (loaded by dlopen: tsctrace attach): no definition follows
		 * it, and the first one that is not its own is what every other object calls. */
		f = (struct find_real){ name, obj, NULL, false, true };
		tt_elf_foreach(find_real_cb, &f);
	}
	return f.sym;
}

void *tt_real_find(const char *name)
{
	struct tt_elf o;
	const ElfW(Sym) *s = tt_real_def(name, &o);

	return s ? (void *)(o.base + s->st_value) : NULL;
}

void *tt_real_outside(const char *name)
{
	struct tt_elf o;
	struct find_real f = { name, &o, NULL, false, true };

	tt_elf_foreach(find_real_cb, &f);
	return f.sym ? (void *)(o.base + f.sym->st_value) : NULL;
}

void *tt_real_lazy_with(void **slot, const char *name, void *(*find)(const char *name))
{
	void *p = __atomic_load_n(slot, __ATOMIC_ACQUIRE);

	if (!p) {
		p = find(name);
		__atomic_store_n(slot, p, __ATOMIC_RELEASE);
	}
	return p;
}

void *tt_real_lazy(void **slot, const char *name)
{
	return tt_real_lazy_with(slot, name, tt_real_find);
}
