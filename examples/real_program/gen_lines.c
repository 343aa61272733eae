/*
 * gen_lines.c - write N lines of reproducible pseudo-text for the real_program example.
 *
 *	gen_lines [N] > input.txt	(default N = 300000)
 *
 * Words are built from 16 syllables, so many lines share long prefixes, as real data does
 * (log lines, paths, names): sort's comparisons then look past the first byte, which makes the
 * memcmp/strcoll costs in the report those of real work, not of first-byte mismatches.
 * A fixed-seed xorshift generator makes every run produce the same file.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static const char *const syllables[16] = {
	"ka",  "lo",  "mi",  "ne",  "ru",  "sa",  "to",	 "vi",
	"ber", "dan", "gol", "hem", "par", "quo", "wes", "zin",
};

static uint64_t state = 0x9e3779b97f4a7c15ull;

static unsigned int next(unsigned int n)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return (unsigned int)((state >> 32) % n);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 300000;
	long i;
	unsigned int w, s;

	if (n <= 0) {
		fprintf(stderr, "usage: gen_lines [N]\n");
		return 2;
	}
	for (i = 0; i < n; i++) {
		unsigned int words = 2 + next(3);

		for (w = 0; w < words; w++) {
			unsigned int syl = 1 + next(3);

			if (w)
				putchar(' ');
			for (s = 0; s < syl; s++)
				fputs(syllables[next(16)], stdout);
		}
		printf(" %u\n", next(100000));
	}
	return ferror(stdout) ? 1 : 0;
}
