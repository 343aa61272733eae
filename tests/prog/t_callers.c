/*
 * t_callers.c - TSC_CALLERS: one traced function (work_add) called from known sites, and a
 * known-cost function (spin_1k) to show that taking call paths leaves its time alone.
 *   site_a: 100 calls from one site in a(); site_b: 250 from one site in b(); 40 from main;
 *   chain: leaf() calls work_add from one site, 60 times via p1() and 90 times via p2(),
 *   so with TSC_CALLERS >= 2 the same site splits into two paths.
 * Built with -fno-optimize-sibling-calls and noinline: every call keeps its own frame.
 */
#include "tp.h"

long work_add(long a, long b);
void spin_1k(void);

static __attribute__((noinline)) long a(long x)
{
	long s = 0;

	for (long i = 0; i < 100; i++)
		s += work_add(x, i);
	return s;
}

static __attribute__((noinline)) long b(long x)
{
	long s = 0;

	for (long i = 0; i < 250; i++)
		s += work_add(i, x);
	return s;
}

static __attribute__((noinline)) long leaf(long x)
{
	return work_add(x, 1);
}

static __attribute__((noinline)) long p1(long x)
{
	return leaf(x) + 1;
}

static __attribute__((noinline)) long p2(long x)
{
	return leaf(x) + 2;
}

int main(void)
{
	long s = a(1) + b(2), i;

	for (i = 0; i < 40; i++)
		s += work_add(i, 3);
	for (i = 0; i < 60; i++)
		s += p1(i);
	for (i = 0; i < 90; i++)
		s += p2(i);
	for (i = 0; i < 2000; i++)
		spin_1k();
	printf("sum %ld\n", s);
	tp_expect(stdout, "work_add", 100 + 250 + 40 + 60 + 90);
	tp_expect(stdout, "spin_1k", 2000);
	return 0;
}
