/*
 * inline.c - see inline.h.
 *
 * A batch (start-up, or the functions a dlopen brought) goes in three steps, so that no
 * thread can ever reach a half-made hook: (1) for each function, plan the patch from its own
 * bytes and write its pool slot (a jump on to the stub, then the relocated entry); (2) make
 * the slots executable; (3) point the stub's target at the copy, then write the entry jump
 * (patch.c). A function whose patch would not be safe keeps its GOT hooks, or, when it is
 * not exported (no GOT slot can reach it), is not traced; one line says which and why.
 */
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "base/sys.h"
#include "elf/coderange.h"
#include "elf/ehframe.h"
#include "elf/elfdyn.h"
#include "elf/symtab.h"
#include "hook/funcs.h"
#include "hook/inline.h"
#include "hook/patch.h"
#include "hook/plan_cache.h"
#include "hook/pool.h"
#include "hook/slot_code.h"
#include "hook/stubs.h"
#include "hook/stop.h"
#include "hook/xref_cache.h"
#include "hook/trap.h"
#include "hot/func_table.h"
#include "log/log.h"
#include "tramp/tramp.h"
#include "x86/disasm.h"
#include "x86/relocate.h"
#include "x86/xref.h"

_Static_assert(TT_POOL_SLOT >= TT_SLOT_COUNT_END &&
		       TT_POOL_SLOT >= TT_SLOT_PLAIN_COPY + TT_COPY_MAX,
	       "a pool slot holds either head and the longest relocated entry");

static enum tt_hook_mode mode = TT_HOOK_GOT;
static bool enabled;

struct planned {
	struct tt_func *f; /* NULL: the calibration function */
	uint8_t *entry;	   /* where the jump goes */
	uint8_t *slot;
	int prot;		   /* of the code's segment, restored after the write */
	uintptr_t seg_lo, seg_hi;  /* that segment */
	struct tt_xref_range xref; /* jumps from elsewhere into the patched bytes */
	uint8_t *func;		   /* the function's first byte; r's offsets count from it */
	size_t displaced;	   /* bytes from entry the jump replaced */
	struct tt_reloc_map map;   /* its instructions, where each is in the copy (stop.c) */
	bool straddles;		   /* the jump's first two bytes cross a cache line */
	const char *refusal;	   /* why, found with the world stopped: said after it */
	uintptr_t base;		   /* the object's load address, and its build ID: */
	const uint8_t *build_id;   /* the check's answer may be kept (xref_cache.h) */
	size_t build_id_len;
	bool trap; /* too short for the jump: an int3 (trap.c) */
};

/* A batch's arrays, as long as the functions there are (grow_batch): one batch at a time,
 * under the loader lock. */
static struct planned *batch;
static struct tt_xref_range *batch_ranges; /* check_foreign_jumps's */
static struct tt_patch *writes;		   /* commit's entry jumps, written together */
static uint8_t (*jumps)[5];
static size_t batch_cap;
static uint8_t *calibration_slot;

/* tt_inline_defer_write's write: set until a batch writes it (then done) or it is dropped. */
static struct tt_patch deferred;
static uint8_t deferred_bytes[5];
static bool deferred_set, deferred_done;

void tt_inline_defer_write(uint8_t *at, const uint8_t bytes[5], int prot)
{
	memcpy(deferred_bytes, bytes, sizeof(deferred_bytes));
	deferred = (struct tt_patch){ at, deferred_bytes, sizeof(deferred_bytes), prot, 0 };
	deferred_set = true;
	deferred_done = false;
}

bool tt_inline_deferred_result(int *err)
{
	bool done = deferred_done;

	*err = deferred.err;
	deferred_set = deferred_done = false;
	return done;
}

void tt_inline_start(enum tt_hook_mode m)
{
	mode = m;
	enabled = mode != TT_HOOK_GOT;
	if (!enabled)
		return;
	/* At start-up, not with the decoder: the program's signal masks are kept free of
	 * SIGTRAP from its first call on (trap.c), and the stop's signal is chosen before the
	 * program can take the one it would have been (stop.c). */
	tt_stop_prepare();
	tt_trap_allow();
}

bool tt_inline_decoder(void)
{
	static bool tried;
	const char *why;

	if (!enabled || tried)
		return enabled && tt_disasm_ready();
	tried = true;
	why = tt_disasm_load(); /* ~0.3 ms here: mapping and relocating libZydis */
	if (why) {
		tt_warn("TSC_HOOK=%s: %s: functions are hooked through their GOT slots only",
			mode == TT_HOOK_INLINE ? "inline" : "auto", why);
		enabled = false;
		return false;
	}
	tt_patch_init();
	return true;
}

bool tt_inline_pending(void)
{
	uint32_t i, count = tt_funcs_count();

	for (i = 1; i < count; i++) {
		struct tt_func *f = tt_funcs_get(i);

		if (f && !f->unloaded && !f->route_decided)
			return true;
	}
	return false;
}

bool tt_inline_enabled(void)
{
	return enabled;
}

bool tt_inline_got_only(void)
{
	return mode == TT_HOOK_GOT;
}

struct segment {
	uintptr_t addr;
	size_t size;	      /* the function's, from its symbol (0: unknown) */
	uintptr_t start, end; /* of the executable segment holding addr */
	int prot;
	size_t eh_size;
	size_t padded; /* size, or more: the padding after a short function */
	uintptr_t base;
	const uint8_t *build_id;
	size_t build_id_len;
};

/* Bytes of one padding instruction at p (nop in any of its forms, int3), or 0. */
static size_t padding_len(const uint8_t *p, size_t avail, uintptr_t at)
{
	struct tt_insn in;
	size_t i = 0;

	if (tt_disasm_decode(p, avail, at, &in) < 0)
		return 0;
	while (i < in.len && (p[i] == 0x66 || p[i] == 0x2e)) /* operand size, cs: long nops */
		i++;
	if (i < in.len && (p[i] == 0x90 || p[i] == 0xcc) && in.len == i + 1)
		return in.len;
	if (i + 1 < in.len && p[i] == 0x0f && p[i + 1] == 0x1f) /* nopl/nopw with ModRM */
		return in.len;
	return 0;
}

static uint64_t name_hash(const char *s);

/*
 * True when a symbol of o, dynamic or in its file's .symtab, of code or data, starts within
 * [lo, hi): bytes that look like padding there are something's (a constant in .text). The
 * starts of the last object asked about are kept, sorted: a glob over a whole library asks
 * once per short function. With no memory for them, the answer is "a symbol may be there".
 */
static bool symbol_starts_within(const struct tt_elf *o, uintptr_t lo, uintptr_t hi,
				 uintptr_t seg_lo, uintptr_t seg_hi)
{
	static struct {
		uintptr_t seg_lo, seg_hi, base;
		uint64_t name_hash;
		struct tt_code_ranges starts;
		bool used;
	} last;
	uint64_t h = name_hash(o->name);

	if (!last.used || last.seg_lo != seg_lo || last.seg_hi != seg_hi || last.base != o->base ||
	    last.name_hash != h) {
		tt_code_ranges_free(&last.starts);
		last.used = tt_symbol_starts_of(o, seg_lo, seg_hi, &last.starts) == 0;
		last.seg_lo = seg_lo;
		last.seg_hi = seg_hi;
		last.base = o->base;
		last.name_hash = h;
	}
	return !last.used || tt_code_ranges_start_within(&last.starts, lo, hi);
}

/*
 * A function shorter than the jump (`xor %eax,%eax; ret`): the jump may also cover what
 * follows it, if that is provably padding: only nop and int3 instructions, no other
 * function's unwind entry starting among them (compilers give every function one), and no
 * symbol (data in .text may hold such bytes). Then the
 * displaced bytes are the whole function and that padding, relocated as they are: the
 * function returns before the padding would run. Returns the size the patch may use.
 */
static size_t with_padding(const struct tt_elf *o, const uint8_t *code, size_t size,
			   uintptr_t seg_start, uintptr_t seg_end)
{
	size_t need = TT_PATCH_LEN, off = size, n;

	if (size >= 4 && memcmp(code, "\xf3\x0f\x1e\xfa", 4) == 0)
		need += 4; /* the jump goes after the endbr64 */
	while (off < need) {
		if ((uintptr_t)code + off >= seg_end || tt_eh_extent(o, (uintptr_t)code + off) != 0)
			return size;
		n = padding_len(code + off, seg_end - ((uintptr_t)code + off),
				(uintptr_t)code + off);
		if (!n)
			return size;
		off += n;
	}
	for (n = size + 1; n < off; n++) /* no unwind entry starts inside a long nop either */
		if (tt_eh_extent(o, (uintptr_t)code + n) != 0)
			return size;
	if (symbol_starts_within(o, (uintptr_t)code + size, (uintptr_t)code + off, seg_start,
				 seg_end))
		return size;
	return off;
}

static int segment_cb(struct tt_elf *o, void *arg)
{
	struct segment *s = arg;
	const ElfW(Phdr) *ph = tt_elf_exec_phdr(o, s->addr);

	if (!ph)
		return 0;
	s->start = o->base + ph->p_vaddr;
	s->end = s->start + ph->p_memsz;
	s->prot = tt_elf_phdr_prot(ph);
	s->eh_size = tt_eh_extent(o, s->addr);
	s->base = o->base;
	s->build_id = tt_elf_build_id(o, &s->build_id_len);
	s->padded = s->size ? s->size : s->eh_size;
	if (s->padded && s->padded < TT_PATCH_LEN + 4 && tt_disasm_ready())
		s->padded = with_padding(o, (const uint8_t *)s->addr, s->padded, s->start, s->end);
	return 1;
}

/*
 * Calls sampling passes over are counted in the slot itself (slot_code.h) when sampling is on
 * and they need no frame (no TSC_CALLERS): both fixed before the first hook is made.
 */
static bool counting_heads(void)
{
	return tt_funcs_counting();
}

/* Where a slot's relocated entry goes, after its head. */
static size_t slot_copy(void)
{
	return counting_heads() ? TT_SLOT_COUNT_COPY : TT_SLOT_PLAIN_COPY;
}

/* A slot: its head (slot_code.h), then the relocated entry that the body calls and that a
 * counted call falls into. */
static void write_slot(uint8_t *slot, uint32_t index, const struct tt_reloc *r)
{
	struct tt_slot_head h = { .index = index,
				  .tls_offset = tt_stubs_tls_offset(),
				  .body = (uint64_t)(uintptr_t)tt_funcs_inline_body(),
				  .timed = (uint64_t)(uintptr_t)tt_funcs_inline_timed() };

	memset(slot, 0xcc, TT_POOL_SLOT); /* int3 between the parts */
	if (counting_heads() && tt_slot_can_count(index))
		tt_slot_write_counting(slot, &h);
	else
		tt_slot_write_plain(slot, &h);
	memcpy(slot + slot_copy(), r->copy, r->copy_len);
}

/*
 * With a shadow stack (CET, glibc 2.39+ on Linux 6.6+, when every object is marked) a callee
 * reached by push + jmp would return to an address the shadow stack never saw: a #CP fault.
 * ARCH_SHSTK_STATUS fails on kernels without shadow stacks, which is "off".
 */
static bool shadow_stack_on(void)
{
	static int on = -1;
	unsigned long features = 0;

	if (on < 0)
		on = tt_syscall3(SYS_arch_prctl, 0x5005 /* ARCH_SHSTK_STATUS */, &features, 0) ==
			     0 &&
		     (features & 1 /* ARCH_SHSTK_SHSTK */);
	return on;
}

/* True for glibc's own objects (libc, the dynamic loader, its compatibility libraries). */
static bool of_glibc(const char *path)
{
	static const char *const names[] = { "libc.so",	      "libc-",	  "ld-linux",
					     "libpthread.so", "librt.so", "libdl.so" };
	const char *base = path ? strrchr(path, '/') : NULL;
	size_t i;

	base = base ? base + 1 : path;
	for (i = 0; base && i < sizeof(names) / sizeof(names[0]); i++)
		if (strncmp(base, names[i], strlen(names[i])) == 0)
			return true;
	return false;
}

/*
 * The function's own jumps back into its displaced bytes (relocate.h): the whole function
 * decoded, most of a plan's cost, for an answer that depends only on the object's code. So it
 * is kept between runs beside the foreign-jump answers (xref_cache.h), its question told
 * apart by the top bit of lo: lo, the function's offset; hi, the end of the displaced bytes
 * from it; own_lo and own_hi, its extent. An object without a build ID is scanned each time.
 */
#define OWN_SCAN (1ull << 63)

/* plan()'s answer when it needs the decoder, not loaded yet. */
static const char need_decoder[] = "no instruction decoder";

static const char *own_jumps(const uint8_t *addr, size_t size, const struct tt_reloc *r,
			     const struct segment *seg, char *why, size_t why_size)
{
	size_t end = r->patch_at + r->displaced;
	uint64_t off = (uintptr_t)addr - seg->base;
	struct tt_xref_answer a = {
		.lo = OWN_SCAN | off, .hi = end, .own_lo = off, .own_hi = off + size
	};
	struct tt_reloc_scan scan;

	if (tt_xref_cache_get(seg->build_id, seg->build_id_len, &a) &&
	    a.hit <= TT_SCAN_UNDECODABLE) {
		scan.what = a.hit;
		scan.off = a.from;
	} else if (!tt_disasm_ready()) {
		return need_decoder;
	} else {
		tt_reloc_scan(addr, size, (uintptr_t)addr, end, r->patch_at, &scan);
		a.hit = scan.what;
		a.from = scan.off;
		tt_xref_cache_put(seg->build_id, seg->build_id_len, &a);
	}
	return tt_reloc_scan_why(&scan, end, why, why_size);
}

/*
 * The plan an earlier run kept for the function at addr (plan_cache.h), for its copy at
 * copy_addr: into r, with the bytes it used into *size and whether it is a trap. The key
 * is the length before padding, which needs the decoder to find.
 */
static bool kept_plan(const struct segment *seg, uint8_t *addr, uint8_t *copy, struct tt_reloc *r,
		      size_t *size, bool *trap)
{
	size_t avail = seg->end - (uintptr_t)addr;
	uint64_t key = seg->size ? seg->size : seg->eh_size;
	uint32_t used;

	for (uint32_t kind = TT_PLAN_ENTRY; kind <= TT_PLAN_TRAP; kind++)
		if (tt_plan_cache_get(seg->build_id, seg->build_id_len, (uintptr_t)addr - seg->base,
				      key, kind, addr, avail, (uint64_t)(uintptr_t)copy, r,
				      &used) &&
		    used <= avail) {
			*size = used;
			*trap = kind == TT_PLAN_TRAP;
			return true;
		}
	return false;
}

static void keep_plan(const struct segment *seg, const uint8_t *addr, const struct tt_reloc *r,
		      size_t size, bool trap)
{
	struct tt_reloc_kept k;

	if (tt_reloc_keep(r, addr, trap ? size : r->patch_at + r->displaced,
			  (uintptr_t)addr - seg->base, seg->size ? seg->size : seg->eh_size,
			  trap ? TT_PLAN_TRAP : TT_PLAN_ENTRY, (uint32_t)size, &k))
		tt_plan_cache_put(seg->build_id, seg->build_id_len, &k);
}

/*
 * Plan f (or the calibration function when f is NULL) into batch[*n]; NULL or why not. A
 * plan kept by an earlier run is used without the decoder; without one, need_decoder
 * while the decoder is not loaded (tt_inline_hook_new loads it and asks again).
 */
static const char *plan(struct tt_func *f, unsigned int *n, char *why, size_t why_size)
{
	uint8_t *addr = f ? f->addr : (uint8_t *)tt_calib_inline;
	struct segment seg = { .addr = (uintptr_t)addr, .size = f ? f->size : 0 };
	struct tt_reloc r;
	size_t size;
	uint8_t *slot;
	const char *err = NULL;
	bool trap, kept;

	if (!tt_elf_foreach(segment_cb, &seg) || !seg.end)
		return "its code is not in a loaded object's executable segment";
	size = seg.padded;
	if (!size)
		return "its length is unknown (no symbol size, no unwind entry)";
	if (size > seg.end - (uintptr_t)addr)
		size = seg.end - (uintptr_t)addr;
	slot = tt_pool_take((uintptr_t)addr);
	if (!slot)
		return "no memory could be mapped within jump range of it";
	kept = kept_plan(&seg, addr, slot + slot_copy(), &r, &size, &trap);
	/* The entry's plan; the function's own jumps are the kept answer's. The calibration's
	 * function has none (tramp/calib.S: endbr64, a 5-byte nop, ret): no file of answers
	 * is opened for it at start-up. */
	if (kept) {
		err = trap || !f ? NULL : own_jumps(addr, size, &r, &seg, why, why_size);
		goto planned;
	}
	if (!tt_disasm_ready()) {
		tt_pool_release(slot);
		return need_decoder;
	}
	trap = f && size < (size >= 4 && memcmp(addr, "\xf3\x0f\x1e\xfa", 4) == 0 ? 4 : 0) +
				    TT_PATCH_LEN;
	if (trap && of_glibc(f->object)) {
		tt_pool_release(slot);
		return "it is shorter than the 5-byte jump, and glibc's functions get no trap: "
		       "glibc "
		       "blocks every signal around some of its own calls, and an int3 met with "
		       "SIGTRAP blocked kills the process";
	}
	if (trap) /* the whole function copied; the signal brings its calls to the slot */
		err = tt_reloc_whole(addr, size, (uint64_t)(uintptr_t)addr,
				     (uint64_t)(uintptr_t)(slot + slot_copy()), &r, why, why_size);
	else
		err = tt_reloc_plan_entry(addr, size, (uint64_t)(uintptr_t)addr,
					  (uint64_t)(uintptr_t)(slot + slot_copy()), &r, why,
					  why_size);
	if (!err) /* kept even if its own jumps refuse it: that answer is kept too */
		keep_plan(&seg, addr, &r, size, trap);
	if (!err && !trap)
		err = own_jumps(addr, size, &r, &seg, why, why_size);
planned:
	if (!err && r.call_moved && shadow_stack_on())
		err = "a call among its first instructions, which cannot be moved while the "
		      "shadow stack is on";
	if (err) {
		tt_pool_release(slot);
		return err;
	}
	write_slot(slot, f ? f->index : 0, &r);
	batch[*n] = (struct planned){
		.f = f,
		.func = addr,
		.displaced = r.displaced,
		.map = r.map,
		.straddles = !trap && ((uintptr_t)(addr + r.patch_at) & 63) == 63,
		.entry = addr + r.patch_at,
		.slot = slot,
		.prot = seg.prot,
		.seg_lo = seg.start,
		.seg_hi = seg.end,
		.xref = { .lo = (uintptr_t)addr + r.patch_at + 1,
			  .hi = (uintptr_t)addr + r.patch_at + r.displaced,
			  .own_lo = (uintptr_t)addr,
			  .own_hi = (uintptr_t)addr + size },
		.base = seg.base,
		.build_id = seg.build_id,
		.build_id_len = seg.build_id_len,
		.trap = trap,
	};
	(*n)++;
	return NULL;
}

/*
 * The route of f is settled (f->route says which). Until then dlsym hands out no stub for it:
 * a call through a stub whose target is still the entry, reaching the entry just patched,
 * would be counted twice.
 */
static void decided(struct tt_func *f)
{
	__atomic_store_n(&f->route_decided, true, __ATOMIC_RELEASE);
}

/* Once per function: an object dlopened and closed a thousand times is refused each time. */
static void refused(struct tt_func *f, const char *why)
{
	if (f->refusal_said)
		;
	else if (f->local)
		tt_warn("%s (in %s): not patched inline (%s); it is not exported, so no GOT slot "
			"reaches it: not traced",
			f->name, f->object, why);
	else if (mode == TT_HOOK_INLINE)
		tt_warn("%s: not patched inline (%s): traced through its GOT slots", f->name, why);
	else
		tt_info("%s: not patched inline (%s): traced through its GOT slots", f->name, why);
	f->refusal_said = true;
	/* Atomic: dlsym reads it without the loader lock (funcs.c tt_funcs_stub_for). */
	__atomic_store_n(&f->route, f->local ? TT_ROUTE_NONE : TT_ROUTE_GOT, __ATOMIC_RELAXED);
	decided(f);
}

/* The jump at `entry`, to the slot (within reach: pool.c maps it near). */
static void entry_jump(const struct planned *p, uint8_t jump[5])
{
	int32_t rel32 = (int32_t)((uintptr_t)p->slot - ((uintptr_t)p->entry + 5));

	jump[0] = 0xe9;
	memcpy(jump + 1, &rel32, 4);
}

/*
 * The known code ranges of each executable segment an inline hook was planned in, read once
 * (the .symtab is a file read) and kept while the same object stays loaded there: what
 * tt_xref_scan decodes candidates within. An object is told by its load bias and a hash of
 * its name; a slot is reused round-robin when all are taken (its segment is read again if
 * needed).
 */
#define KNOWN_OBJECTS 32

static struct known_code {
	uintptr_t seg_lo, seg_hi, base;
	uint64_t name_hash;
	struct tt_code_ranges ranges;
	bool used;
} known[KNOWN_OBJECTS];
static unsigned int known_next;

struct known_find {
	uintptr_t seg_lo, seg_hi;
	struct known_code *found;
};

static uint64_t name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325u; /* FNV-1a */

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 0x100000001b3u;
	return h;
}

static int known_cb(struct tt_elf *o, void *arg)
{
	struct known_find *c = arg;
	uint64_t h;
	struct known_code *k;
	unsigned int i;

	if (!tt_elf_in_exec(o, c->seg_lo))
		return 0;
	h = name_hash(o->name);
	for (i = 0; i < KNOWN_OBJECTS; i++) {
		k = &known[i];
		if (!k->used || k->seg_lo != c->seg_lo)
			continue;
		if (k->seg_hi == c->seg_hi && k->base == o->base && k->name_hash == h) {
			c->found = k;
			return 1;
		}
		tt_code_ranges_free(&k->ranges); /* another object there now */
		k->used = false;
	}
	k = &known[known_next++ % KNOWN_OBJECTS];
	tt_code_ranges_free(&k->ranges);
	*k = (struct known_code){ c->seg_lo, c->seg_hi, o->base, h, { 0 }, true };
	if (tt_code_ranges_of(o, c->seg_lo, c->seg_hi, &k->ranges) < 0)
		k->used = false; /* no memory: the byte scan alone, this time */
	else
		c->found = k;
	return 1;
}

/* The known code ranges of the segment [lo, hi), or NULL. */
static const struct tt_code_ranges *known_code(uintptr_t lo, uintptr_t hi)
{
	struct known_find c = { lo, hi, NULL };

	tt_elf_foreach(known_cb, &c);
	return c.found ? &c.found->ranges : NULL;
}

/* The question of p for the cache: offsets from its object's load address. */
static struct tt_xref_answer question_of(const struct planned *p)
{
	return (struct tt_xref_answer){ .lo = p->xref.lo - p->base,
					.hi = p->xref.hi - p->base,
					.own_lo = p->xref.own_lo - p->base,
					.own_hi = p->xref.own_hi - p->base };
}

/* True, with p->xref answered, when an earlier run kept the answer for p's object. */
static bool cached_answer(struct planned *p)
{
	struct tt_xref_answer a = question_of(p);

	if (!tt_xref_cache_get(p->build_id, p->build_id_len, &a))
		return false;
	p->xref.hit = a.hit;
	p->xref.unproven = a.hit && a.unproven;
	p->xref.from = a.from + p->base;
	return true;
}

static void keep_answer(const struct planned *p)
{
	struct tt_xref_answer a = question_of(p);

	a.hit = p->xref.hit;
	a.unproven = p->xref.hit && p->xref.unproven;
	a.from = p->xref.hit ? p->xref.from - p->base : 0;
	tt_xref_cache_put(p->build_id, p->build_id_len, &a);
}

/* Said of a jump read from bytes that neither a symbol nor an unwind entry shows to be
 * code (stripped code without unwind tables, or data): it may be no jump at all. */
static const char unproven_note[] =
	", read byte by byte where no symbol or unwind entry shows where instructions start";

/*
 * Jumps from other code of the same objects into the patched bytes: one scan per segment,
 * its candidates decoded within the segment's known code ranges (byte patterns elsewhere).
 * Refused functions are taken out of the batch; returns how many are left.
 */
static unsigned int check_foreign_jumps(unsigned int n)
{
	struct tt_xref_range *ranges = batch_ranges;
	unsigned int i, j, k, kept = 0;
	char why[200];

	for (i = 0; i < n; i++) {
		uintptr_t lo = batch[i].seg_lo, hi = batch[i].seg_hi;
		const struct tt_code_ranges *code;
		bool all_known = true;

		/* A trap rewrites one byte: no jump can land inside it. */
		if (!batch[i].f || batch[i].trap || lo == 0)
			continue;
		for (j = i, k = 0; j < n; j++) /* every function of this segment */
			if (batch[j].f && !batch[j].trap && batch[j].seg_lo == lo) {
				all_known &= cached_answer(&batch[j]);
				ranges[k++] = batch[j].xref;
			}
		if (!all_known) {
			tt_inline_decoder(); /* no plan needed it, the scan does */
			code = known_code(lo, hi);
			tt_xref_scan((const uint8_t *)lo, hi - lo, lo, code ? code->r : NULL,
				     code ? code->n : 0, ranges, k);
		}
		for (j = i, k = 0; j < n; j++)
			if (batch[j].f && !batch[j].trap && batch[j].seg_lo == lo) {
				batch[j].xref = ranges[k++];
				batch[j].seg_lo = 0; /* scanned */
				if (!all_known)
					keep_answer(&batch[j]);
			}
	}
	tt_xref_cache_flush();
	for (i = 0; i < n; i++) {
		struct planned *p = &batch[i];

		if (p->f && !p->trap && p->xref.hit) {
			snprintf(why, sizeof(why),
				 "a jump from %+lld bytes away lands inside its "
				 "first instructions%s",
				 (long long)(p->xref.from - (uintptr_t)p->entry),
				 p->xref.unproven ? unproven_note : "");
			tt_pool_release(p->slot);
			refused(p->f, why);
			continue;
		}
		batch[kept++] = *p;
	}
	return kept;
}

/*
 * A trap: the slot's entry is where the handler sends the trap, so the call goes on as an
 * inline hook's would (every register kept, the inline body); then the int3 itself.
 */
static unsigned int commit_trap(const struct planned *p)
{
	struct tt_func *f = p->f;
	const char *err = NULL;

	if (tt_trap_add(p->entry, p->slot) < 0)
		err = "no memory for its trap";
	else if (tt_trap_arm() < 0)
		err = "the SIGTRAP handler could not be installed";
	else if (tt_trap_write(p->entry, p->prot) < 0)
		err = "its code cannot be made writable";
	if (err) {
		tt_trap_remove(p->entry);
		tt_func_set_target(f->index, f->addr);
		tt_pool_release(p->slot);
		refused(f, err);
		return 0;
	}
	if (f->refusal_said) /* once: an object dlopened a thousand times traps each time */
		;
	else if (f->local)
		tt_info("%s (in %s): shorter than the 5-byte jump: traced through a trap (int3), a "
			"signal per call (~2 us each, outside its times)",
			f->name, f->object);
	else
		tt_info("%s: shorter than the 5-byte jump: traced through a trap (int3), a signal "
			"per call (~2 us each, outside its times) but for calls through its GOT "
			"slots",
			f->name);
	f->refusal_said = true;
	f->slot = p->slot;
	f->patched_addr = f->addr;
	f->patched_at = p->entry;
	f->jump[0] = 0xcc;
	f->jump_len = 1;
	__atomic_store_n(&f->route, TT_ROUTE_TRAP, __ATOMIC_RELAXED);
	decided(f);
	return 1;
}

/*
 * A thread left asleep in a system call (stop.c: one with a relative timeout, or blocking the
 * stop's signal) is not moved: p is refused when one would resume inside its displaced bytes,
 * or, when p's entry straddles a cache line (its first two bytes are written apart), when
 * any thread was left asleep at all: it could wake meanwhile. A parked thread inside them
 * must be at one of its instructions, to resume in the copy.
 */
static void check_threads(struct planned *p, struct tt_stop_thread *t, size_t nt)
{
	uintptr_t lo = (uintptr_t)p->entry, hi = lo + p->displaced;
	size_t i;

	for (i = 0; i < nt && !p->refusal; i++) {
		bool inside = t[i].pc > lo && t[i].pc < hi;

		if (t[i].state == TT_STOP_ASLEEP && p->straddles)
			p->refusal = "its entry straddles a cache line, and a thread asleep in a "
				     "system call with a timeout, or blocking the stop's signal, "
				     "could wake while it is written";
		else if (t[i].state == TT_STOP_ASLEEP && inside)
			p->refusal = "a thread asleep in a system call would resume inside its "
				     "first instructions";
		else if (t[i].state == TT_STOP_PARKED && inside &&
			 tt_reloc_copy_offset(&p->map, t[i].pc - (uintptr_t)p->func) < 0)
			p->refusal = "a thread is stopped between two of its first instructions";
	}
}

/* Parked threads stopped inside p's displaced bytes resume at the same instruction of its
 * copy, which goes on into the function as they would have. Returns how many. */
static unsigned int move_threads(const struct planned *p, struct tt_stop_thread *t, size_t nt)
{
	uintptr_t lo = (uintptr_t)p->entry, hi = lo + p->displaced;
	unsigned int moved = 0;
	size_t i;
	long off;

	for (i = 0; i < nt; i++) {
		if (t[i].state != TT_STOP_PARKED || t[i].pc <= lo || t[i].pc >= hi)
			continue;
		off = tt_reloc_copy_offset(&p->map, t[i].pc - (uintptr_t)p->func);
		if (off >= 0) {
			tt_stop_move(&t[i], (uintptr_t)(p->slot + slot_copy() + off));
			moved++;
		}
	}
	return moved;
}

/* The bytes p's jump (or int3) replaces, for a detach (tt_inline_unhook_all): copied by
 * hand, the world being stopped (memcpy may be a traced function). */
static void keep_original(const struct planned *p)
{
	size_t i;

	for (i = 0; i < sizeof(p->f->saved); i++)
		p->f->saved[i] = p->entry[i];
	p->f->prot = p->prot;
	p->f->unhooked = false;
}

/* No thread could be stopped: the batch is refused, its slots given back. */
static unsigned int refuse_all(unsigned int n, const char *stop_why)
{
	char why[256];
	unsigned int i;

	snprintf(why, sizeof(why), "the other threads could not be stopped to write it: %s",
		 stop_why);
	for (i = 0; i < n; i++) {
		if (!batch[i].f) {
			calibration_slot = batch[i].slot; /* called directly: never written */
			continue;
		}
		refused(batch[i].f, why);
		tt_pool_release(batch[i].slot);
	}
	return 0;
}

/*
 * Steps 2 and 3 for a planned batch. With other threads, they are stopped first (stop.c):
 * none runs the entries while they are written, and one stopped inside displaced bytes is
 * moved into the copy.
 */
static unsigned int commit(unsigned int n)
{
	unsigned int i, k = 0, done = 0, moved = 0;
	struct tt_stop_thread *threads;
	char stop_why[160];
	static char trap_why[192];
	bool settled, blind, straddles;
	int trap_blocker;
	size_t nt;

	if (tt_pool_seal() < 0) {
		for (i = 0; i < n; i++) {
			if (batch[i].f)
				refused(batch[i].f, "its pool could not be made executable");
			tt_pool_release(batch[i].slot);
		}
		return 0;
	}
	/* Sleepers are woken and parked only for an entry that straddles a cache line: any other
	 * is safe for a thread that wakes while it is written (the three steps). */
	for (i = 0, straddles = false; i < n; i++)
		straddles |= batch[i].f && batch[i].straddles;
	if (tt_stop_world(straddles, stop_why, sizeof(stop_why)) < 0)
		return refuse_all(n, stop_why);
	/* From here to tt_stop_release: no libc, no lock, no allocation (a parked thread may
	 * hold any of them); lines are said after. */
	nt = tt_stop_threads(&threads);
	blind = tt_stop_blind();
	/* A thread that blocks SIGTRAP (a raw rt_sigprocmask, or the mask an exec kept: the
	 * wrappers keep it out otherwise): an int3 there would end the process, so no trap is
	 * armed in this batch. */
	for (i = 0, trap_blocker = 0; i < n && !trap_blocker; i++)
		if (batch[i].f && batch[i].trap)
			trap_blocker = tt_stop_blocker(SIGTRAP);
	/* Every stub's target at its copy first: a call reaching a new jump finds it there. */
	for (i = 0; i < n; i++) {
		struct planned *p = &batch[i];

		if (!p->f) { /* calibration: its slot is called directly, its entry stays */
			calibration_slot = p->slot;
			continue;
		}
		check_threads(p, threads, nt);
		if (p->trap && trap_blocker)
			p->refusal = trap_why; /* filled in once the world runs again */
		if (blind && p->straddles)
			p->refusal =
				"its entry straddles a cache line, and without /proc the other "
				"threads cannot be stopped while it is written";
		if (p->refusal)
			continue;
		tt_func_set_target(p->f->index, p->slot + slot_copy());
		keep_original(p);
		if (p->trap)
			continue; /* after the jumps, below */
		entry_jump(p, jumps[k]);
		writes[k] = (struct tt_patch){ p->entry, jumps[k], sizeof(jumps[k]), p->prot, 0 };
		k++;
	}
	/* The deferred write last (writes[k]): the entries' results keep their indexes. Nothing
	 * runs the code meanwhile: the other threads are parked, if any. */
	if (deferred_set)
		writes[k] = deferred;
	/* No other thread, and /proc said so: none can start while the world is stopped. */
	if (nt == 0 && !blind)
		tt_patch_write_all_alone(writes, k + deferred_set);
	else
		tt_patch_write_all(writes, k + deferred_set);
	if (deferred_set) {
		deferred.err = writes[k].err;
		deferred_set = false;
		deferred_done = true;
	}
	settled = tt_stop_settle(stop_why, sizeof(stop_why)) == 0;
	nt = tt_stop_threads(&threads);
	for (i = 0, k = 0; i < n; i++)
		if (batch[i].f && !batch[i].refusal && !batch[i].trap && !writes[k++].err)
			moved += move_threads(&batch[i], threads, nt);
	tt_stop_release();
	if (trap_blocker)
		snprintf(trap_why, sizeof(trap_why),
			 "thread %d blocks SIGTRAP (set with a raw rt_sigprocmask or before an "
			 "exec, "
			 "which no wrapper sees): an int3 met there would end the process",
			 trap_blocker);
	if (!settled)
		tt_info("after functions were patched inline, %s", stop_why);
	if (moved)
		tt_info("%u thread%s stopped inside the first instructions of a function patched "
			"inline resumed in its relocated copy",
			moved, moved == 1 ? "" : "s");
	for (i = 0, k = 0; i < n; i++) {
		struct planned *p = &batch[i];
		struct tt_func *f = p->f;

		if (!f)
			continue;
		if (p->refusal) {
			tt_pool_release(p->slot);
			refused(f, p->refusal);
			continue;
		}
		if (p->trap) {
			done += commit_trap(p);
			continue;
		}
		if (writes[k].err < 0) {
			k++;
			tt_func_set_target(f->index, f->addr);
			tt_pool_release(p->slot);
			refused(f, "its code cannot be made writable");
			continue;
		}
		f->slot = p->slot;
		f->patched_addr = f->addr;
		f->patched_at = p->entry;
		memcpy(f->jump, jumps[k++], sizeof(f->jump));
		f->jump_len = sizeof(f->jump);
		__atomic_store_n(&f->route, TT_ROUTE_INLINE, __ATOMIC_RELAXED);
		decided(f);
		done++;
	}
	return done;
}

/*
 * Functions whose object was unloaded, which came back at another address, or whose object
 * was unloaded and loaded again at the same address (fresh code, without our jump: seen
 * when a dlclose did not pass through our wrapper).
 */
static void release_stale(void)
{
	uint32_t i, count = tt_funcs_count();

	for (i = 1; i < count; i++) {
		struct tt_func *f = tt_funcs_get(i);

		if (!f || !f->slot)
			continue;
		if (!f->unloaded && f->patched_addr == f->addr &&
		    memcmp(f->patched_at, f->jump, f->jump_len) == 0)
			continue;
		if (f->jump_len == 1)
			tt_trap_remove(f->patched_at);
		if (!f->unloaded && f->patched_addr == f->addr) { /* reloaded in place */
			tt_func_set_target(f->index, f->addr);
			__atomic_store_n(&f->route, TT_ROUTE_GOT, __ATOMIC_RELAXED);
			__atomic_store_n(&f->route_decided, false, __ATOMIC_RELEASE);
		}
		tt_pool_release(f->slot);
		f->slot = NULL;
		f->patched_addr = NULL;
	}
}

/* The four arrays in one mapping (one mmap, and a short batch's arrays share a page or two),
 * unmapped when a larger one replaces it. */
static void *batch_map;
static size_t batch_map_len;

/* Room for every function there is and the calibration's: -1 when out of memory. A first
 * batch of a few names gets room for 16 (start-up traces a handful: no 1024-row arrays to
 * map), doubled as needed. */
static int grow_batch(size_t n)
{
	size_t cap = batch_cap ? batch_cap : 16, len;
	char *m;

	if (n <= batch_cap)
		return 0;
	while (cap < n)
		cap *= 2;
	/* cap is a power of two from 16: every array starts 16-byte aligned. */
	_Static_assert(_Alignof(struct planned) <= 16 && _Alignof(struct tt_xref_range) <= 16 &&
			       _Alignof(struct tt_patch) <= 16,
		       "the batch's arrays are carved at multiples of 16 bytes");
	len = cap * (sizeof(*batch) + sizeof(*batch_ranges) + sizeof(*writes) + sizeof(*jumps));
	m = tt_sys_mmap(NULL, len, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (batch_map)
		tt_sys_munmap(batch_map, batch_map_len);
	batch_map = m;
	batch_map_len = len;
	if (!m) { /* start over at the next batch */
		batch = NULL;
		batch_ranges = NULL;
		writes = NULL;
		jumps = NULL;
		batch_cap = 0;
		return -1;
	}
	batch = (struct planned *)(void *)m;
	batch_ranges = (struct tt_xref_range *)(void *)(m + cap * sizeof(*batch));
	writes = (struct tt_patch *)(void *)((char *)batch_ranges + cap * sizeof(*batch_ranges));
	jumps = (uint8_t(*)[5])(void *)((char *)writes + cap * sizeof(*writes));
	batch_cap = cap;
	return 0;
}

/* Not planned, or not inline: decided (and said, for a function no GOT slot reaches). */
static void not_inline(struct tt_func *f, bool room)
{
	if (f->local)
		refused(f, !room		 ? "no memory to plan its inline hook"
			   : mode == TT_HOOK_GOT ? "TSC_HOOK=got"
						 : "no instruction decoder");
	decided(f);
}

/*
 * Plan every function not decided yet: first from the plans earlier runs kept; then, only if
 * some function has none, with the decoder, loaded here for them (tt_inline_decoder).
 */
static unsigned int plan_all(uint32_t count, bool room)
{
	/* The functions whose plan waits for the decoder: in batch_ranges' memory, which
	 * check_foreign_jumps fills only after (one mapping fewer at start-up). */
	uint32_t *waiting = (uint32_t *)(void *)batch_ranges;
	uint32_t i, nd = 0;
	unsigned int n = 0;
	char why[160];
	const char *err;

	for (i = 1; i < count; i++) {
		struct tt_func *f = tt_funcs_get(i);

		if (!f || f->unloaded || f->route_decided)
			continue;
		if (!enabled || !room) {
			not_inline(f, room);
			continue;
		}
		err = plan(f, &n, why, sizeof(why));
		if (err == need_decoder)
			waiting[nd++] = i;
		else if (err)
			refused(f, err);
	}
	if (nd && !tt_inline_decoder()) {
		for (i = 0; i < nd; i++)
			not_inline(tt_funcs_get(waiting[i]), room);
		nd = 0;
	}
	for (i = 0; i < nd; i++) {
		struct tt_func *f = tt_funcs_get(waiting[i]);

		err = plan(f, &n, why, sizeof(why));
		if (err)
			refused(f, err);
	}
	if (n && !calibration_slot) {
		err = plan(NULL, &n, why, sizeof(why));
		if (err == need_decoder && tt_inline_decoder())
			err = plan(NULL, &n, why, sizeof(why));
		if (err)
			tt_warn("the inline path cannot be calibrated: %s", err);
	}
	return n;
}

unsigned int tt_inline_hook_new(void)
{
	uint32_t count = tt_funcs_count();
	unsigned int n;
	bool room;

	release_stale();
	room = grow_batch((size_t)count + 2) == 0; /* + the calibration's, + the deferred write */
	n = plan_all(count, room);
	n = check_foreign_jumps(n);
	tt_plan_cache_flush();
	if (n)
		tt_patch_init();
	return n ? commit(n) : 0;
}

void *tt_inline_calibration_entry(void)
{
	return calibration_slot;
}

void *tt_inline_calibration_target(void)
{
	return calibration_slot ? calibration_slot + slot_copy() : NULL;
}

/*
 * Write back, for every function hooked inline or by a trap, the bytes its hook replaced
 * (swap = false), or the hook again (swap = true, a second attach), with every other thread
 * stopped. A thread inside a trampoline or a relocated copy goes on there: the slots and the
 * stubs' targets stay as they are (never freed under a running thread), and each copy ends in
 * a jump back to the function's own code after its entry. A thread parked at a patched entry
 * runs the bytes that are there when it resumes: the jump is one instruction, so none can be
 * between its bytes. Returns how many entries were written, or -1 with why (nothing written).
 */
static int swap_all(bool hook, char *why, size_t why_size)
{
	uint32_t i, count = tt_funcs_count();
	size_t k = 0;
	int failed;

	if (grow_batch(count) < 0) {
		snprintf(why, why_size, "no memory for the list of entries");
		return -1;
	}
	if (tt_stop_world(true, why, why_size) < 0)
		return -1;
	for (i = 1; i < count; i++) {
		struct tt_func *f = tt_funcs_get(i);

		if (!f || !f->slot || f->unloaded || f->unhooked == !hook)
			continue;
		if (f->route != TT_ROUTE_INLINE && f->route != TT_ROUTE_TRAP)
			continue;
		/* A trap's int3 is written as two bytes, the second the function's own. */
		if (f->jump_len == 1)
			f->jump[1] = f->saved[1];
		writes[k] = (struct tt_patch){ f->patched_at, hook ? f->jump : f->saved,
					       f->jump_len < 2 ? 2 : f->jump_len, f->prot, 0 };
		k++;
	}
	if (!k) {
		tt_stop_release();
		return 0;
	}
	failed = (int)tt_patch_write_all(writes, k);
	tt_stop_release();
	for (i = 1, k = 0; i < count; i++) {
		struct tt_func *f = tt_funcs_get(i);

		if (!f || !f->slot || f->unloaded || f->unhooked == !hook)
			continue;
		if (f->route != TT_ROUTE_INLINE && f->route != TT_ROUTE_TRAP)
			continue;
		if (!writes[k++].err)
			f->unhooked = !hook;
	}
	if (failed)
		snprintf(why, why_size, "%d entr%s could not be made writable", failed,
			 failed == 1 ? "y" : "ies");
	return (int)k - failed;
}

int tt_inline_unhook_all(char *why, size_t why_size)
{
	return swap_all(false, why, why_size);
}

int tt_inline_rehook_all(char *why, size_t why_size)
{
	return swap_all(true, why, why_size);
}
