/*
 * pool.c - see pool.h. A page is asked of the kernel without a hint first (it lands below
 * the libraries, usually within reach); else at fixed hints stepping away from the code in
 * 1 MiB steps (MAP_FIXED_NOREPLACE: an occupied hint fails rather than clobbering), below
 * the code first, where a PIE program and the libraries mapped top-down leave room. Raw
 * system calls: mmap or mprotect may be among the traced functions.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/mman.h>

#include "base/chunked.h"
#include "base/sys.h"
#include "hook/pool.h"
#include "hot/tramp_layout.h"

#define PAGE 4096u
#define SLOTS (PAGE / TT_POOL_SLOT)
#define REACH (1ull << 30)
#define STEP (1ull << 20)

struct page {
	uint8_t *base;
	unsigned int used; /* slots handed out */
	unsigned int live; /* handed out and not released */
	bool sealed;
};

static struct tt_chunked pages; /* struct page, as many as were ever mapped */
static uint32_t npages;		/* entries [0, npages) are reserved (a page each, or free) */
static uint32_t current;	/* the page slots came from last: tried first */

static struct page *page_at(uint32_t i)
{
	return tt_chunked_at(&pages, i, sizeof(struct page));
}

static bool near_enough(uintptr_t a, uintptr_t b)
{
	return (a > b ? a - b : b - a) < REACH - PAGE;
}

static uint8_t *map_at(uintptr_t hint, uintptr_t near, size_t bytes)
{
	uint8_t *p = tt_sys_mmap((void *)hint, bytes, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);

	if (p && !(near_enough((uintptr_t)p, near) && near_enough((uintptr_t)p + bytes, near))) {
		/* a kernel that ignored the flag */
		tt_sys_munmap(p, bytes);
		p = NULL;
	}
	return p;
}

/* Where the kernel puts a mapping unasked: just below the lowest one, within reach of the
 * libraries unless a gigabyte lies between. *kernel_at is where the last one landed (0: not
 * asked yet); the kernel is not asked again for code it was far from. */
static uint8_t *map_anywhere(uintptr_t near, size_t bytes, uintptr_t *kernel_at)
{
	uint8_t *p;

	if (*kernel_at && !near_enough(*kernel_at, near))
		return NULL;
	p = tt_sys_mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!p)
		return NULL;
	*kernel_at = (uintptr_t)p;
	if (near_enough((uintptr_t)p, near) && near_enough((uintptr_t)p + bytes, near))
		return p;
	tt_sys_munmap(p, bytes);
	return NULL;
}

uint8_t *tt_pool_map_near(uintptr_t near, size_t bytes)
{
	static uintptr_t last_end;    /* just after the last mapping made here */
	static uintptr_t kernel_at;   /* see map_anywhere */
	static bool last_from_kernel; /* the last mapping was placed by the kernel */
	uintptr_t start = near & ~(uintptr_t)(STEP - 1), d;
	uint8_t *p;

	/* The kernel's choice first while it served: it maps top-down, so the place right after
	 * its last mapping is already taken. Then right after the last one: thousands of hooks
	 * would otherwise probe, page after page, every hint the earlier pages already took.
	 * Each probe below costs a failed mmap: about twenty of them step over the libraries
	 * and the shim's own regions. */
	if ((last_from_kernel && (p = map_anywhere(near, bytes, &kernel_at))) ||
	    (last_end && near_enough(last_end, near) && (p = map_at(last_end, near, bytes)))) {
		last_end = (uintptr_t)p + bytes;
		return p;
	}
	if (!last_from_kernel && (p = map_anywhere(near, bytes, &kernel_at))) {
		last_end = (uintptr_t)p + bytes;
		last_from_kernel = true;
		return p;
	}
	last_from_kernel = false;
	for (d = STEP; d < REACH - STEP; d += STEP) {
		if ((start > d + (1u << 16) && (p = map_at(start - d, near, bytes))) ||
		    (start + d < (1ull << 47) - STEP && (p = map_at(start + d, near, bytes)))) {
			last_end = (uintptr_t)p + bytes;
			return p;
		}
	}
	return NULL;
}

uint8_t *tt_pool_take(uintptr_t near)
{
	struct page *free_entry = NULL, *cur = npages ? page_at(current) : NULL;
	uint32_t i, free_index = 0;

	/* Most hooks of a batch are in one object: its page, without a scan of them all. */
	if (cur && cur->base && !cur->sealed && cur->used < SLOTS &&
	    near_enough((uintptr_t)cur->base, near)) {
		cur->live++;
		return cur->base + TT_POOL_SLOT * cur->used++;
	}
	for (i = 0; i < npages; i++) {
		struct page *pg = page_at(i);

		if (!pg->base) {
			if (!free_entry) {
				free_entry = pg;
				free_index = i;
			}
			continue;
		}
		if (!pg->sealed && pg->used < SLOTS && near_enough((uintptr_t)pg->base, near)) {
			current = i;
			pg->live++;
			return pg->base + TT_POOL_SLOT * pg->used++;
		}
	}
	if (!free_entry) {
		if (npages == UINT32_MAX ||
		    tt_chunked_reserve(&pages, (uint64_t)npages + 1, sizeof(struct page)) < 0)
			return NULL;
		free_index = npages;
		free_entry = page_at(npages);
	}
	if (!(free_entry->base = tt_pool_map_near(near, PAGE)))
		return NULL;
	free_entry->used = 1;
	free_entry->live = 1;
	free_entry->sealed = false;
	if (free_index == npages)
		npages++;
	current = free_index;
	return free_entry->base;
}

int tt_pool_seal(void)
{
	int ret = 0;
	uint32_t i;

	for (i = 0; i < npages; i++) {
		struct page *pg = page_at(i);

		if (!pg->base || pg->sealed)
			continue;
		if (tt_sys_mprotect(pg->base, PAGE, PROT_READ | PROT_EXEC) < 0)
			ret = -1;
		pg->sealed = true;
	}
	return ret;
}

void tt_pool_release(uint8_t *slot)
{
	uint32_t i;

	for (i = 0; i < npages; i++) {
		struct page *pg = page_at(i);

		if (!pg->base || slot < pg->base || slot >= pg->base + PAGE)
			continue;
		if (--pg->live == 0 && pg->sealed) {
			tt_sys_munmap(pg->base, PAGE);
			pg->base = NULL;
		}
		return;
	}
}
