/*
 * t_ljmany.c - longjmp in bulk, beyond the shim's shadow stack (4096 frames a thread):
 *   1. 10,000 longjmps out of ljm_jump straight back to main (no traced caller in between
 *      whose return could drop the dead frames), half of them from a deeper helper frame,
 *      each followed by a call of ljm_tick from main: every ljm_tick call is timed but the
 *      thread's first (dropped), every ljm_jump call is counted and unwound.
 *   2. ljm_live calls setjmp in its own (live, traced) frame and jumps back into it out of
 *      nested traced calls (ljm_nested), then returns normally: 1000 calls with 3 jumps each,
 *      then 3 calls with 5,000 jumps each, which fill the shadow stack under the live frame.
 *      ljm_live's calls are timed (but the first), every ljm_nested call is unwound.
 * Expectations go to stdout as `expect` lines (tp.h).
 */
#include "tp.h"

#include <setjmp.h>

#define N_JUMPS 10000

extern unsigned long ljm_jump_count, ljm_tick_count, ljm_live_count, ljm_nested_count;
extern volatile int ljm_last;
void ljm_jump(jmp_buf *jb, int i);
long ljm_tick(long x);
long ljm_live(int n);

/* A real frame below main's: the jump leaves it as well. */
__attribute__((noinline, noipa)) static void deeper(jmp_buf *jb, int i)
{
	volatile char pad[256];

	pad[i & 255] = (char)i;
	ljm_jump(jb, i + pad[i & 255] - (char)i); /* i */
}

int main(void)
{
	static jmp_buf jb;
	volatile unsigned long jumps = 0;
	volatile long sum = 0, vals = 0;
	volatile int i;
	volatile long live = 0;

	for (i = 0; i < N_JUMPS; i++) {
		if (setjmp(jb) == 0) {
			if (i & 1)
				deeper(&jb, i);
			else
				ljm_jump(&jb, i);
		} else {
			jumps++;
			vals += ljm_last;
		}
		sum += ljm_tick(i);
	}
	printf("phase 1: %lu jumps, values %ld, tick sum %ld\n", jumps, vals, sum);

	for (i = 0; i < 1000; i++)
		live += ljm_live(3);
	printf("phase 2: live sum %ld\n", live);
	live = 0;
	for (i = 0; i < 3; i++)
		live += ljm_live(5000);
	printf("phase 3: live sum %ld\n", live);

	tp_expect(stdout, "ljm_jump", ljm_jump_count);
	tp_expect_unwound(stdout, "ljm_jump", jumps);
	tp_expect(stdout, "ljm_tick", ljm_tick_count);
	tp_expect_unwound(stdout, "ljm_tick", 0);
	tp_expect(stdout, "ljm_live", ljm_live_count);
	tp_expect_unwound(stdout, "ljm_live", 0);
	tp_expect(stdout, "ljm_nested", ljm_nested_count);
	tp_expect_unwound(stdout, "ljm_nested", ljm_nested_count);
	return 0;
}
