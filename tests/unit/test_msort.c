/*
 * test_msort.c - the report's merge sort against an insertion sort (the order it replaced):
 * same result for random arrays with many ties, and stable (equal keys keep their order).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "base/msort.h"

struct row {
	uint64_t key; /* few distinct values: many ties */
	uint32_t name;
	uint32_t at; /* position before sorting: tells stability */
};

static int by_key_desc_name(const void *a, const void *b, void *ctx)
{
	const struct row *x = a, *y = b;

	(void)ctx;
	if (x->key != y->key)
		return x->key > y->key ? -1 : 1;
	return x->name < y->name ? -1 : x->name > y->name;
}

static void insertion(struct row *f, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		struct row x = f[i];

		for (j = i; j > 0 && by_key_desc_name(&x, &f[j - 1], NULL) < 0; j--)
			f[j] = f[j - 1];
		f[j] = x;
	}
}

static uint64_t rnd(uint64_t *state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void test_same_as_insertion(void **state)
{
	static struct row a[3000], b[3000], tmp[3000];
	uint64_t seed = 42;
	size_t n, i;

	(void)state;
	for (n = 0; n <= 3000; n = n < 40 ? n + 1 : n * 3 / 2) {
		for (i = 0; i < n; i++) {
			a[i].key = rnd(&seed) % 7;
			a[i].name = (uint32_t)(rnd(&seed) % 5);
			a[i].at = (uint32_t)i;
		}
		memcpy(b, a, n * sizeof(*a));
		tt_msort(a, tmp, n, sizeof(*a), by_key_desc_name, NULL);
		insertion(b, n);
		assert_memory_equal(a, b, n * sizeof(*a));
		for (i = 1; i < n; i++)
			if (a[i].key == a[i - 1].key && a[i].name == a[i - 1].name)
				assert_true(a[i].at > a[i - 1].at);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_as_insertion),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
