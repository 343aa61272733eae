/* t_inlined_reason.c - a static function the compiler inlined into every caller (always, so
 * that no out-of-line copy is left whatever the compiler's judgement), built with -g: its name
 * is in the debug information and nowhere in the symbol table (inlined_reason.sh). */
#include <stdio.h>

static inline __attribute__((always_inline)) unsigned hash_str(const char *s)
{
	unsigned h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

int main(int argc, char **argv)
{
	unsigned t = 0;

	for (int i = 0; i < 5; i++)
		t += hash_str(argc > i ? argv[i] : "abc");
	printf("%u\n", t);
	return 0;
}
