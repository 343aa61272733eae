/*
 * test_build_id_files.c - kept files per object (hook/build_id_files.h) in a cache directory
 * of the test's own ($XDG_CACHE_HOME): named by the build ID in hex and the suffix, loaded on
 * the first ask, the directory made only when a file is written, nothing without a build ID,
 * past the 64th object, or when disabled.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "hook/build_id_files.h"

struct rec {
	uint64_t key;
	uint64_t value;
};

static int by_key(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

static const struct tt_kept_format fmt = {
	.magic = "TTTEST1", .record = sizeof(struct rec), .max = 100, .cmp = by_key
};

static char home[4096], cache[4200];

static int make_home(void **state)
{
	const char *tmp = getenv("TMPDIR");

	(void)state;
	snprintf(home, sizeof(home), "%s/test_build_id_files.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(home))
		return -1;
	snprintf(cache, sizeof(cache), "%s/tsctrace", home);
	return setenv("XDG_CACHE_HOME", home, 1);
}

static int remove_home(void **state)
{
	char cmd[4200];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", home);
	return system(cmd) == 0 ? 0 : -1;
}

static void test_write_read_back(void **state)
{
	static struct tt_build_id_files files = TT_BUILD_ID_FILES(&fmt, ".rec");
	static struct tt_build_id_files again = TT_BUILD_ID_FILES(&fmt, ".rec");
	static const uint8_t id[] = { 0xab, 0x01, 0xf0 };
	struct rec r = { 4, 40 }, key = { 4, 0 };
	const struct rec *found;
	struct tt_kept_file *f;
	char path[4300];
	struct stat st;

	(void)state;
	f = tt_build_id_file(&files, id, sizeof(id));
	assert_non_null(f);
	assert_ptr_equal(tt_build_id_file(&files, id, sizeof(id)), f);
	assert_int_equal(f->n, 0);
	tt_build_id_files_flush(&files); /* nothing added: nothing made */
	assert_int_equal(stat(cache, &st), -1);

	assert_true(tt_kept_add(f, &fmt, &r));
	tt_build_id_files_flush(&files);
	assert_int_equal(stat(cache, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	snprintf(path, sizeof(path), "%s/ab01f0.rec", cache);
	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);

	f = tt_build_id_file(&again, id, sizeof(id));
	assert_non_null(f);
	assert_non_null(f->map);
	found = tt_kept_find(f, &fmt, &key);
	assert_non_null(found);
	assert_int_equal(found->value, 40);
}

static void test_none(void **state)
{
	static struct tt_build_id_files files = TT_BUILD_ID_FILES(&fmt, ".rec");
	static struct tt_build_id_files off = TT_BUILD_ID_FILES(&fmt, ".rec");
	static struct tt_build_id_files nowhere = TT_BUILD_ID_FILES(&fmt, ".rec");
	uint8_t id[2] = { 0, 0 };
	int i;

	(void)state;
	assert_null(tt_build_id_file(&files, NULL, 4));
	assert_null(tt_build_id_file(&files, id, 0));
	for (i = 0; i < TT_BUILD_ID_FILES_MAX; i++) {
		id[1] = (uint8_t)i;
		assert_non_null(tt_build_id_file(&files, id, sizeof(id)));
	}
	id[0] = 1;
	assert_null(tt_build_id_file(&files, id, sizeof(id)));
	id[0] = 0; /* one already listed is still found */
	assert_non_null(tt_build_id_file(&files, id, sizeof(id)));

	tt_build_id_files_disable(&off);
	assert_null(tt_build_id_file(&off, id, sizeof(id)));

	assert_int_equal(setenv("XDG_CACHE_HOME", "relative", 1), 0);
	assert_int_equal(unsetenv("HOME"), 0);
	assert_null(tt_build_id_file(&nowhere, id, sizeof(id)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_write_read_back, make_home, remove_home),
		cmocka_unit_test_setup_teardown(test_none, make_home, remove_home),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
