/*
 * test_symtab.c - function symbols from a file's .symtab (src/elf/symtab.c), read from this test
 * binary itself (/proc/self/exe, linked unstripped). A symbol's value must be where the
 * function really is: its run-time address minus the load bias that dl_iterate_phdr reports
 * for the object holding it (no nm involved).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <link.h>
#include <unistd.h>

#include <cmocka.h>

#include "elf/symtab.h"

#define SELF "/proc/self/exe"

/* Local to this file: not in the dynamic symbols, only in .symtab. */
static __attribute__((noinline, used)) int tt_symtab_probe_fn(int x)
{
	return x * 3 + 1;
}

static __attribute__((noinline, used)) int tt_symtab_probe_fn_longer(int x)
{
	return x * 5 - 2;
}

/* An object, not a function: never listed. */
static volatile int tt_symtab_probe_data = 7;

#define MAX_FOUND 8

struct found {
	int calls;
	uint64_t value, size; /* of the last call */
	char names[MAX_FOUND][64];
	uint64_t values[MAX_FOUND];
	int stop; /* what fn returns */
};

static int collect(const char *name, uint64_t value, uint64_t size, void *ctx)
{
	struct found *f = ctx;

	assert_non_null(name);
	if (f->calls < MAX_FOUND) {
		snprintf(f->names[f->calls], sizeof(f->names[0]), "%s", name);
		f->values[f->calls] = value;
	}
	f->calls++;
	f->value = value;
	f->size = size;
	return f->stop;
}

/* The index of the call that reported name, or -1. */
static int reported(const struct found *f, const char *name)
{
	int i;

	for (i = 0; i < f->calls && i < MAX_FOUND; i++)
		if (strcmp(f->names[i], name) == 0)
			return i;
	return -1;
}

struct bias_query {
	uintptr_t addr;
	uintptr_t bias;
	int found;
};

static int bias_cb(struct dl_phdr_info *info, size_t size, void *ctx)
{
	struct bias_query *q = ctx;
	int i;

	(void)size;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type == PT_LOAD && q->addr >= lo && q->addr < lo + ph->p_memsz) {
			q->bias = info->dlpi_addr;
			q->found++;
			return 1;
		}
	}
	return 0;
}

/* The link-time address (st_value) of code at run-time address addr. */
static uint64_t link_address(const void *addr)
{
	struct bias_query q = { .addr = (uintptr_t)addr };

	dl_iterate_phdr(bias_cb, &q);
	assert_int_equal(q.found, 1);
	return (uint64_t)(q.addr - q.bias);
}

static void test_static_function_found(void **state)
{
	struct found f = { 0 };
	uint64_t want = link_address((const void *)(uintptr_t)tt_symtab_probe_fn);

	(void)state;
	assert_int_equal(tt_symtab_probe_fn(2), 7); /* it is real code */
	assert_int_equal(tt_symtab_find(SELF, "tt_symtab_probe_fn", false, collect, &f), 1);
	assert_int_equal(f.calls, 1);
	assert_string_equal(f.names[0], "tt_symtab_probe_fn");
	assert_int_equal(f.value, want);
	assert_true(f.size > 0 && f.size < 4096);

	memset(&f, 0, sizeof(f));
	want = link_address((const void *)(uintptr_t)tt_symtab_probe_fn_longer);
	assert_int_equal(tt_symtab_probe_fn_longer(2), 8);
	assert_int_equal(tt_symtab_find(SELF, "tt_symtab_probe_fn_longer", false, collect, &f), 1);
	assert_int_equal(f.value, want);
}

static void test_global_function_found(void **state)
{
	struct found f = { 0 };

	(void)state;
	assert_int_equal(tt_symtab_find(SELF, "tt_symtab_find", false, collect, &f), 1);
	assert_int_equal(f.value, link_address((const void *)(uintptr_t)tt_symtab_find));
}

static void test_names_match_whole(void **state)
{
	struct found f = { 0 };

	(void)state;
	/* a prefix of a name, a name with more after it */
	assert_int_equal(tt_symtab_find(SELF, "tt_symtab_probe_f", false, collect, &f), 0);
	assert_int_equal(tt_symtab_find(SELF, "tt_symtab_probe_fnx", false, collect, &f), 0);
	assert_int_equal(tt_symtab_find(SELF, "tt_symtab_probe_fn_longe", false, collect, &f), 0);
	assert_int_equal(tt_symtab_find(SELF, "no_such_function_anywhere", false, collect, &f), 0);
	assert_int_equal(f.calls, 0);
}

static void test_only_defined_functions(void **state)
{
	struct found f = { 0 };

	(void)state;
	assert_int_equal(tt_symtab_probe_data, 7);
	/* a data object */
	assert_int_equal(tt_symtab_find(SELF, "tt_symtab_probe_data", false, collect, &f), 0);
	/* a function this binary calls but libcmocka defines (undefined here) */
	assert_int_equal(tt_symtab_find(SELF, "_assert_int_equal", false, collect, &f), 0);
	assert_int_equal(f.calls, 0);
}

static void test_glob(void **state)
{
	struct found f = { 0 };
	uint64_t fn = link_address((const void *)(uintptr_t)tt_symtab_probe_fn);
	uint64_t longer = link_address((const void *)(uintptr_t)tt_symtab_probe_fn_longer);
	int a, b;

	(void)state;
	/* fn gets each symbol's own name, not the pattern */
	assert_int_equal(tt_symtab_find(SELF, "tt_symtab_probe_fn*", true, collect, &f), 2);
	assert_int_equal(f.calls, 2);
	a = reported(&f, "tt_symtab_probe_fn");
	b = reported(&f, "tt_symtab_probe_fn_longer");
	assert_true(a >= 0 && b >= 0);
	assert_int_equal(f.values[a], fn);
	assert_int_equal(f.values[b], longer);

	memset(&f, 0, sizeof(f));
	assert_int_equal(tt_symtab_find(SELF, "tt_symtab_probe_?n_lo[mn]ger", true, collect, &f),
			 1);
	assert_string_equal(f.names[0], "tt_symtab_probe_fn_longer");

	/* the data object still does not match; without glob the pattern is a plain name */
	memset(&f, 0, sizeof(f));
	assert_int_equal(tt_symtab_find(SELF, "tt_symtab_probe_d*", true, collect, &f), 0);
	assert_int_equal(tt_symtab_find(SELF, "tt_symtab_probe_fn*", false, collect, &f), 0);
	assert_int_equal(f.calls, 0);
}

static void test_stop_returns_count_so_far(void **state)
{
	struct found f = { .stop = 1 };

	(void)state;
	/* two match; the first fn call stops the look-up */
	assert_int_equal(tt_symtab_find(SELF, "tt_symtab_probe_fn*", true, collect, &f), 1);
	assert_int_equal(f.calls, 1);
}

static void test_unreadable_files(void **state)
{
	struct found f = { 0 };
	static const char text[] = "main: not an ELF file, no .symtab, no function here\n";
	char path[] = "/tmp/tt_symtab_XXXXXX";
	int fd;

	(void)state;
	assert_int_equal(tt_symtab_find("/nonexistent/tt_symtab", "main", false, collect, &f), -1);
	assert_int_equal(tt_symtab_find("/", "main", false, collect, &f), -1);
	/* not an ELF file */
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, sizeof(text) - 1), sizeof(text) - 1);
	close(fd);
	assert_int_equal(tt_symtab_find(path, "main", false, collect, &f), -1);
	/* empty */
	assert_int_equal(truncate(path, 0), 0);
	assert_int_equal(tt_symtab_find(path, "main", false, collect, &f), -1);
	unlink(path);
	assert_int_equal(f.calls, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_static_function_found),
		cmocka_unit_test(test_global_function_found),
		cmocka_unit_test(test_names_match_whole),
		cmocka_unit_test(test_only_defined_functions),
		cmocka_unit_test(test_glob),
		cmocka_unit_test(test_stop_returns_count_so_far),
		cmocka_unit_test(test_unreadable_files),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
