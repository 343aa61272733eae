/*
 * test_chunked.c - the growable table by 32-bit index: elements appear as chunks are
 * reserved, zeroed, and stay where they are while the table grows past 16 bits of index.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grows_without_moving),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
