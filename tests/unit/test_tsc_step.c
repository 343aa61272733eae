/*
 * test_tsc_step.c - the TSC's step from differences between serialized reads
 * (src/config/tsc_step.c), with the differences each CPU family gives: AMD EPYC VMs whose TSC
 * moves by 21 or by 24.5 (24 and 25 in turn) ticks, Intel VMs by 2, a TSC that ticks by 1, and
 * the outliers interrupts add.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "config/tsc_step.h"

#define MAX_D 32768
static uint64_t d[MAX_D];
static size_t n;

static void add(uint64_t v, unsigned int times)
{
	while (times-- && n < MAX_D)
		d[n++] = v;
}

/* floor(j * step) - floor(i * step) for a fractional step given as num/den: what reads of a
 * TSC updated by num/den ticks at a time differ by, `work` steps apart at every phase. */
static void add_grid(uint64_t num, uint64_t den, unsigned int min_steps, unsigned int max_steps)
{
	unsigned int s, phase;

	for (s = min_steps; s <= max_steps; s++)
		for (phase = 0; phase < 8; phase++)
			add((phase + s) * num / den - phase * num / den, 1);
}

static void test_whole_step_21(void **state)
{
	(void)state;
	n = 0;
	add_grid(21, 1, 2, 9);
	assert_int_equal(tt_tsc_step(d, n, 0), 21);
	assert_int_equal(tt_tsc_step(d, n, 21), 21);
}

/* The host this was seen on: 49, 73 or 74, 98, 122 or 123, ... (bench: granularity 1). */
static void test_fractional_24_5(void **state)
{
	(void)state;
	n = 0;
	add(49, 356);
	add(73, 4566);
	add(74, 4630);
	add(98, 9506);
	add(122, 426);
	add(123, 427);
	add(147, 57);
	add(171, 5);
	add(172, 6);
	add(196, 11);
	add(416, 1); /* interrupts */
	add(1666, 1);
	assert_int_equal(tt_tsc_step(d, n, 0), 25);
	/* The calibration's readings, on the same grid, have gcd 1: no help, no harm. */
	n = 0;
	add_grid(49, 2, 2, 8);
	add_grid(49, 2, 2, 8);
	assert_int_equal(tt_tsc_step(d, n, 1), 25);
}

static void test_fractional_other(void **state)
{
	(void)state;
	n = 0;
	add_grid(243, 10, 2, 9); /* 24.3 */
	add_grid(243, 10, 2, 9);
	assert_int_equal(tt_tsc_step(d, n, 0), 25);
	n = 0;
	add_grid(5, 2, 10, 40); /* 2.5: runs of two adjacent values, 2 apart */
	add_grid(5, 2, 10, 40);
	assert_int_equal(tt_tsc_step(d, n, 0), 3);
}

static void test_step_2(void **state)
{
	(void)state;
	n = 0;
	add_grid(2, 1, 15, 40);
	assert_int_equal(tt_tsc_step(d, n, 0), 2);
	/* One odd outlier does not hide the step... */
	add(57, 1);
	assert_int_equal(tt_tsc_step(d, n, 0), 2);
}

/* A TSC that ticks by 1: one more cycle of work, one more tick; noise on top. */
static void test_step_1(void **state)
{
	unsigned int k;

	(void)state;
	n = 0;
	for (k = 0; k < 128; k++)
		add(40 + k + (k * 7 % 3), 4);
	assert_int_equal(tt_tsc_step(d, n, 0), 1);
	/* A core slower than the TSC (2 ticks a cycle) with jitter of one tick here and there. */
	n = 0;
	for (k = 0; k < 128; k++) {
		add(40 + 2 * k, 3);
		add(41 + 2 * k, k % 5 == 0 ? 2 : 0);
	}
	assert_int_equal(tt_tsc_step(d, n, 0), 1);
	/* Nothing but zeros or a single difference: no step shown. */
	n = 0;
	add(0, 10);
	assert_int_equal(tt_tsc_step(d, n, 0), 1);
	assert_int_equal(tt_tsc_step(d, 0, 0), 1);
}

/* Runs that do not sit on one grid (two modes of a ticks-by-1 TSC): no coarse step. */
static void test_no_grid(void **state)
{
	(void)state;
	n = 0;
	add(36, 50);
	add(37, 50);
	add(50, 50);
	add(71, 50);
	add(72, 50);
	assert_int_equal(tt_tsc_step(d, n, 0), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_whole_step_21),	 cmocka_unit_test(test_fractional_24_5),
		cmocka_unit_test(test_fractional_other), cmocka_unit_test(test_step_2),
		cmocka_unit_test(test_step_1),		 cmocka_unit_test(test_no_grid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
