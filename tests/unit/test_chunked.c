/*
 * test_chunked.c - the growable table by 32-bit index: elements appear as chunks are
 * reserved, zeroed, and stay where they are while the table grows past 16 bits of index.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/chunked.h"

struct elem {
	uint64_t a, b, c;
};

static struct tt_chunked table;

static void test_grows_without_moving(void **state)
{
	struct elem *first, *e;
	uint32_t i;

	(void)state;
	assert_null(tt_chunked_at(&table, 0, sizeof(struct elem)));
	assert_int_equal(tt_chunked_reserve(&table, 1, sizeof(struct elem)), 0);
	first = tt_chunked_at(&table, 0, sizeof(struct elem));
	assert_non_null(first);
	first->a = 7;
	/* the rest of the first chunk came with it; the second did not */
	assert_non_null(tt_chunked_at(&table, TT_CHUNK_LEN - 1, sizeof(struct elem)));
	assert_null(tt_chunked_at(&table, TT_CHUNK_LEN, sizeof(struct elem)));
	/* past 16 bits of index: 70,000 elements, each written, the first where it was */
	assert_int_equal(tt_chunked_reserve(&table, 70000, sizeof(struct elem)), 0);
	for (i = 1; i < 70000; i++) {
		e = tt_chunked_at(&table, i, sizeof(struct elem));
		assert_non_null(e);
		assert_int_equal(e->a, 0);
		e->a = i;
	}
	assert_ptr_equal(tt_chunked_at(&table, 0, sizeof(struct elem)), first);
	assert_int_equal(first->a, 7);
	e = tt_chunked_at(&table, 65536, sizeof(struct elem));
	assert_int_equal(e->a, 65536);
	assert_ptr_equal(e + 1, tt_chunked_at(&table, 65537, sizeof(struct elem)));
	/* a reserve of less changes nothing */
	assert_int_equal(tt_chunked_reserve(&table, 5, sizeof(struct elem)), 0);
	assert_ptr_equal(tt_chunked_at(&table, 0, sizeof(struct elem)), first);
	assert_null(tt_chunked_at(&table, 3u * TT_CHUNK_LEN, sizeof(struct elem)));
	/* past every 32-bit index: refused before anything is mapped */
	assert_int_equal(tt_chunked_reserve(&table, (1ull << 32) + 1, sizeof(struct elem)), -1);
	assert_null(tt_chunked_at(&table, UINT32_MAX, sizeof(struct elem)));
	tt_chunked_release(&table, sizeof(struct elem));
	assert_null(tt_chunked_at(&table, 0, sizeof(struct elem)));
}

/* A release reads the directory only as far as it was used: a forked child releases three
 * tables, and reading all 512 KiB of each directory mapped 128 pages of zeros apiece. */
static void test_release_reads_only_what_was_reserved(void **state)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = sizeof(struct tt_chunked);
	size_t pages = (len + page - 1) / page, p;
	struct tt_chunked *t;
	unsigned char *in;

	(void)state;
	t = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	assert_true(t != MAP_FAILED);
	in = calloc(pages, 1);
	assert_non_null(in);
	assert_int_equal(tt_chunked_reserve(t, 3, sizeof(struct elem)), 0);
	tt_chunked_release(t, sizeof(struct elem));
	assert_null(tt_chunked_at(t, 0, sizeof(struct elem)));
	assert_int_equal(mincore(t, len, in), 0);
	assert_int_equal(in[0] & 1, 1);
	for (p = 1; p < pages; p++)
		assert_int_equal(in[p] & 1, 0);
	/* reserved again after the release: a new chunk, zeroed */
	assert_int_equal(tt_chunked_reserve(t, 3, sizeof(struct elem)), 0);
	assert_int_equal(((struct elem *)tt_chunked_at(t, 2, sizeof(struct elem)))->a, 0);
	tt_chunked_release(t, sizeof(struct elem));
	munmap(t, len);
	free(in);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grows_without_moving),
		cmocka_unit_test(test_release_reads_only_what_was_reserved),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
