/*
 * t_countonly.c - functions no trampoline can bracket, counted only: setjmp and sigsetjmp
 * each return twice (N times: longjmp / siglongjmp back from a deeper frame), getcontext
 * returns twice (setcontext back), swapcontext switches to a coroutine on its own stack
 * (makecontext) and back, N times each way. getppid, called between them, stays timed.
 * Expectations go to stdout as `expect` lines (tp.h).
 */
#include "tp.h"

#include <setjmp.h>
#include <ucontext.h>
#include <unistd.h>

#define N 1000

static jmp_buf jb;
static sigjmp_buf sjb;
static ucontext_t main_ctx, co_ctx, again_ctx;
static volatile unsigned long co_steps;
static char co_stack[256 * 1024] __attribute__((aligned(16)));

__attribute__((noinline, noipa)) static void jump_back(int i)
{
	longjmp(jb, i + 1);
}

__attribute__((noinline, noipa)) static void sigjump_back(int i)
{
	siglongjmp(sjb, i + 1);
}

static void coroutine(void)
{
	for (;;) {
		co_steps++;
		swapcontext(&co_ctx, &main_ctx);
	}
}

int main(void)
{
	volatile unsigned long sum = 0, twice = 0, pids = 0;
	volatile int i, back = 0;

	for (i = 0; i < N; i++) {
		int r = setjmp(jb);

		if (r == 0)
			jump_back(i);
		sum += (unsigned long)r;
		twice++;
	}
	for (i = 0; i < N; i++) {
		int r = sigsetjmp(sjb, 1);

		if (r == 0)
			sigjump_back(i);
		sum += (unsigned long)r;
		twice++;
		pids += getppid() > 0;
	}
	if (getcontext(&co_ctx) != 0)
		return 2;
	co_ctx.uc_stack.ss_sp = co_stack;
	co_ctx.uc_stack.ss_size = sizeof(co_stack);
	co_ctx.uc_link = &main_ctx;
	makecontext(&co_ctx, coroutine, 0);
	for (i = 0; i < N; i++)
		if (swapcontext(&main_ctx, &co_ctx) != 0)
			return 3;
	if (getcontext(&again_ctx) != 0)
		return 4;
	if (!back) {
		back = 1;
		setcontext(&again_ctx);
		return 5; /* setcontext does not return */
	}
	printf("sum %lu twice %lu pids %lu steps %lu back %d\n", sum, twice, pids, co_steps, back);
	/* Inline hooks also see libc's own calls (its start-up, _setjmp's jump to __sigsetjmp). */
	tp_expect_min(stdout, "_setjmp", N);
	tp_expect_min(stdout, "__sigsetjmp", N);
	tp_expect(stdout, "getppid", N);
	tp_expect(stdout, "getcontext", 2);
	tp_expect(stdout, "swapcontext", 2 * N);
	return 0;
}
