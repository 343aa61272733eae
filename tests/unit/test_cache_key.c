/*
 * test_cache_key.c - the cache's secret key (src/base/cache_key.c) in directories of the
 * test's own: none is read or made without make; made, it is 32 bytes, 0600 whatever the
 * umask, and the MAC's key is its first 16; a key of another length is replaced; a whole one
 * is read as it is; one writable by others refuses the cache.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/cache_dir.h"
#include "base/cache_key.h"
#include "scratch_dir.h"

static char dir[4096], path[4200];

static int make_dir(void **state)
{
	(void)state;
	if (scratch_dir_make(dir, sizeof(dir), "test_cache_key"))
		return -1;
	snprintf(path, sizeof(path), "%s/key", dir);
	return 0;
}

static int remove_dir(void **state)
{
	(void)state;
	return scratch_dir_remove(dir);
}

static void write_file(const char *p, const void *bytes, size_t len, mode_t mode)
{
	FILE *f = fopen(p, "wb");

	assert_non_null(f);
	assert_int_equal(fwrite(bytes, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(chmod(p, mode), 0);
}

static size_t read_file(const char *p, uint8_t *buf, size_t len)
{
	FILE *f = fopen(p, "rb");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, len, f);
	fclose(f);
	return n;
}

static void test_made_only_when_asked(void **state)
{
	uint8_t key[TT_SIPHASH_KEY], again[TT_SIPHASH_KEY], file[64];
	struct stat st;
	mode_t old = umask(0);

	(void)state;
	assert_false(tt_cache_key(dir, false, key));
	assert_int_not_equal(access(path, F_OK), 0);
	assert_true(tt_cache_key(dir, true, key));
	umask(old);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0600);
	assert_int_equal(read_file(path, file, sizeof(file)), TT_CACHE_KEY_FILE_BYTES);
	assert_memory_equal(file, key, TT_SIPHASH_KEY);
	assert_true(tt_cache_key(dir, false, again)); /* kept for the process */
	assert_memory_equal(again, key, TT_SIPHASH_KEY);
}

static void test_bad_key_replaced(void **state)
{
	uint8_t key[TT_SIPHASH_KEY], file[64];

	(void)state;
	write_file(path, "short", 5, 0600);
	assert_false(tt_cache_key(dir, false, key)); /* not used, and not replaced unasked */
	assert_true(tt_cache_key(dir, true, key));
	assert_int_equal(read_file(path, file, sizeof(file)), TT_CACHE_KEY_FILE_BYTES);
	assert_memory_equal(file, key, TT_SIPHASH_KEY);
}

static void test_whole_key_read(void **state)
{
	uint8_t bytes[TT_CACHE_KEY_FILE_BYTES], key[TT_SIPHASH_KEY];

	(void)state;
	for (unsigned int i = 0; i < sizeof(bytes); i++)
		bytes[i] = (uint8_t)(7 * i + 1);
	write_file(path, bytes, sizeof(bytes), 0600);
	assert_true(tt_cache_key(dir, false, key));
	assert_memory_equal(key, bytes, TT_SIPHASH_KEY);
}

/* Last: a refusal holds for the rest of the process. */
static void test_others_writable_refused(void **state)
{
	uint8_t bytes[TT_CACHE_KEY_FILE_BYTES] = { 1 }, key[TT_SIPHASH_KEY];

	(void)state;
	write_file(path, bytes, sizeof(bytes), 0622);
	assert_false(tt_cache_key(dir, true, key));
	assert_true(tt_cache_refused());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_made_only_when_asked, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_bad_key_replaced, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_whole_key_read, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_others_writable_refused, make_dir, remove_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
