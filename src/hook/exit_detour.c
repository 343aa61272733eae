/*
 * exit_detour.c - see exit_detour.h.
 *
 * libc leaves the process through its own _exit from inside: daemon() in the parent, a
 * posix_spawn child whose exec failed, the end of exit() itself. Those calls bind inside libc
 * and never reach the shim's exported _exit, and _exit runs no destructor: without this, the
 * report of a program that calls daemon() is lost. So libc's _exit gets a detour at its
 * entry, the same 5-byte jump an inline hook writes: to a pool slot that saves the argument
 * registers, calls `before`, restores them, then runs the displaced instructions (relocated)
 * and jumps back into _exit.
 *
 * The displaced bytes must be one instruction: then no branch can land inside them (that
 * would be a jump into the middle of an instruction, which compilers never emit), and no
 * scan of libc for such branches is needed at start-up. glibc 2.36's _exit starts with a
 * 7-byte `mov` (or endbr64 and that). Where it does not, or where _exit is traced inline, the
 * detour is not installed and one line says what that costs.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "elf/elfdyn.h"
#include "elf/real.h"
#include "hook/exit_detour.h"
#include "hook/funcs.h"
#include "hook/inline.h"
#include "hook/patch.h"
#include "hook/plan_cache.h"
#include "hook/pool.h"
#include "log/log.h"
#include "x86/disasm.h"
#include "x86/relocate.h"

/*
 * The slot's head: save the argument registers _exit may use (and rax), keep %rsp 16-byte
 * aligned for the call (at the entry it is 8 off: the return address), call `before`
 * through %rax, restore. lea, not sub/add, for the stack: flags are not live at a call, but
 * nothing here needs to change them.
 */
static size_t write_head(uint8_t *p, void (*before)(void))
{
	static const uint8_t save[] = {
		0x57, 0x56, 0x52, 0x50,	      /* push %rdi, %rsi, %rdx, %rax */
		0x48, 0x8d, 0x64, 0x24, 0xf8, /* lea -8(%rsp), %rsp */
		0x48, 0xb8,		      /* movabs $before, %rax */
	};
	static const uint8_t restore[] = {
		0xff, 0xd0,		      /* call *%rax */
		0x48, 0x8d, 0x64, 0x24, 0x08, /* lea 8(%rsp), %rsp */
		0x58, 0x5a, 0x5e, 0x5f,	      /* pop %rax, %rdx, %rsi, %rdi */
	};
	uint64_t fn = (uint64_t)(uintptr_t)before;
	size_t n = 0;

	memcpy(p + n, save, sizeof(save));
	n += sizeof(save);
	memcpy(p + n, &fn, 8);
	n += 8;
	memcpy(p + n, restore, sizeof(restore));
	return n + sizeof(restore);
}

/* libc's _exit, as the patch needs it. */
struct exit_def {
	uint8_t *addr;
	size_t size;
	int prot; /* of its segment, restored after the write */
};

/* install()'s answer when it needs the decoder, not loaded yet: no kept plan (plan_cache.h). */
static const char need_decoder[] = "no instruction decoder";

/* Why the detour cannot go in, or NULL once it is in. */
static void keep(const uint8_t *id, size_t id_len, const struct tt_elf *libc,
		 const struct exit_def *d, const struct tt_reloc *r)
{
	struct tt_reloc_kept k;

	if (tt_reloc_keep(r, d->addr, r->patch_at + r->displaced, (uintptr_t)d->addr - libc->base,
			  d->size, TT_PLAN_EXIT, (uint32_t)d->size, &k)) {
		tt_plan_cache_put(id, id_len, &k);
		tt_plan_cache_flush();
	}
}

/* The detour written with the inline hooks' batch (tt_inline_defer_write), until
 * tt_exit_detour_settle: its slot, NULL when none waits. */
static uint8_t *pending_slot;
static uint8_t *pending_at;
static uint8_t pending_jump[5];
static int pending_prot;

/* Whether a function to be patched inline lies at d: its hook must then see the detour's
 * jump in place (and relocate it), so the detour cannot wait for the batch. */
static bool traced_at(const struct exit_def *d)
{
	uint32_t i, n = tt_funcs_count();

	for (i = 1; i < n; i++) {
		const struct tt_func *f = tt_funcs_get(i);

		if (f && !f->unloaded && (uint8_t *)f->addr >= d->addr &&
		    (uint8_t *)f->addr < d->addr + d->size)
			return true;
	}
	return false;
}

/* The jump written on its own (no batch takes it): the pool made executable first, so that
 * the jump never points at code that cannot run. Why not, or NULL once it is in. */
static const char *write_now(uint8_t *at, const uint8_t jump[5], int prot)
{
	if (tt_pool_seal() < 0)
		return "its pool could not be made executable";
	tt_patch_init();
	if (tt_patch_write(at, jump, 5, prot) < 0)
		return "its code cannot be made writable";
	return NULL;
}

/* defer: the jump goes with the inline hooks' batch about to be made (tt_exit_detour_settle
 * says how it went), unless a function traced inline is _exit itself. */
static const char *install(void (*before)(void), bool defer, char *why, size_t why_size)
{
	const ElfW(Sym) *sym;
	const ElfW(Phdr) *ph;
	struct exit_def d;
	struct tt_elf libc;
	struct tt_insn first;
	struct tt_reloc r;
	uint8_t *slot, jump[5];
	size_t head;
	int32_t rel32;
	const char *err = NULL;
	const uint8_t *id;
	size_t id_len;
	uint32_t used;

	/* libc's _exit: the first definition after the shim in load order (elf/real.h). */
	sym = tt_real_def("_exit", &libc);
	if (!sym)
		return "no _exit after the shim in load order";
	d.addr = (uint8_t *)(libc.base + sym->st_value);
	d.size = sym->st_size;
	ph = tt_elf_exec_phdr(&libc, (uintptr_t)d.addr);
	if (!ph)
		return "its code is not in an executable segment";
	d.prot = tt_elf_phdr_prot(ph) & ~PROT_WRITE;
	if (!d.size)
		return "its length is unknown";
	slot = tt_pool_take((uintptr_t)d.addr);
	if (!slot)
		return "no memory could be mapped within jump range of it";
	memset(slot, 0xcc, TT_POOL_SLOT); /* int3 after the code */
	head = write_head(slot, before);
	id = tt_elf_build_id(&libc, &id_len);
	if (tt_plan_cache_get(id, id_len, (uintptr_t)d.addr - libc.base, d.size, TT_PLAN_EXIT,
			      d.addr, d.size, (uint64_t)(uintptr_t)(slot + head), &r, &used))
		; /* kept by an earlier run, whose checks below found one instruction */
	else if (!tt_disasm_ready())
		err = need_decoder;
	else {
		err = tt_reloc_plan(d.addr, d.size, (uint64_t)(uintptr_t)d.addr,
				    (uint64_t)(uintptr_t)(slot + head), &r, why, why_size);
		if (!err &&
		    (tt_disasm_decode(d.addr + r.patch_at, d.size - r.patch_at,
				      (uint64_t)(uintptr_t)(d.addr + r.patch_at), &first) < 0 ||
		     first.len != r.displaced))
			err = "its first bytes are more than one instruction";
		if (!err && head + r.copy_len <= TT_POOL_SLOT)
			keep(id, id_len, &libc, &d, &r);
	}
	if (!err && head + r.copy_len > TT_POOL_SLOT)
		err = "its relocated entry does not fit a pool slot";
	if (!err && !tt_patch_possible(d.addr + r.patch_at))
		err = "its entry straddles a cache line, which cannot be written atomically";
	if (err) {
		tt_pool_release(slot);
		return err;
	}
	memcpy(slot + head, r.copy, r.copy_len);
	rel32 = (int32_t)((intptr_t)slot - (intptr_t)(d.addr + r.patch_at + 5));
	jump[0] = 0xe9;
	memcpy(jump + 1, &rel32, 4);
	if (defer && !traced_at(&d)) {
		pending_slot = slot;
		pending_at = d.addr + r.patch_at;
		memcpy(pending_jump, jump, sizeof(jump));
		pending_prot = d.prot;
		tt_inline_defer_write(pending_at, pending_jump, d.prot);
		return NULL;
	}
	err = write_now(d.addr + r.patch_at, jump, d.prot);
	if (err)
		tt_pool_release(slot);
	return err;
}

/* Once: the detour in, or why not said (tried: 1 in, -1 refused). A missing decoder is
 * loaded by load, which says why when it cannot be (and the detour is tried again later). */
static int tried;

static void said(const char *err)
{
	tt_info("libc's _exit: no detour (%s): a report is lost where libc itself ends the "
		"process (daemon(), quick_exit(), two threads in exit() at once)",
		err);
}

static bool attempt(void (*before)(void), bool (*load)(void), bool defer)
{
	char why[160];
	const char *err;

	if (tried)
		return tried > 0;
	err = install(before, defer, why, sizeof(why));
	if (err == need_decoder) {
		if (!load()) {
			if (!defer) /* late: its line said why, once; not again at each call */
				__atomic_store_n(&tried, -1, __ATOMIC_RELEASE);
			return false;
		}
		err = install(before, defer, why, sizeof(why));
	}
	__atomic_store_n(&tried, err ? -1 : 1, __ATOMIC_RELEASE);
	if (err)
		said(err);
	return !err;
}

bool tt_exit_detour_install(void (*before)(void))
{
	return attempt(before, tt_inline_decoder, true);
}

void tt_exit_detour_settle(void)
{
	const char *err = NULL;
	int werr;

	if (!pending_slot)
		return;
	if (!tt_inline_deferred_result(&werr)) /* no batch was written: on its own */
		err = write_now(pending_at, pending_jump, pending_prot);
	else if (werr < 0)
		err = "its code cannot be made writable";
	if (err) {
		tt_pool_release(pending_slot);
		tried = -1;
		said(err);
	}
	pending_slot = NULL;
}

/* Whatever the hook mode: loaded here, as no inline hook did. */
static bool load_late(void)
{
	const char *why = tt_disasm_load();

	if (why) {
		tt_info("libc's _exit: no detour (%s): a report is lost where libc itself ends "
			"the process (daemon(), quick_exit(), two threads in exit() at once)",
			why);
		return false;
	}
	return true;
}

bool tt_exit_detour_late(void (*before)(void))
{
	return attempt(before, load_late, false);
}

bool tt_exit_detour_tried(void)
{
	return __atomic_load_n(&tried, __ATOMIC_ACQUIRE) != 0;
}
