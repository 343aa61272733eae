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
#include "scratch_dir.h"

/* Records of one number each: kept or not is all these tests ask. */
static int by_number(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

static const struct tt_kept_format fmt = {
	.magic = "TTNUMS1", .record = sizeof(uint64_t), .max = 10, .key = 8, .cmp = by_number
};

static char home[4096], cache[4200];

static int make_home(void **state)
{
	(void)state;
	if (scratch_dir_make(home, sizeof(home), "test_build_id_files"))
		return -1;
	snprintf(cache, sizeof(cache), "%s/tsctrace", home);
	return setenv("XDG_CACHE_HOME", home, 1);
}

static int remove_home(void **state)
{
	(void)state;
	return scratch_dir_remove(home);
}

static void test_write_read_back(void **state)
{
	static struct tt_build_id_files files = TT_BUILD_ID_FILES(&fmt, ".rec");
	static struct tt_build_id_files again = TT_BUILD_ID_FILES(&fmt, ".rec");
	static const uint8_t id[] = { 0xab, 0x01, 0xf0 };
	const uint64_t r = 40;
	const uint64_t *found;
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
	found = tt_kept_find(f, &fmt, &r);
	assert_non_null(found);
	assert_int_equal(*found, 40);
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
