/*
 * test_kept_file.c - the kept file of records (base/kept_file.h) in a directory of its own:
 * made, added to, saved and loaded back; a record of the same key replaces the older one; a
 * file of another magic, record size, version, count, layout or length is not used; the index
 * finds every record of a file of many pages (records of sizes that do not divide a page, and
 * larger than one), none straddling two pages, and nothing that is not there; a damaged index
 * costs misses, never a wrong record, and the file is whole again once saved; a link at the
 * name is not followed; a FIFO there does not block; another writer's temporary file is left
 * alone, and a file at this process's temporary name makes the save fail, harming nothing;
 * tens of thousands of records added after a load are found, the newest of a key first, in
 * O(log^2 n) compares each (a scan of them made a cold run of 70,000 functions take 30 s).
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
	.magic = "TTTEST1", .record = sizeof(struct rec), .max = 100, .key = 8, .cmp = by_key
};

/* Where a file of few test records has them: the header and index fill the first page. */
#define FIRST 4096

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
	assert_int_equal((size_t)st.st_size, FIRST + 2 * sizeof(struct rec));
	snprintf(tmp, sizeof(tmp), "%s.%d.tmp", path, (int)getpid());
	assert_int_equal(access(tmp, F_OK), -1);

	assert_true(tt_kept_load(&f, &fmt, path));
	assert_non_null(f.map);
	assert_int_equal(f.n, 2);
	assert_false(f.dirty);
	r = (const struct rec *)(void *)((char *)f.map + FIRST);
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
		.magic = "TTTEST1", .record = sizeof(struct rec), .max = 2, .key = 8, .cmp = by_key
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
	const struct tt_kept_format other_magic = { .magic = "TTTEST2",
						    .record = sizeof(struct rec),
						    .max = 100,
						    .key = 8,
						    .cmp = by_key };
	const struct tt_kept_format wider = { .magic = "TTTEST1",
					      .record = sizeof(struct rec) + 8,
					      .max = 100,
					      .key = 8,
					      .cmp = by_key };
	const struct tt_kept_format longer_key = { .magic = "TTTEST1",
						   .record = sizeof(struct rec),
						   .max = 100,
						   .key = 16,
						   .cmp = by_key };
	struct tt_kept_file f = { 0 };
	static char good[8192], bad[8192];
	struct tt_kept_header *h = (struct tt_kept_header *)(void *)bad;
	size_t len;

	(void)state;
	save_three();
	len = slurp(path, good, sizeof(good));
	assert_int_equal(len, FIRST + 3 * sizeof(struct rec));
	assert_true(tt_kept_load(&f, &fmt, path));
	tt_kept_close(&f);

	assert_false(tt_kept_load(&f, &other_magic, path));
	assert_false(tt_kept_load(&f, &wider, path));
	assert_false(tt_kept_load(&f, &longer_key, path));

	memcpy(bad, good, len);
	h->key = 16; /* each field of the layout: what this format would not write */
	rewrite(bad, len);
	assert_false(tt_kept_load(&f, &fmt, path));
	memcpy(bad, good, len);
	h->per--;
	rewrite(bad, len);
	assert_false(tt_kept_load(&f, &fmt, path));
	memcpy(bad, good, len);
	h->first = 0;
	rewrite(bad, len);
	assert_false(tt_kept_load(&f, &fmt, path));
	memcpy(bad, good, len);
	h->pad = 1;
	rewrite(bad, len);
	assert_false(tt_kept_load(&f, &fmt, path));

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
	char target[4300];
	static char before[8192], after[8192];
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
	char theirs[4300], mine[4300], victim[4300], buf[64];
	static char good[8192], now[8192];
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

/* Records of a plan's size (360 bytes: 11 in a page, 136 bytes left), an index entry of 8. */
struct wide {
	uint64_t key;
	uint64_t value;
	char fill[344];
};

static int wide_by_key(const void *a, const void *b)
{
	const struct wide *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

static const struct tt_kept_format wide_fmt = { .magic = "TTWIDE1",
						.record = sizeof(struct wide),
						.max = 65536,
						.key = 8,
						.cmp = wide_by_key };

/* Records larger than a page: each in two pages of its own. */
struct huge {
	uint64_t key;
	uint64_t value;
	char fill[5000];
};

static const struct tt_kept_format huge_fmt = {
	.magic = "TTHUGE1", .record = sizeof(struct huge), .max = 100, .key = 8, .cmp = wide_by_key
};

/* The record of key in f (format of struct wide or struct huge: both begin key, value), its
 * value, or ~0 when none; a record found must be of that key. */
static uint64_t wide_value(const struct tt_kept_file *f, const struct tt_kept_format *ft,
			   uint64_t key)
{
	struct wide k = { .key = key };
	const struct wide *r = tt_kept_find(f, ft, &k);

	if (!r)
		return ~0ull;
	assert_int_equal(r->key, key);
	return r->value;
}

/* A file of n records of keys 10, 20, ... (values key + 1), added in a shuffled order. */
static void save_many(const struct tt_kept_format *ft, size_t n)
{
	static struct huge r; /* the largest: the others are its first bytes */
	struct tt_kept_file f = { 0 };
	size_t i, j;

	for (i = 0; i < n; i++) {
		j = (i * 7919) % n; /* 7919 is prime: every j once */
		memset(&r, (int)j, sizeof(r));
		r.key = 10 * (j + 1);
		r.value = r.key + 1;
		assert_true(tt_kept_add(&f, ft, &r));
	}
	assert_true(tt_kept_save(&f, ft, path));
	tt_kept_close(&f);
}

/* Every record of a file of n found through the index, each whole in one page; nothing
 * between, before or after them. */
static void check_many(const struct tt_kept_format *ft, size_t n)
{
	struct tt_kept_file f = { 0 };
	size_t i;

	save_many(ft, n);
	assert_true(tt_kept_load(&f, ft, path));
	assert_non_null(f.map);
	assert_int_equal(f.n, n);
	for (i = 1; i <= n; i++) {
		struct wide k = { .key = 10 * i };
		const char *r = tt_kept_find(&f, ft, &k);
		size_t at;

		assert_non_null(r);
		assert_int_equal(((const struct wide *)(const void *)r)->key, 10 * i);
		assert_int_equal(((const struct wide *)(const void *)r)->value, 10 * i + 1);
		at = (size_t)(r - (const char *)f.map);
		if (ft->record <= 4096)
			assert_int_equal(at / 4096, (at + ft->record - 1) / 4096);
		else
			assert_int_equal(at % 4096, 0);
		assert_int_equal(wide_value(&f, ft, 10 * i - 5), ~0ull);
		assert_int_equal(wide_value(&f, ft, 10 * i + 1), ~0ull);
	}
	assert_int_equal(wide_value(&f, ft, 0), ~0ull);
	assert_int_equal(wide_value(&f, ft, 10 * n + 10), ~0ull);
	assert_int_equal(wide_value(&f, ft, ~0ull), ~0ull);
	tt_kept_close(&f);
}

static void test_index(void **state)
{
	static const size_t counts[] = { 1, 10, 11, 12, 21, 22, 23, 1000, 2139, 20000 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		check_many(&wide_fmt, counts[i]);
	check_many(&fmt, 100); /* 16-byte records: 256 in a page, and the last not full */
	check_many(&huge_fmt, 7);
}

/* The index entries of a saved file of n wide records, and their count. */
static uint64_t *index_of(char *bytes, size_t n, size_t *entries)
{
	*entries = (n + 10) / 11;
	return (uint64_t *)(void *)(bytes + sizeof(struct tt_kept_header));
}

/* An index entry changed (up, down, to another page's key) or all of them zeroed: each key
 * is found with its own record or not at all; added again (as a caller does after a miss)
 * and saved, the file is whole again. */
static void test_damaged_index(void **state)
{
	static char good[1 << 20], bad[1 << 20];
	static const uint64_t changes[] = { 1, 5, 10, 100, ~0ull };
	const size_t n = 500;
	struct tt_kept_file f = { 0 };
	size_t len, entries, e, c, i, missed;
	uint64_t *idx;

	(void)state;
	save_many(&wide_fmt, n);
	len = slurp(path, good, sizeof(good));
	assert_true(len < sizeof(good));
	for (e = 0; e < 4; e++) {
		for (c = 0; c <= sizeof(changes) / sizeof(changes[0]); c++) {
			memcpy(bad, good, len);
			idx = index_of(bad, n, &entries);
			assert_int_equal(entries, 46);
			if (c == sizeof(changes) / sizeof(changes[0]))
				memset(idx, 0, entries * 8);
			else
				idx[e * 15] += changes[c]; /* pages 0, 15, 30, 45 (the last) */
			rewrite(bad, len);
			assert_true(tt_kept_load(&f, &wide_fmt, path));
			missed = 0;
			for (i = 1; i <= n; i++) {
				uint64_t v = wide_value(&f, &wide_fmt, 10 * i);

				if (v == ~0ull)
					missed++;
				else
					assert_int_equal(v, 10 * i + 1);
				assert_int_equal(wide_value(&f, &wide_fmt, 10 * i + 3), ~0ull);
			}
			assert_true(missed > 0);
			tt_kept_close(&f);
		}
	}

	/* The misses made again and saved: the index is written anew from the records. */
	assert_true(tt_kept_load(&f, &wide_fmt, path));
	for (i = 1; i <= n; i++) {
		struct wide r = { .key = 10 * i, .value = 10 * i + 1 };

		if (wide_value(&f, &wide_fmt, 10 * i) == ~0ull)
			assert_true(tt_kept_add(&f, &wide_fmt, &r));
	}
	assert_true(f.dirty);
	assert_true(tt_kept_save(&f, &wide_fmt, path));
	tt_kept_close(&f);
	assert_true(tt_kept_load(&f, &wide_fmt, path));
	for (i = 1; i <= n; i++)
		assert_int_equal(wide_value(&f, &wide_fmt, 10 * i), 10 * i + 1);
	tt_kept_close(&f);
	assert_int_equal(slurp(path, bad, sizeof(bad)), len);
	idx = index_of(bad, n, &entries);
	assert_memory_equal(idx, index_of(good, n, &entries), entries * 8);
}

/* Compares made by counted_fmt's order. */
static uint64_t compares;

static int by_key_counted(const void *a, const void *b)
{
	compares++;
	return by_key(a, b);
}

/*
 * Records added after a file was loaded, as a run plans a whole library: 60,000 adds in a
 * shuffled order, a key in eight made again, each add after a find of its key and another:
 * every find answers the newest record of its key (or the file's, or none), and the finds and
 * adds take O(log^2 n) compares each, where a scan of the added records took 3.6e9 in all
 * (a cold run of 70,000 functions: 30 s).
 */
static void test_added_many(void **state)
{
	static const struct tt_kept_format counted_fmt = { .magic = "TTTEST1",
							   .record = sizeof(struct rec),
							   .max = 1 << 17,
							   .key = 8,
							   .cmp = by_key_counted };
	enum { N = 60000, KEYS = 52500 };
	static uint64_t want[KEYS + 1]; /* the newest value of key k (0: none) */
	struct tt_kept_file f = { 0 };
	struct rec r, k;
	const struct rec *got;
	size_t i;

	(void)state;
	save_three(); /* keys 1, 2, 3: values 10, 20, 30 */
	want[1] = 10, want[2] = 20, want[3] = 30;
	assert_true(tt_kept_load(&f, &counted_fmt, path));
	compares = 0;
	for (i = 0; i < N; i++) {
		r.key = 1 + (i * 7919) % KEYS; /* every key once, then 7,500 of them again */
		r.value = 1000 + i;
		k.key = r.key;
		got = tt_kept_find(&f, &counted_fmt, &k);
		assert_int_equal(got ? got->value : 0, want[r.key]);
		k.key = 1 + (i * 104729) % KEYS;
		got = tt_kept_find(&f, &counted_fmt, &k);
		assert_int_equal(got ? got->value : 0, want[k.key]);
		assert_true(tt_kept_add(&f, &counted_fmt, &r));
		want[r.key] = r.value;
	}
	assert_true(compares < (uint64_t)N * 600);
	for (k.key = 1; k.key <= KEYS; k.key++) {
		got = tt_kept_find(&f, &counted_fmt, &k);
		assert_non_null(got);
		assert_int_equal(got->value, want[k.key]);
	}
	assert_true(tt_kept_save(&f, &counted_fmt, path));
	assert_int_equal(f.n, KEYS);
	tt_kept_close(&f);
	assert_true(tt_kept_load(&f, &counted_fmt, path));
	for (k.key = 1; k.key <= KEYS; k.key++)
		assert_int_equal(((const struct rec *)tt_kept_find(&f, &counted_fmt, &k))->value,
				 want[k.key]);
	tt_kept_close(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_add_save_load, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_add_to_loaded, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_full, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_rejected, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_index, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_damaged_index, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_added_many, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_symlink, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_fifo, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_other_writer, make_dir, remove_dir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
