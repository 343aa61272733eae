/*
 * sitesprog.c A B TICKS - calls work(TICKS) (libwork.c) A times from site_a() and B times from
 * site_b(), one call site each, for the merge tests of call sites: each run's counts per site
 * are known, and runs given other counts must merge to their sums.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

void work(uint64_t n);

static __attribute__((noinline)) void site_a(unsigned long n, uint64_t ticks)
{
	for (unsigned long i = 0; i < n; i++)
		work(ticks);
	__asm__ volatile("" ::: "memory"); /* no tail call: work returns here */
}

static __attribute__((noinline)) void site_b(unsigned long n, uint64_t ticks)
{
	while (n--) /* not site_a's code, which the compiler would fold into one */
		work(ticks);
	__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	uint64_t ticks;

	if (argc != 4)
		return 2;
	ticks = strtoull(argv[3], NULL, 10);
	site_a(strtoul(argv[1], NULL, 10), ticks);
	site_b(strtoul(argv[2], NULL, 10), ticks);
	puts("done");
	return 0;
}
