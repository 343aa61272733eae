/*
 * ljm.c - libljm.so for t_ljmany: traced callees left by longjmp in bulk.
 *   ljm_jump    always longjmps back to its caller's setjmp (no traced caller in between)
 *   ljm_tick    returns normally (the calls between the jumps)
 *   ljm_live    calls setjmp itself, then ljm_nested n times through the PLT; each ljm_nested
 *               longjmps back into ljm_live's own frame, which then returns normally
 * The counters count invocations, whatever the shim does.
 */
#include <setjmp.h>

unsigned long ljm_jump_count, ljm_tick_count, ljm_live_count, ljm_nested_count;
volatile int ljm_last; /* the value ljm_jump last jumped with */

void ljm_jump(jmp_buf *jb, int i);
long ljm_tick(long x);
void ljm_nested(jmp_buf *jb, int i);
long ljm_live(int n);

void ljm_jump(jmp_buf *jb, int i)
{
	ljm_jump_count++;
	ljm_last = i + 1;
	longjmp(*jb, i + 1);
}

long ljm_tick(long x)
{
	ljm_tick_count++;
	return x * 7 + 3;
}

void ljm_nested(jmp_buf *jb, int i)
{
	ljm_nested_count++;
	longjmp(*jb, i);
}

/* Returns 1 + 2 + ... + n, collected after each of the n jumps came back. */
long ljm_live(int n)
{
	jmp_buf jb;
	volatile long sum = 0;
	volatile int k = 0;

	ljm_live_count++;
	if (setjmp(jb) != 0)
		sum += k;
	if (k < n) {
		k++;
		ljm_nested(&jb, k); /* never returns */
	}
	return sum;
}
