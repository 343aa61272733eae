/*
 * test_kept_mac.c - the MAC of a kept record (src/base/kept_mac.c): a signed record verifies;
 * one whose any byte was altered (its MAC's included), checked under another key, for another
 * object's build ID or as a record of another format, does not. A relocation plan
 * (x86/reloc_keep.h) is the record the cache most needs to hold to this.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "base/kept_mac.h"
#include "x86/reloc_keep.h"

static int by_off(const void *a, const void *b)
{
	(void)a;
	(void)b;
	return 0;
}

static const struct tt_kept_format plans = {
	.magic = "TTPLAN3",
	.record = sizeof(struct tt_reloc_kept),
	.max = 10,
	.key = 24,
	.cmp = by_off,
};
static const struct tt_kept_format other_format = {
	.magic = "TTXREF4",
	.record = sizeof(struct tt_reloc_kept),
	.max = 10,
	.key = 24,
	.cmp = by_off,
};

static const uint8_t id[20] = { 0x3b, 0x1f, 0x07, 0x99, [19] = 0x42 };
static uint8_t key[TT_SIPHASH_KEY];

/* A plan record as the shim keeps one: some fields, some bytes, its MAC last. */
static void signed_plan(struct tt_reloc_kept *k)
{
	memset(k, 0, sizeof(*k));
	k->off = 0x1130;
	k->size = 48;
	k->kind = 1;
	k->used = 16;
	k->nbytes = 8;
	k->patch_at = 4;
	k->displaced = 5;
	k->copy_len = 5;
	memcpy(k->bytes, "\xf3\x0f\x1e\xfa\x48\x89\xf8\xc3", 8);
	memcpy(k->copy, "\x48\x89\xf8\xc3\x90", 5);
	tt_kept_mac_sign(key, &plans, id, sizeof(id), k);
}

static int setup(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < sizeof(key); i++)
		key[i] = (uint8_t)(0xa0 + i);
	return 0;
}

static void test_signed_verifies(void **state)
{
	struct tt_reloc_kept k;

	(void)state;
	signed_plan(&k);
	assert_int_not_equal(k.mac, 0);
	assert_true(tt_kept_mac_ok(key, &plans, id, sizeof(id), &k));
}

static void test_any_byte_altered_fails(void **state)
{
	struct tt_reloc_kept k, bad;

	(void)state;
	signed_plan(&k);
	for (size_t i = 0; i < sizeof(k); i++)
		for (unsigned int bit = 0; bit < 8; bit += 3) {
			memcpy(&bad, &k, sizeof(k));
			((uint8_t *)&bad)[i] ^= (uint8_t)(1u << bit);
			assert_false(tt_kept_mac_ok(key, &plans, id, sizeof(id), &bad));
		}
}

/* The forgery the unkeyed hash allowed: the record altered and its check made to agree by
 * anyone able to compute it, here SipHash under a key that is not the cache's. */
static void test_resigned_under_another_key_fails(void **state)
{
	uint8_t guess[TT_SIPHASH_KEY];
	struct tt_reloc_kept k;

	(void)state;
	signed_plan(&k);
	memcpy(guess, key, sizeof(guess));
	guess[7] ^= 1;
	k.copy[3] = 0x50;
	tt_kept_mac_sign(guess, &plans, id, sizeof(id), &k);
	assert_false(tt_kept_mac_ok(key, &plans, id, sizeof(id), &k));
}

static void test_other_object_or_format_fails(void **state)
{
	uint8_t other[sizeof(id)];
	struct tt_reloc_kept k;

	(void)state;
	signed_plan(&k);
	memcpy(other, id, sizeof(id));
	other[19] ^= 1;
	assert_false(tt_kept_mac_ok(key, &plans, other, sizeof(other), &k));
	assert_false(tt_kept_mac_ok(key, &plans, id, sizeof(id) - 1, &k));
	assert_false(tt_kept_mac_ok(key, &other_format, id, sizeof(id), &k));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_signed_verifies),
		cmocka_unit_test(test_any_byte_altered_fails),
		cmocka_unit_test(test_resigned_under_another_key_fails),
		cmocka_unit_test(test_other_object_or_format_fails),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
