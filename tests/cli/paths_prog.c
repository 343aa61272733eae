/*
 * paths_prog.c - known call paths for the profile exports' tests (tests/cli/paths.sh):
 * main calls parse_a 3 times and parse_b twice, each of which calls lex 100 times, and
 * calls lex 7 times itself. Built with -fno-inline -fno-optimize-sibling-calls so that
 * every call keeps its frame.
 */
#include <stdio.h>

long lex(long x);
long parse_a(long x);
long parse_b(long x);

__attribute__((noinline)) long lex(long x)
{
	volatile long s = x;
	int i;

	for (i = 0; i < 50; i++)
		s += i;
	return s;
}

__attribute__((noinline)) long parse_a(long x)
{
	long s = 0;
	int i;

	for (i = 0; i < 100; i++)
		s += lex(x + i);
	return s;
}

__attribute__((noinline)) long parse_b(long x)
{
	long s = 0;
	int i;

	for (i = 0; i < 100; i++)
		s += lex(x - i);
	return s;
}

int main(void)
{
	long s = 0;
	int i;

	for (i = 0; i < 3; i++)
		s += parse_a(i);
	for (i = 0; i < 2; i++)
		s += parse_b(i);
	for (i = 0; i < 7; i++)
		s += lex(i);
	printf("%ld\n", s);
	return 0;
}
