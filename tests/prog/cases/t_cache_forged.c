/*
 * t_cache_forged.c - two functions whose code the cache tests (cache_forged.sh,
 * cache_refused.sh) can reason about byte by byte, so written in assembly:
 *
 *  - cf_scaled(x) = 3x + 1: lea then add (8 bytes) before ret, displaced whole by the entry
 *    jump: its relocated copy is the bytes a kept plan held (a forged "add rax, 0x50" would
 *    print another sum);
 *  - cf_sum_to(n) = n + (n-1) + ... + 1: its loop's jnz at +0x8 goes back to +0x2, inside
 *    the entry jump's 5 bytes, so it must never be patched inline (the own-jump check).
 *
 * Prints the sums (compared untraced and traced) and cf_scaled's exact count (cf_sum_to,
 * refused inline, is called directly, not through a GOT slot: it is not counted).
 */
#include <stdio.h>

long cf_scaled(long x);
long cf_sum_to(long n);

__asm__(".text\n"
	".globl cf_scaled\n"
	".type cf_scaled, @function\n"
	"cf_scaled:\n"
	"	lea (%rdi,%rdi,2), %rax\n" /* 48 8d 04 7f */
	"	add $1, %rax\n"		   /* 48 83 c0 01 */
	"	ret\n"
	".size cf_scaled, .-cf_scaled\n"
	".globl cf_sum_to\n"
	".type cf_sum_to, @function\n"
	"cf_sum_to:\n"
	"	xor %eax, %eax\n" /* 31 c0 */
	"1:	add %rdi, %rax\n" /* +0x2: 48 01 f8 */
	"	dec %rdi\n"	  /* 48 ff cf */
	"	jnz 1b\n"	  /* +0x8: 75 f8 */
	"	ret\n"
	".size cf_sum_to, .-cf_sum_to\n");

int main(void)
{
	long sum = 0, tri = 0, i;

	for (i = 1; i <= 1000; i++)
		sum += cf_scaled(i);
	for (i = 1; i <= 100; i++)
		tri += cf_sum_to(i);
	printf("sum=%ld tri=%ld\n", sum, tri);
	printf("expect cf_scaled 1000\n");
	return 0;
}
