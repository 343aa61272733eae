/*
 * test_kept_file.c - the kept file of records (base/kept_file.h) in a directory of its own:
 * made, added to, saved and loaded back; a record of the same key replaces the older one; a
 * file of another magic, record size, version, count or length is not used; a link at the
 * name is not followed; a FIFO there does not block; another writer's temporary file is left
 * alone, and a file at this process's temporary name makes the save fail, harming nothing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "base/kept_file.h"
#include "scratch_dir.h"

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

static char dir[4096], path[4200];

static int make_dir(void **state)
{
	(void)state;
	if (scratch_dir_make(dir, sizeof(dir), "test_kept_file"))
		return -1;
	snprintf(path, sizeof(path), "%s/obj.rec", dir);
	return 0;
}

static int remove_dir(void **state)
{
	(void)state;
	return scratch_dir_remove(dir);
}

static void add(struct tt_kept_file *f, uint64_t key, uint64_t value)
{
	struct rec r = { key, value };

	assert_true(tt_kept_add(f, &fmt, &r));
}

/* The value kept for key, or ~0 when none is. */
static uint64_t value_of(const struct tt_kept_file *f, uint64_t key)
{
	struct rec k = { key, 0 };
	const struct rec *r = tt_kept_find(f, &fmt, &k);

	return r ? r->value : ~0ull;
}

/* A saved file of records 1..3 (values 10, 20, 30) at path. */
static void save_three(void)
{
	struct tt_kept_file f = { 0 };

	add(&f, 3, 30);
	add(&f, 1, 10);
	add(&f, 2, 20);
	assert_true(tt_kept_save(&f, &fmt, path));
	tt_kept_close(&f);
}

static void rewrite(const void *bytes, size_t len)
{
	FILE *out = fopen(path, "wb");

	assert_non_null(out);
	assert_int_equal(fwrite(bytes, 1, len, out), len);
	assert_int_equal(fclose(out), 0);
}

static size_t slurp(const char *name, char *out, size_t cap)
{
	FILE *in = fopen(name, "rb");
	size_t n;

	assert_non_null(in);
	n = fread(out, 1, cap, in);
	fclose(in);
	return n;
}

static void test_add_save_load(void **state)
{
	struct tt_kept_file f = { 0 };
	const struct rec *r;
	struct stat st;
	char tmp[4300];

	(void)state;
	assert_false(tt_kept_load(&f, &fmt, path)); /* none yet */
	assert_int_equal(f.n, 0);
	assert_int_equal(value_of(&f, 1), ~0ull);
	add(&f, 5, 50);
	add(&f, 2, 20);
	add(&f, 5, 51); /* made again: replaces the first */
	assert_int_equal(value_of(&f, 5), 51);
	assert_int_equal(value_of(&f, 2), 20);
	assert_true(f.dirty);
	assert_true(tt_kept_save(&f, &fmt, path));
	assert_false(f.dirty);
	assert_int_equal(f.n, 2);
	assert_int_equal(f.sorted, 2);
	tt_kept_close(&f);

	assert_int_equal(stat(path, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0600);
	assert_int_equal((size_t)st.st_size,
			 sizeof(struct tt_kept_header) + 2 * sizeof(struct rec));
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
	assert_int_equal(access(tmp, F_OK), -1);

	assert_true(tt_kept_load(&f, &fmt, path));
	assert_non_null(f.map);
	assert_int_equal(f.n, 2);
	assert_false(f.dirty);
	r = f.rec;
	assert_int_equal(r[0].key, 2);
	assert_int_equal(r[1].key, 5);
	assert_int_equal(value_of(&f, 5), 51);
	assert_int_equal(value_of(&f, 2), 20);
	assert_int_equal(value_of(&f, 3), ~0ull);
	tt_kept_close(&f);
}

/* A loaded file is copied on the first add; a record added since is found before the file's
 * of the same key, and replaces it when saved. */
static void test_add_to_loaded(void **state)
{
	struct tt_kept_file f = { 0 };

	(void)state;
	save_three();
	assert_true(tt_kept_load(&f, &fmt, path));
	add(&f, 2, 22);
	add(&f, 0, 1);
	assert_null(f.map);
	assert_int_equal(f.sorted, 3);
	assert_int_equal(value_of(&f, 1), 10);
	assert_int_equal(value_of(&f, 2), 22);
	assert_int_equal(value_of(&f, 0), 1);
	assert_true(tt_kept_save(&f, &fmt, path));
	tt_kept_close(&f);
	assert_true(tt_kept_load(&f, &fmt, path));
	assert_int_equal(f.n, 4);
	assert_int_equal(value_of(&f, 0), 1);
	assert_int_equal(value_of(&f, 2), 22);
	assert_int_equal(value_of(&f, 3), 30);
	tt_kept_close(&f);
}

static void test_full(void **state)
{
	const struct tt_kept_format two = {
		.magic = "TTTEST1", .record = sizeof(struct rec), .max = 2, .cmp = by_key
	};
	struct tt_kept_file f = { 0 };
	struct rec r = { 9, 9 };

	(void)state;
	assert_true(tt_kept_add(&f, &two, &r));
	assert_true(tt_kept_add(&f, &two, &r));
	assert_false(tt_kept_add(&f, &two, &r));
	tt_kept_close(&f);
	save_three(); /* three records: more than this format trusts */
	assert_false(tt_kept_load(&f, &two, path));
	assert_null(f.map);
	assert_int_equal(f.n, 0);
}

/* Each change of a good file makes it one not to use; f stays empty. */
static void test_rejected(void **state)
{
	const struct tt_kept_format other_magic = {
		.magic = "TTTEST2", .record = sizeof(struct rec), .max = 100, .cmp = by_key
	};
	const struct tt_kept_format wider = {
		.magic = "TTTEST1", .record = sizeof(struct rec) + 8, .max = 100, .cmp = by_key
	};
	struct tt_kept_file f = { 0 };
	char good[4096], bad[4096];
	struct tt_kept_header *h = (struct tt_kept_header *)(void *)bad;
	size_t len;

	(void)state;
	save_three();
	len = slurp(path, good, sizeof(good));
	assert_int_equal(len, sizeof(*h) + 3 * sizeof(struct rec));
	assert_true(tt_kept_load(&f, &fmt, path));
	tt_kept_close(&f);

	assert_false(tt_kept_load(&f, &other_magic, path));
	assert_false(tt_kept_load(&f, &wider, path));

	memcpy(bad, good, len);
	bad[sizeof(h->magic)] ^= 1; /* the version */
	rewrite(bad, len);
	assert_false(tt_kept_load(&f, &fmt, path));

	memcpy(bad, good, len);
	h->record = sizeof(struct rec) + 8; /* says another size: the length agrees with none */
	rewrite(bad, len);
	assert_false(tt_kept_load(&f, &fmt, path));

	memcpy(bad, good, len);
	h->count = 4;
	rewrite(bad, len);
	assert_false(tt_kept_load(&f, &fmt, path));

	rewrite(good, len - 1); /* cut in the last record */
	assert_false(tt_kept_load(&f, &fmt, path));
	rewrite(good, sizeof(*h) - 1); /* cut in the header */
	assert_false(tt_kept_load(&f, &fmt, path));
	rewrite(good, 0);
	assert_false(tt_kept_load(&f, &fmt, path));
	memcpy(bad, good, len);
	bad[len] = 0; /* a byte too many */
	rewrite(bad, len + 1);
	assert_false(tt_kept_load(&f, &fmt, path));
	assert_null(f.map);
	assert_int_equal(f.n, 0);

	rewrite(good, len);
	assert_true(tt_kept_load(&f, &fmt, path));
	assert_int_equal(value_of(&f, 3), 30);
	tt_kept_close(&f);
}

/* A link at the name is not read through; a save replaces the link, not what it names. */
static void test_symlink(void **state)
{
	struct tt_kept_file f = { 0 };
	char target[4300], before[4096], after[4096];
	size_t len;

	(void)state;
	save_three();
	snprintf(target, sizeof(target), "%s/target", dir);
	assert_int_equal(rename(path, target), 0);
	assert_int_equal(symlink(target, path), 0);
	assert_false(tt_kept_load(&f, &fmt, path));
	assert_int_equal(f.n, 0);

	len = slurp(target, before, sizeof(before));
	add(&f, 7, 70);
	assert_true(tt_kept_save(&f, &fmt, path));
	tt_kept_close(&f);
	assert_int_equal(slurp(target, after, sizeof(after)), len);
	assert_memory_equal(before, after, len);
	assert_true(tt_kept_load(&f, &fmt, path));
	assert_int_equal(f.n, 1);
	assert_int_equal(value_of(&f, 7), 70);
	tt_kept_close(&f);
}

/* A FIFO at the name: no writer ever opens it, and loading must not wait for one. */
static void test_fifo(void **state)
{
	struct tt_kept_file f = { 0 };

	(void)state;
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_false(tt_kept_load(&f, &fmt, path));
	assert_int_equal(f.n, 0);
}

/* Another process writing the same file at once has its own temporary name: it is left as it
 * is. A file or a link at this process's temporary name (left by a writer that died, or
 * planted) makes the save fail; the kept file, the link's target and that file are unharmed. */
static void test_other_writer(void **state)
{
	struct tt_kept_file f = { 0 };
	char theirs[4300], mine[4300], victim[4300], buf[64], good[4096], now[4096];
	size_t len;

	(void)state;
	snprintf(theirs, sizeof(theirs), "%s.%d.tmp", path, (int)getpid() + 1);
	snprintf(mine, sizeof(mine), "%s.%d.tmp", path, (int)getpid());
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	{
		FILE *t = fopen(theirs, "wb");

		assert_non_null(t);
		fputs("half written", t);
		fclose(t);
	}
	save_three();
	assert_int_equal(slurp(theirs, buf, sizeof(buf)), 12);
	assert_memory_equal(buf, "half written", 12);
	assert_true(tt_kept_load(&f, &fmt, path));
	assert_int_equal(f.n, 3);
	tt_kept_close(&f);

	len = slurp(path, good, sizeof(good));
	{
		FILE *t = fopen(victim, "wb");

		assert_non_null(t);
		fputs("victim", t);
		fclose(t);
	}
	assert_int_equal(symlink(victim, mine), 0);
	add(&f, 8, 80);
	assert_false(tt_kept_save(&f, &fmt, path));
	assert_int_equal(slurp(victim, buf, sizeof(buf)), 6);
	assert_memory_equal(buf, "victim", 6);
	assert_int_equal(slurp(path, now, sizeof(now)), len);
	assert_memory_equal(good, now, len);
	assert_int_equal(unlink(mine), 0);

	assert_true(tt_kept_save(&f, &fmt, path)); /* the name free again */
	tt_kept_close(&f);
	assert_true(tt_kept_load(&f, &fmt, path));
	assert_int_equal(value_of(&f, 8), 80);
	assert_int_equal(value_of(&f, 1), ~0ull); /* f never held the file's three */
	tt_kept_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_add_save_load, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_add_to_loaded, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_full, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_rejected, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_symlink, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_fifo, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_other_writer, make_dir, remove_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
