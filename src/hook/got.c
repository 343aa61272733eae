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
 *
 * A JUMP_SLOT is only ever read by its PLT entry's `jmp *`. A GLOB_DAT slot is also where
 * the object's code takes the function's address (`mov slot(%rip), %rax`): rewritten, that
 * address would differ from the same function's address relocated into data elsewhere, and
 * `if (impl != CRYPTO_malloc) return impl(n);` calls itself forever. So an object's code is
 * scanned (slotuse.c) for the uses of its GLOB_DAT slots of traced functions, and a slot
 * used otherwise than by `call *`/`jmp *` keeps the real address: those calls go untraced,
 * said in one line per function.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "base/basename.h"
#include "base/sys.h"
#include "elf/elfdyn.h"
#include "hook/funcs.h"
#include "hook/got.h"
#include "log/log.h"
#include "x86/disasm.h"
#include "x86/slotuse.h"

struct patch_ctx {
	unsigned int patched;
	bool final; /* no decoder will come: a use only it could rule out is data */
	bool retry; /* slots left for a pass with the decoder */
};

/* The GLOB_DAT slots of one object that would be pointed at a stub, until its code is
 * scanned. Everything here is used under the loader lock (dllock.h). */
#define MAX_BATCH 256
static struct {
	uintptr_t *slot;
	void *stub;
	struct tt_func *f;
} batch[MAX_BATCH];
static struct tt_slot_use uses[MAX_BATCH];
static size_t nbatch;

/* Slots kept for the data use found in them, and the address they hold: each dlopen patches
 * every object again, and their objects are not scanned again for them. */
#define MAX_KEPT 1024
static struct {
	uintptr_t slot, value;
} kept[MAX_KEPT];
static size_t nkept;

/* This pass's functions whose data uses are to be said (once a run: data_use_said). */
#define MAX_NOTES 32
static struct {
	struct tt_func *f;
	unsigned int objects;
	char first[64]; /* file name of the first object */
} notes[MAX_NOTES];
static size_t nnotes;

struct relro {
	uintptr_t lo, hi; /* pages the loader made read-only */
	bool open;	  /* we made them writable */
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
				"traced",
				o->name[0] ? o->name : "the program");
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

	if (!f || !tt_route_uses_got(f->route)) /* inline: the call reaches the patched entry */
		return NULL;
	/* A name binds within its own namespace (dlmopen): another's definition of it, its
	 * libc's malloc above all, is never what this slot will reach. */
	if (f->ns != o->ns)
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

static void redirect(const struct tt_elf *o, struct relro *r, uintptr_t *slot, void *stub,
		     struct patch_ctx *c)
{
	struct tt_func *f;

	if (!write_slot(o, r, slot, stub))
		return;
	c->patched++;
	f = tt_funcs_of_stub(stub);
	if (f)
		__atomic_add_fetch(&f->slots, 1, __ATOMIC_RELAXED);
}

static bool is_kept(uintptr_t slot, uintptr_t value)
{
	size_t i;

	for (i = 0; i < nkept; i++)
		if (kept[i].slot == slot && kept[i].value == value)
			return true;
	return false;
}

/* Slot of f in o keeps the real address: remember it, and note o for this pass's line. */
static void keep(const struct tt_elf *o, uintptr_t *slot, struct tt_func *f)
{
	const char *name = o->name[0] ? tt_base_name(o->name) : "the program";
	size_t i;

	if (nkept < MAX_KEPT) {
		kept[nkept].slot = (uintptr_t)slot;
		kept[nkept].value = __atomic_load_n(slot, __ATOMIC_RELAXED);
		nkept++;
	}
	if (!f || f->data_use_said)
		return;
	for (i = 0; i < nnotes && notes[i].f != f; i++)
		;
	if (i == nnotes) {
		if (nnotes == MAX_NOTES)
			return; /* said after the next pass that finds it */
		notes[nnotes].f = f;
		notes[nnotes].objects = 0;
		snprintf(notes[nnotes].first, sizeof(notes[nnotes].first), "%s", name);
		nnotes++;
	}
	notes[i].objects++;
}

static void say_notes(void)
{
	size_t i;

	for (i = 0; i < nnotes; i++) {
		struct tt_func *f = notes[i].f;

		f->data_use_said = true;
		if (notes[i].objects == 1)
			tt_warn("%s: %s uses its address as data: its calls through that GOT slot "
				"are not traced (pointer identity kept)",
				f->name, notes[i].first);
		else
			tt_warn("%s: %s and %u more object%s use its address as data: their calls "
				"through those GOT slots are not traced (pointer identity kept)",
				f->name, notes[i].first, notes[i].objects - 1,
				notes[i].objects > 2 ? "s" : "");
	}
	nnotes = 0;
}

/*
 * Scan o's code for the uses of the batched GLOB_DAT slots, then redirect those used only by
 * `call *`/`jmp *`. Code that cannot be read (an execute-only segment) counts as data use.
 */
static void decide_batch(const struct tt_elf *o, struct relro *r, struct patch_ctx *c)
{
	bool unreadable = false;
	size_t i, k;

	for (k = 0; k < nbatch; k++)
		uses[k] = (struct tt_slot_use){ .slot = (uintptr_t)batch[k].slot, .tag = k };
	for (i = 0; i < o->phnum; i++) {
		const ElfW(Phdr) *ph = &o->phdr[i];

		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X))
			continue;
		if (!(ph->p_flags & PF_R)) {
			unreadable = true;
			continue;
		}
		tt_slotuse_scan((const uint8_t *)(o->base + ph->p_vaddr), ph->p_filesz,
				o->base + ph->p_vaddr, uses, nbatch, tt_disasm_ready());
	}
	for (k = 0; k < nbatch; k++) {
		const struct tt_slot_use *u = &uses[k];
		uintptr_t *slot = batch[u->tag].slot;

		if (u->data && u->unsure && !c->final)
			c->retry = true; /* left as it is, for the pass with the decoder */
		else if (u->data || unreadable)
			keep(o, slot, batch[u->tag].f);
		else
			redirect(o, r, slot, batch[u->tag].stub, c);
	}
	nbatch = 0;
}

static void patch_relocs(const struct tt_elf *o, const ElfW(Rela) *rel, size_t n, struct relro *r,
			 struct patch_ctx *c)
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
		if (type == R_X86_64_JUMP_SLOT) { /* read by its PLT entry only */
			redirect(o, r, slot, stub, c);
			continue;
		}
		if (is_kept((uintptr_t)slot, (uintptr_t)now))
			continue;
		if (nbatch == MAX_BATCH)
			decide_batch(o, r, c);
		batch[nbatch].slot = slot;
		batch[nbatch].stub = stub;
		batch[nbatch].f = tt_funcs_of_stub(stub);
		nbatch++;
	}
}

static int patch_object(struct tt_elf *o, void *arg)
{
	struct patch_ctx *c = arg;
	struct relro r;

	if (tt_elf_is_shim(o) || tt_elf_is_loader(o->name))
		return 0;
	relro_init(o, &r);
	patch_relocs(o, o->jmprel, o->njmprel, &r, c);
	patch_relocs(o, o->rela, o->nrela, &r, c);
	if (nbatch)
		decide_batch(o, &r, c);
	if (r.open)
		tt_sys_mprotect((void *)r.lo, r.hi - r.lo, PROT_READ);
	return 0;
}

/* Whether some function's calls go through GOT slots: both kinds of slot redirected above
 * are only ever those of such a function (tt_funcs_stub_for, lazy_target). */
static bool any_got_route(void)
{
	uint32_t i, n = tt_funcs_count();

	for (i = 1; i < n; i++) {
		struct tt_func *f = tt_funcs_get(i);

		if (f && tt_route_uses_got(__atomic_load_n(&f->route, __ATOMIC_RELAXED)))
			return true;
	}
	return false;
}

unsigned int tt_got_patch_all(void)
{
	static bool started;
	struct patch_ctx c = { .final = started || tt_disasm_ready() };

	/* Every function hooked inline (the usual start-up): no slot to look at, and no walk of
	 * every object's relocations, a lookup under a lock each. */
	if (!any_got_route()) {
		started = true;
		say_notes();
		return 0;
	}
	tt_elf_foreach(patch_object, &c);
	if (c.retry) {
		/*
		 * Some slot's use needs the decoder, which TSC_HOOK=got did not load. Only at
		 * start-up: later, the load would go through our dlopen wrapper, whose bookkeeping
		 * (this function among it) would run inside this pass. Never inside
		 * tt_elf_foreach: dlopen there breaks the loader's lock order.
		 */
		tt_disasm_load();
		c.final = true;
		c.retry = false;
		tt_elf_foreach(patch_object, &c);
	}
	started = true;
	say_notes();
	return c.patched;
}

unsigned int tt_got_point_imports(const struct tt_elf *o, const char *const *names,
				  void *const *targets, size_t n)
{
	unsigned int done = 0;
	struct relro r;
	size_t i, k;

	relro_init(o, &r);
	for (i = 0; i < o->njmprel; i++) {
		const ElfW(Rela) *rel = &o->jmprel[i];
		const char *name;

		if (ELF64_R_TYPE(rel->r_info) != R_X86_64_JUMP_SLOT)
			continue;
		name = tt_elf_sym_name(o, ELF64_R_SYM(rel->r_info));
		for (k = 0; k < n && strcmp(name, names[k]) != 0; k++)
			;
		if (k < n && write_slot(o, &r, (uintptr_t *)(o->base + rel->r_offset), targets[k]))
			done++;
	}
	if (r.open)
		tt_sys_mprotect((void *)r.lo, r.hi - r.lo, PROT_READ);
	return done;
}
