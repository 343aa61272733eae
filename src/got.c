/*
 * got.c - GOT slot rewriting.
 *
 * A call through the PLT (or through a -fno-plt GOT load) reads its target from a slot that
 * the loader filled from a JUMP_SLOT or GLOB_DAT relocation. Writing a stub's address there
 * redirects every call made from that object, whatever the calling code looks like. Two
 * kinds of slot are redirected:
 *   - bound: the slot already holds a traced function's address (whatever name the
 *     relocation uses: an alias of the same code is the same function);
 *   - lazy: a JUMP_SLOT still pointing into its own object's PLT, whose symbol is a traced
 *     name with a compatible version (memcpy@GLIBC_2.2.5 is another function than
 *     memcpy@GLIBC_2.14). Resolving it now ourselves skips the lazy resolver for it.
 * An 8-byte aligned store is atomic, so threads calling through a slot see the old or the
 * new target, both valid.
 */
#include <string.h>
#include <sys/mman.h>

#include "elfdyn.h"
#include "funcs.h"
#include "got.h"
#include "log.h"
#include "sys.h"

struct patch_ctx {
	unsigned int patched;
};

struct relro {
	uintptr_t lo, hi;	/* pages the loader made read-only */
	bool open;		/* we made them writable */
	bool failed;
};

static void relro_init(const struct tt_elf *o, struct relro *r)
{
	uintptr_t page = 4096;

	memset(r, 0, sizeof(*r));
	if (!o->relro_start)
		return;
	r->lo = o->relro_start & ~(page - 1);
	r->hi = o->relro_end & ~(page - 1);
}

static bool write_slot(const struct tt_elf *o, struct relro *r, uintptr_t *slot, void *value)
{
	if ((uintptr_t)slot >= r->lo && (uintptr_t)slot < r->hi && !r->open) {
		if (r->failed)
			return false;
		if (tt_sys_mprotect((void *)r->lo, r->hi - r->lo, PROT_READ | PROT_WRITE) < 0) {
			r->failed = true;
			tt_warn("cannot make the read-only GOT of %s writable: its calls are not "
				"traced", o->name[0] ? o->name : "the program");
			return false;
		}
		r->open = true;
	}
	__atomic_store_n(slot, (uintptr_t)value, __ATOMIC_RELAXED);
	return true;
}

/* The function a lazy slot of symbol index symidx will bind to, if it is traced. */
static struct tt_func *lazy_target(const struct tt_elf *o, size_t symidx, void *now)
{
	const char *name = tt_elf_sym_name(o, symidx), *have;
	struct tt_func *f = tt_funcs_by_name(name, &have);
	const ElfW(Sym) *own;
	const char *want;

	if (!f || strcmp(f->hook, "got") != 0)	/* inline: the call reaches the patched entry */
		return NULL;
	/* Already bound to the object's own definition (a local copy): not ours to change. */
	own = tt_elf_lookup(o, name, NULL);
	if (own && ELF64_ST_TYPE(own->st_info) != STT_GNU_IFUNC &&
	    o->base + own->st_value == (uintptr_t)now && now != f->addr)
		return NULL;
	want = tt_elf_ref_version(o, symidx);
	if (want && have && strcmp(want, have) != 0)
		return NULL;
	return f;
}

static void patch_relocs(const struct tt_elf *o, const ElfW(Rela) *rel, size_t n,
			 struct relro *r, struct patch_ctx *c)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint32_t type = ELF64_R_TYPE(rel[i].r_info);
		uintptr_t *slot = (uintptr_t *)(o->base + rel[i].r_offset);
		void *now, *stub;
		struct tt_func *f;

		if (type != R_X86_64_JUMP_SLOT && type != R_X86_64_GLOB_DAT)
			continue;
		now = (void *)__atomic_load_n(slot, __ATOMIC_RELAXED);
		if (!now || tt_funcs_is_stub(now))
			continue;
		stub = tt_funcs_stub_for(now);
		if (stub == now) {
			if (type != R_X86_64_JUMP_SLOT || !tt_elf_in_exec(o, (uintptr_t)now))
				continue;
			f = lazy_target(o, ELF64_R_SYM(rel[i].r_info), now);
			if (!f)
				continue;
			stub = tt_funcs_stub(f->index);
		}
		if (write_slot(o, r, slot, stub)) {
			c->patched++;
			f = tt_funcs_get((uint32_t)(((char *)stub - (char *)tt_funcs_stub(0)) /
						    TT_STUB_SIZE));
			if (f)
				__atomic_add_fetch(&f->slots, 1, __ATOMIC_RELAXED);
		}
	}
}

static int patch_object(struct tt_elf *o, void *arg)
{
	struct patch_ctx *c = arg;
	struct relro r;

	if (tt_elf_in_exec(o, (uintptr_t)&patch_object) || tt_elf_is_loader(o->name))
		return 0;
	relro_init(o, &r);
	patch_relocs(o, o->jmprel, o->njmprel, &r, c);
	patch_relocs(o, o->rela, o->nrela, &r, c);
	if (r.open)
		tt_sys_mprotect((void *)r.lo, r.hi - r.lo, PROT_READ);
	return 0;
}

unsigned int tt_got_patch_all(void)
{
	struct patch_ctx c = { 0 };

	tt_elf_foreach(patch_object, &c);
	return c.patched;
}
