/*
 * test_cache_dir.c - the small text files of the cache directory (src/base/cache_dir.c): one
 * name per key, a "NAME N" line read back exactly or refused, a file replaced whole and read
 * back, nothing followed through a link at the name, nothing left behind.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/cache_dir.h"
#include "scratch_dir.h"

static char dir[1024];

static int setup(void **state)
{
	(void)state;
	return scratch_dir_make(dir, sizeof(dir), "test_cache_dir");
}

static int teardown(void **state)
{
	(void)state;
	return scratch_dir_remove(dir);
}

static void test_name(void **state)
{
	char out[256], small[20];

	(void)state;
	assert_true(tt_cache_file_name("/d", "calib", "", out, sizeof(out)));
	/* The hash of nothing is its start value (the names runs kept so far use this one). */
	assert_string_equal(out, "/d/calib-14650fb0739d0383.txt");
	assert_true(tt_cache_file_name("/d", "cpu", "key one", out, sizeof(out)));
	assert_int_equal(strlen(out), strlen("/d/cpu-") + 16 + strlen(".txt"));
	assert_true(tt_cache_file_name("/d", "cpu", "key two", small, sizeof(small)) == false);
}

static void test_field(void **state)
{
	const char *text = "min 49\nhv 4000000a\nbig 18446744073709551615\n", *p = text;
	uint64_t v = 7;

	(void)state;
	assert_true(tt_cache_file_field(&p, "min", 10, &v));
	assert_int_equal(v, 49);
	assert_true(tt_cache_file_field(&p, "hv", 16, &v));
	assert_int_equal(v, 0x4000000a);
	assert_ptr_equal(p, strstr(text, "big"));
	/* 20 digits: more than 64 bits may hold, refused, nothing moved. */
	assert_false(tt_cache_file_field(&p, "big", 10, &v));
	assert_ptr_equal(p, strstr(text, "big"));
	p = "min \n";
	assert_false(tt_cache_file_field(&p, "min", 10, &v));
	p = "min 4x\n";
	assert_false(tt_cache_file_field(&p, "min", 10, &v));
	p = "mine 4\n";
	assert_false(tt_cache_file_field(&p, "min", 10, &v));
	p = "min 4a\n"; /* a hex digit in a decimal field */
	assert_false(tt_cache_file_field(&p, "min", 10, &v));
	p = "min 4";
	assert_false(tt_cache_file_field(&p, "min", 10, &v));
}

static int entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	assert_non_null(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n;
}

static void test_replace_read(void **state)
{
	char path[1200], buf[64], tiny[4];

	(void)state;
	assert_true(tt_cache_file_name(dir, "calib", "k", path, sizeof(path)));
	assert_int_equal(tt_cache_file_read(path, buf, sizeof(buf)), -1);
	tt_cache_file_replace(path, "first\n", 6);
	assert_int_equal(tt_cache_file_read(path, buf, sizeof(buf)), 6);
	assert_string_equal(buf, "first\n");
	tt_cache_file_replace(path, "2nd\n", 4);
	assert_int_equal(tt_cache_file_read(path, buf, sizeof(buf)), 4);
	assert_string_equal(buf, "2nd\n");
	assert_int_equal(entries(), 1); /* no temporary file left */
	/* A buffer too small: what fits, terminated. */
	assert_int_equal(tt_cache_file_read(path, tiny, sizeof(tiny)), 3);
	assert_string_equal(tiny, "2nd");
}

static void test_link_not_followed(void **state)
{
	char path[1200], target[1200], buf[64];

	(void)state;
	snprintf(target, sizeof(target), "%s/target", dir);
	snprintf(path, sizeof(path), "%s/link.txt", dir);
	tt_cache_file_replace(target, "secret\n", 7);
	assert_int_equal(symlink(target, path), 0);
	assert_int_equal(tt_cache_file_read(path, buf, sizeof(buf)), -1);
	/* Replacing the name replaces the link itself, never what it points to. */
	tt_cache_file_replace(path, "new\n", 4);
	assert_int_equal(tt_cache_file_read(path, buf, sizeof(buf)), 4);
	assert_int_equal(tt_cache_file_read(target, buf, sizeof(buf)), 7);
	assert_string_equal(buf, "secret\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_name),
		cmocka_unit_test(test_field),
		cmocka_unit_test_setup_teardown(test_replace_read, setup, teardown),
		cmocka_unit_test_setup_teardown(test_link_not_followed, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
