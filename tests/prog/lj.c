/*
 * lj.c - liblj.so: callees left by longjmp (lj_inner, and lj_outer above it, which calls
 * lj_inner through the PLT) and by siglongjmp out of a signal handler (lj_raise).
 */
#include <setjmp.h>
#include <signal.h>

unsigned long lj_inner_count, lj_outer_count, lj_raise_count;

void lj_inner(jmp_buf *jb, int i);
int lj_outer(jmp_buf *jb, int i);
int lj_raise(int i);

/* Jumps back to the caller's setjmp when i is a multiple of 10. */
void lj_inner(jmp_buf *jb, int i)
{
	lj_inner_count++;
	if (i % 10 == 0)
		longjmp(*jb, i);
}

int lj_outer(jmp_buf *jb, int i)
{
	lj_outer_count++;
	lj_inner(jb, i);
	return i + 1;
}

/* Raises SIGUSR1 when i is a multiple of 10; the program's handler siglongjmps out. */
int lj_raise(int i)
{
	lj_raise_count++;
	if (i % 10 == 0)
		raise(SIGUSR1);
	return i * 2;
}
