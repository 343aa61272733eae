/*
 * t_longjmp.c - traced calls left by longjmp (two traced frames at once) and by siglongjmp
 * from a signal handler: each counts in calls and in unwound, and the calls after them must
 * still be counted and timed normally.
 */
#include "tp.h"

#include <setjmp.h>
#include <signal.h>
#include <string.h>

#define N 1000

extern unsigned long lj_inner_count, lj_outer_count, lj_raise_count;
void lj_inner(jmp_buf *jb, int i);
int lj_outer(jmp_buf *jb, int i);
int lj_raise(int i);

static sigjmp_buf sjb;

static void on_usr1(int sig)
{
	(void)sig;
	siglongjmp(sjb, 1);
}

int main(void)
{
	static jmp_buf jb;
	volatile unsigned long jumps = 0, sigjumps = 0;
	volatile long sum = 0;
	volatile int i;
	struct sigaction sa;

	for (i = 1; i <= N; i++) {
		if (setjmp(jb) == 0)
			sum += lj_outer(&jb, i);
		else
			jumps++;
	}
	printf("longjmp: sum %ld, %lu jumps\n", sum, jumps);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	sum = 0;
	for (i = 1; i <= N; i++) {
		if (sigsetjmp(sjb, 1) == 0)
			sum += lj_raise(i);
		else
			sigjumps++;
	}
	printf("siglongjmp: sum %ld, %lu jumps\n", sum, sigjumps);

	/* Plain calls after all the jumps: counted and timed as usual. */
	sum = 0;
	for (i = 1; i <= 100; i++)
		sum += lj_outer(&jb, i * 10 + 1);
	printf("after: sum %ld\n", sum);

	tp_expect(stdout, "lj_outer", lj_outer_count);
	tp_expect(stdout, "lj_inner", lj_inner_count);
	tp_expect(stdout, "lj_raise", lj_raise_count);
	tp_expect_unwound(stdout, "lj_outer", jumps);
	tp_expect_unwound(stdout, "lj_inner", jumps);
	tp_expect_unwound(stdout, "lj_raise", sigjumps);
	return 0;
}
