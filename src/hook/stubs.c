/*
 * stubs.c - see stubs.h.
 *
 * A GOT slot or a dlsym answer points at function i's stub: `endbr64; mov %rax, -8(%rsp);
 * mov $tls, %rax; mov $i, %r11d; jmp body` (32 bytes, int3 to fill), so that the body knows
 * which function it times without a look-up, and where this library's TLS block lies
 * (tt_tls's offset from the thread pointer, fixed once the library is loaded) without the
 * load from the GOT that would otherwise head the dependent loads of its entry. The stubs are written here, a page of 256 at a time as functions are
 * added, within reach of the body's rel32 jump: the table is as long as the functions traced,
 * for the one variant in use, instead of a fixed table per variant in the library's code.
 * A page is written, then made read+execute before any stub on it is handed out (W^X), and
 * never written again. Written by the bookkeeping under the loader lock (funcs.c); read by
 * anyone, through atomic loads of the page table.
 *
 * When calls sampling passes over are counted in place (funcs.h tt_funcs_counting), each stub
 * is TT_STUB_COUNT_SIZE bytes and counts them itself (slot_code.h), leaving through an
 * indirect jump of its own function's instead of the body's shared one.
 */
#include <string.h>
#include <sys/mman.h>

#include "base/chunked.h"
#include "base/sys.h"
#include "hook/pool.h"
#include "hook/slot_code.h"
#include "hook/stubs.h"
#include "hot/func_table.h"
#include "hot/thread.h"
#include "hot/tramp_layout.h"

#define PAGE 4096u
#define PER_PAGE (PAGE / stub_size)

static struct tt_chunked pages; /* uint8_t * by page number, NULL until written */
static uint32_t npages;		/* page numbers below this may be written */
static uint8_t *body, *timed;
static bool counting;
static uint32_t stub_size = TT_STUB_SIZE; /* TT_STUB_COUNT_SIZE when counting */
static int32_t tls_offset; /* of tt_tls from the thread pointer: what tt_tls@gottpoff holds */
static uintptr_t lowest = UINTPTR_MAX, highest; /* [lowest, highest) holds every page */

_Static_assert(TT_STUB_SIZE == 32, "the stub below is 32 bytes");
_Static_assert(PAGE % TT_STUB_COUNT_SIZE == 0 && TT_CHUNK_LEN % (PAGE / TT_STUB_SIZE) == 0,
	       "a page of stubs lies within one chunk of the words");

static void write_stub(uint8_t *p, uint32_t index)
{
	int32_t rel = (int32_t)((intptr_t)body - (intptr_t)(p + 27));

	if (counting && tt_slot_can_count(index)) {
		struct tt_stub_head h = {
			.index = index,
			.tls_offset = tls_offset,
			.target = (uint64_t)(uintptr_t)&tt_func_words(index)->target,
			.body = (uint64_t)(uintptr_t)body,
			.timed = (uint64_t)(uintptr_t)timed,
		};

		tt_stub_write_counting(p, &h);
		return;
	}
	memset(p, 0xcc, stub_size);		  /* int3 after the jump */
	memcpy(p, "\xf3\x0f\x1e\xfa", 4);	  /* endbr64: reached by indirect calls and jumps */
	memcpy(p + 4, "\x48\x89\x44\x24\xf8", 5); /* movq %rax, -8(%rsp) */
	memcpy(p + 9, "\x48\xc7\xc0", 3);	  /* movq $tls_offset, %rax (sign-extended) */
	memcpy(p + 12, &tls_offset, 4);
	p[16] = 0x41; /* movl $index, %r11d */
	p[17] = 0xbb;
	memcpy(p + 18, &index, 4);
	p[22] = 0xe9; /* jmp rel32 body */
	memcpy(p + 23, &rel, 4);
}

/* tt_tls's offset from the thread pointer (%fs:0 holds the pointer itself, x86-64 TLS ABI):
 * the same in every thread. -1 if it does not fit the stub's signed 32-bit immediate. */
static int find_tls_offset(void)
{
	uintptr_t tp;
	intptr_t off;

	__asm__("movq %%fs:0, %0" : "=r"(tp));
	off = (intptr_t)((uintptr_t)&tt_tls - tp);
	if (off < INT32_MIN || off > INT32_MAX)
		return -1;
	tls_offset = (int32_t)off;
	return 0;
}

static int make_page(uint32_t page, uint8_t **slot)
{
	uint8_t *p = tt_pool_map_near((uintptr_t)body, PAGE);
	uint32_t i;

	if (!p)
		return -1;
	/* A counting stub holds its function's words' address: the page's words exist first
	 * (mapped lazily, never moved: hot/func_table.h). */
	if (counting && tt_chunked_reserve(&tt_func_words_table, ((uint64_t)page + 1) * PER_PAGE,
					   sizeof(struct tt_func_words)) < 0) {
		tt_sys_munmap(p, PAGE);
		return -1;
	}
	for (i = 0; i < PER_PAGE; i++)
		write_stub(p + i * stub_size, page * PER_PAGE + i);
	if (tt_sys_mprotect(p, PAGE, PROT_READ | PROT_EXEC) < 0) {
		tt_sys_munmap(p, PAGE);
		return -1;
	}
	/* The bounds first: a reader that sees the page within them may look it up. */
	if ((uintptr_t)p < __atomic_load_n(&lowest, __ATOMIC_RELAXED))
		__atomic_store_n(&lowest, (uintptr_t)p, __ATOMIC_RELAXED);
	if ((uintptr_t)p + PAGE > __atomic_load_n(&highest, __ATOMIC_RELAXED))
		__atomic_store_n(&highest, (uintptr_t)p + PAGE, __ATOMIC_RELAXED);
	__atomic_store_n(slot, p, __ATOMIC_RELEASE);
	if (page >= __atomic_load_n(&npages, __ATOMIC_RELAXED))
		__atomic_store_n(&npages, page + 1, __ATOMIC_RELEASE);
	return 0;
}

int tt_stubs_start(void *variant_body, void *variant_timed, bool count)
{
	if (find_tls_offset() < 0)
		return -1;
	body = variant_body;
	timed = variant_timed;
	counting = count;
	stub_size = count ? TT_STUB_COUNT_SIZE : TT_STUB_SIZE;
	return tt_stubs_make(0);
}

int32_t tt_stubs_tls_offset(void)
{
	return tls_offset;
}

int tt_stubs_make(uint32_t index)
{
	uint32_t page = index / PER_PAGE;
	uint8_t **slot;

	if (!body || tt_chunked_reserve(&pages, (uint64_t)page + 1, sizeof(*slot)) < 0)
		return -1;
	slot = tt_chunked_at(&pages, page, sizeof(*slot));
	return __atomic_load_n(slot, __ATOMIC_ACQUIRE) ? 0 : make_page(page, slot);
}

void *tt_stubs_at(uint32_t index)
{
	uint8_t **slot = tt_chunked_at(&pages, index / PER_PAGE, sizeof(*slot));
	uint8_t *p = slot ? __atomic_load_n(slot, __ATOMIC_ACQUIRE) : NULL;

	return p ? p + (index % PER_PAGE) * stub_size : NULL;
}

bool tt_stubs_index(const void *addr, uint32_t *index)
{
	const uint8_t *a = addr;
	uint32_t i, n = __atomic_load_n(&npages, __ATOMIC_ACQUIRE);

	/* Asked of every GOT slot of every object: most addresses are nowhere near the stubs. */
	if ((uintptr_t)a < __atomic_load_n(&lowest, __ATOMIC_RELAXED) ||
	    (uintptr_t)a >= __atomic_load_n(&highest, __ATOMIC_RELAXED))
		return false;
	for (i = 0; i < n; i++) {
		uint8_t **slot = tt_chunked_at(&pages, i, sizeof(*slot));
		const uint8_t *p = slot ? __atomic_load_n(slot, __ATOMIC_ACQUIRE) : NULL;

		if (p && a >= p && a < p + PAGE) {
			*index = i * PER_PAGE + (uint32_t)(a - p) / stub_size;
			return true;
		}
	}
	return false;
}
