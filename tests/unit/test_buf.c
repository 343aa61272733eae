/*
 * test_buf.c - the mmap-backed report buffer against a plain malloc'd copy of the same text.
 *
 * Growth is checked past several pages in odd-sized steps (so appends straddle page edges),
 * printf both when the text fits and when it must grow and format again, and failure by asking
 * for more than any address space holds: the buffer must keep its old text, NUL-terminated,
 * and drop every later append.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include <cmocka.h>

#include "base/buf.h"

#define PAGE 4096

static void assert_holds(const struct tt_buf *b, const char *want, size_t n)
{
	assert_false(b->failed);
	assert_int_equal(b->len, n);
	assert_true(b->cap > b->len);
	assert_memory_equal(b->data, want, n);
	assert_int_equal(b->data[n], '\0');
}

static void test_init_is_empty(void **state)
{
	struct tt_buf b = TT_BUF_INIT;

	(void)state;
	assert_null(b.data);
	assert_int_equal(b.len, 0);
	assert_int_equal(b.cap, 0);
	assert_false(b.failed);
}

static void test_append_concatenates(void **state)
{
	struct tt_buf b = TT_BUF_INIT;

	(void)state;
	tt_buf_append(&b, "hello", 5);
	tt_buf_append(&b, " world!", 6); /* only 6 of the 7 bytes */
	assert_holds(&b, "hello world", 11);
	tt_buf_free(&b);
}

static void test_append_keeps_embedded_nul(void **state)
{
	struct tt_buf b = TT_BUF_INIT;

	(void)state;
	tt_buf_append(&b, "a\0b", 3);
	assert_holds(&b, "a\0b", 3);
	tt_buf_free(&b);
}

static void test_empty_append_gives_empty_string(void **state)
{
	struct tt_buf b = TT_BUF_INIT;

	(void)state;
	tt_buf_append(&b, "", 0);
	assert_non_null(b.data);
	assert_holds(&b, "", 0);
	tt_buf_free(&b);
}

static void test_puts_appends_string(void **state)
{
	struct tt_buf b = TT_BUF_INIT;

	(void)state;
	tt_buf_puts(&b, "abc");
	tt_buf_puts(&b, "");
	tt_buf_puts(&b, "def");
	assert_holds(&b, "abcdef", 6);
	tt_buf_free(&b);
}

/* 37-byte steps up to ~6 pages: appends cross every page edge at a different offset. */
static void test_growth_past_several_pages(void **state)
{
	struct tt_buf b = TT_BUF_INIT;
	char *want = malloc(6 * PAGE + 64), chunk[37];
	size_t n = 0, i, caps = 0, last_cap = 0;

	(void)state;
	assert_non_null(want);
	while (n < 6 * PAGE) {
		for (i = 0; i < sizeof(chunk); i++)
			chunk[i] = (char)('a' + (n + i) % 26 + (n / PAGE));
		tt_buf_append(&b, chunk, sizeof(chunk));
		memcpy(want + n, chunk, sizeof(chunk));
		n += sizeof(chunk);
		assert_holds(&b, want, n);
		if (b.cap != last_cap)
			caps++;
		last_cap = b.cap;
	}
	assert_true(caps >= 3);		   /* 1 page, then grew at least twice */
	assert_int_equal(b.cap % PAGE, 0); /* whole pages, as mapped */
	tt_buf_free(&b);
	free(want);
}

static void test_single_large_append(void **state)
{
	struct tt_buf b = TT_BUF_INIT;
	size_t n = (1u << 20) + 3;
	char *big = malloc(n);
	size_t i;

	(void)state;
	assert_non_null(big);
	for (i = 0; i < n; i++)
		big[i] = (char)(i * 7 + 1);
	tt_buf_puts(&b, "head:");
	tt_buf_append(&b, big, n);
	assert_int_equal(b.len, 5 + n);
	assert_memory_equal(b.data, "head:", 5);
	assert_memory_equal(b.data + 5, big, n);
	assert_int_equal(b.data[b.len], '\0');
	tt_buf_free(&b);
	free(big);
}

static void test_printf_formats(void **state)
{
	struct tt_buf b = TT_BUF_INIT;

	(void)state;
	tt_buf_printf(&b, "%s=%d", "calls", 1000);
	tt_buf_printf(&b, " %08.3f|%-4s|%" PRIu64, 15.25, "x", UINT64_MAX);
	assert_holds(&b, "calls=1000 0015.250|x   |18446744073709551615", 45);
	tt_buf_free(&b);
}

static void test_printf_empty_result(void **state)
{
	struct tt_buf b = TT_BUF_INIT;

	(void)state;
	tt_buf_printf(&b, "%s", "");
	assert_non_null(b.data);
	assert_holds(&b, "", 0);
	tt_buf_free(&b);
}

/* A string longer than the free space forces the grow-and-format-again path. */
static void test_printf_long_string(void **state)
{
	struct tt_buf b = TT_BUF_INIT;
	size_t n = 3 * PAGE + 100;
	char *s = malloc(n + 1), *want = malloc(n + 64);
	int len;

	(void)state;
	assert_non_null(s);
	assert_non_null(want);
	memset(s, 'q', n);
	s[n] = '\0';
	s[n / 2] = 'Q';
	tt_buf_puts(&b, "start ");
	tt_buf_printf(&b, "[%s] %d", s, 42);
	len = snprintf(want, n + 64, "start [%s] %d", s, 42);
	assert_holds(&b, want, (size_t)len);
	free(s);
	free(want);
	tt_buf_free(&b);
}

/* Many lines of varying length: each growth happens mid-line, on the format-again path. */
static void test_printf_many_lines_match_snprintf(void **state)
{
	struct tt_buf b = TT_BUF_INIT;
	size_t cap = 4 << 20, n = 0;
	char *want = malloc(cap);
	int i;

	(void)state;
	assert_non_null(want);
	for (i = 0; i < 20000; i++) {
		tt_buf_printf(&b, "%d:%*s;\n", i, i % 97, "v");
		n += (size_t)snprintf(want + n, cap - n, "%d:%*s;\n", i, i % 97, "v");
		assert_true(n < cap);
	}
	assert_holds(&b, want, n);
	free(want);
	tt_buf_free(&b);
}

/* No mapping can hold 2^62 bytes: the append fails, the text so far survives. */
static void test_failed_allocation_is_sticky(void **state)
{
	struct tt_buf b = TT_BUF_INIT;

	(void)state;
	tt_buf_puts(&b, "kept");
	tt_buf_append(&b, "x", (size_t)1 << 62); /* never read: reserve fails first */
	assert_true(b.failed);
	assert_int_equal(b.len, 4);
	assert_string_equal(b.data, "kept");
	tt_buf_puts(&b, "dropped");
	tt_buf_printf(&b, "%d", 7);
	tt_buf_append(&b, "y", 1);
	assert_true(b.failed);
	assert_int_equal(b.len, 4);
	assert_string_equal(b.data, "kept");
	tt_buf_free(&b);
}

/* In the C locale an e-acute has no encoding: vsnprintf writes "junk" and then fails. */
static void test_printf_error_keeps_text(void **state)
{
	struct tt_buf b = TT_BUF_INIT;

	(void)state;
	tt_buf_puts(&b, "kept");
	tt_buf_printf(&b, "junk%ls", L"\u00e9");
	assert_true(b.failed);
	assert_int_equal(b.len, 4);
	assert_string_equal(b.data, "kept");
	tt_buf_free(&b);
}

static void test_length_overflow_fails(void **state)
{
	struct tt_buf b = TT_BUF_INIT;

	(void)state;
	tt_buf_puts(&b, "ab");
	tt_buf_append(&b, "x", SIZE_MAX - 1); /* len + n + 1 wraps */
	assert_true(b.failed);
	assert_string_equal(b.data, "ab");
	tt_buf_free(&b);
	tt_buf_append(&b, "x", SIZE_MAX); /* also on an unmapped buffer */
	assert_true(b.failed);
	assert_null(b.data);
	tt_buf_free(&b);
}

static void test_free_resets_for_reuse(void **state)
{
	struct tt_buf b = TT_BUF_INIT;

	(void)state;
	tt_buf_free(&b); /* freeing an unused buffer is harmless */
	tt_buf_puts(&b, "first");
	tt_buf_append(&b, "x", (size_t)1 << 62);
	assert_true(b.failed);
	tt_buf_free(&b);
	assert_null(b.data);
	assert_int_equal(b.len, 0);
	assert_int_equal(b.cap, 0);
	assert_false(b.failed);
	tt_buf_printf(&b, "second %d", 2);
	assert_holds(&b, "second 2", 8);
	tt_buf_free(&b);
}

/* On lent memory: a short text stays there; a longer one moves to a mapping of its own with
 * what was written, and the lent memory is left as it was (free never unmaps it). */
static void test_lent_memory_then_growth(void **state)
{
	static char mem[64];
	char want[3 * PAGE];
	struct tt_buf b;
	size_t i;

	(void)state;
	tt_buf_lend(&b, mem, sizeof(mem));
	assert_holds(&b, "", 0);
	tt_buf_puts(&b, "short");
	assert_ptr_equal(b.data, mem);
	assert_holds(&b, "short", 5);
	for (i = 0; i < sizeof(want); i++)
		want[i] = (char)('a' + i % 26);
	memcpy(want, "short", 5);
	tt_buf_append(&b, want + 5, sizeof(want) - 5);
	assert_ptr_not_equal(b.data, mem);
	assert_holds(&b, want, sizeof(want));
	assert_memory_equal(mem, "short", 6);
	tt_buf_free(&b);
	assert_null(b.data);
	tt_buf_lend(&b, mem, sizeof(mem));
	tt_buf_printf(&b, "%d-%s", 42, "x");
	assert_holds(&b, "42-x", 4);
	tt_buf_free(&b);
	assert_memory_equal(mem, "42-x", 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_is_empty),
		cmocka_unit_test(test_append_concatenates),
		cmocka_unit_test(test_append_keeps_embedded_nul),
		cmocka_unit_test(test_empty_append_gives_empty_string),
		cmocka_unit_test(test_puts_appends_string),
		cmocka_unit_test(test_growth_past_several_pages),
		cmocka_unit_test(test_single_large_append),
		cmocka_unit_test(test_printf_formats),
		cmocka_unit_test(test_printf_empty_result),
		cmocka_unit_test(test_printf_long_string),
		cmocka_unit_test(test_printf_many_lines_match_snprintf),
		cmocka_unit_test(test_failed_allocation_is_sticky),
		cmocka_unit_test(test_printf_error_keeps_text),
		cmocka_unit_test(test_length_overflow_fails),
		cmocka_unit_test(test_free_resets_for_reuse),
		cmocka_unit_test(test_lent_memory_then_growth),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
