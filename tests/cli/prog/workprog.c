/*
 * workprog.c CALLS TICKS - calls work(TICKS) (libwork.c) CALLS times; prints "done".
 * The diff tests run it with one TICKS for the base runs and another for the new ones.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

void work(uint64_t n);

int main(int argc, char **argv)
{
	unsigned long calls, i;
	uint64_t ticks;

	if (argc != 3)
		return 2;
	calls = strtoul(argv[1], NULL, 10);
	ticks = strtoull(argv[2], NULL, 10);
	for (i = 0; i < calls; i++)
		work(ticks);
	puts("done");
	return 0;
}
