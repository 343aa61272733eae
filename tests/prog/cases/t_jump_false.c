/*
 * t_jump_false.c - built with -O0 (jump_false.mk): static a calls b calls c, none of them
 * inlined, as in the report. The C runtime's register_tm_clones (a function symbol of
 * size 0, no unwind entry) comes before them; its `jmp *%rax` (ff e0) is followed by padding
 * whose e0 66, read from the wrong byte, is a loopne 102 bytes on: into b's first bytes when c
 * is 15 bytes long (gcc 12, Debian 12). So that the test does not depend on that layout, the
 * code after main adds lookalikes of its own, and two jumps an inline hook must still refuse:
 *   jf_lookalikes  (function of size 0, no unwind entry) three movabs whose immediates read,
 *                  from their second byte, as jmp rel32 into a, b and c + 1;
 *   jf_real_jump   (the same kind) a real jmp to d + 1: d is refused, the jump proven;
 *   jf_table       data (an object symbol) whose bytes read as a jmp into e + 1: nothing
 *                  says where code starts there, so e is refused, the line saying so.
 * None of them runs. Prints the sum, and the expected counts of a, b and c (tp.h's expect
 * lines, written here: its static helper, emitted at -O0, would sit between the C runtime's
 * code and c, and move b).
 */
#include <stdio.h>
#include <stdlib.h>

static __attribute__((noinline, used)) int c(int x)
{
	return x + 1;
}

static __attribute__((noinline, used)) int b(int x)
{
	return c(x) * 2;
}

static __attribute__((noinline, used)) int a(int x)
{
	return b(x) + 3;
}

static __attribute__((noinline, used)) int d(int x)
{
	return x - 1;
}

static __attribute__((noinline, used)) int e(int x)
{
	return x ^ 5;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000, i;
	long sum = 0;

	for (i = 0; i < n; i++)
		sum += a(i) + d(i) + e(i);
	printf("sum %ld\n", sum);
	printf("expect a %d\nexpect b %d\nexpect c %d\n", n, n, n);
	return 0;
}

/* movabs $imm64, %rax is 48 b8 imm64: its third byte on reads as e9 rel32, to f + 1. */
#define LOOKALIKE(f) ".byte 0x48, 0xb8, 0xe9\n.long " #f " + 1 - (. + 4)\n.byte 0, 0, 0\n"
#define LOOKALIKES LOOKALIKE(a) LOOKALIKE(b) LOOKALIKE(c)

__asm__(".text\n"
	".type jf_lookalikes, @function\n"
	"jf_lookalikes:\n" LOOKALIKES "ret\n"
	".type jf_real_jump, @function\n"
	"jf_real_jump:\n"
	"jmp d + 1\n"
	".type jf_table, @object\n"
	"jf_table:\n"
	".byte 0xe9\n"
	".long e + 1 - (. + 4)\n"
	".size jf_table, 5\n");
