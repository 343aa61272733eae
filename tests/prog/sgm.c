/*
 * sgm.c - libsgm.so for t_sigmore: traced callees that are interrupted by signals at a known
 * instruction, so that a handler can check the interrupted context it is given.
 *   sgm_trap   executes int3 (SIGTRAP) after storing the address of the next instruction and
 *              its %rsp: the handler's uc_mcontext must show exactly those
 *   sgm_spin   spins until *flag is set, after storing the loop's bounds and its %rsp: a timer
 *              signal interrupting the loop must show a %rip inside it and that %rsp
 *   sgm_leaf   a plain callee for handlers
 *   sgm_jump   siglongjmps to the sigjmp_buf it is given (called from a handler)
 *   sgm_after  a plain callee for the calls after all the jumps
 */
#include <setjmp.h>
#include <stdint.h>

unsigned long sgm_trap_count, sgm_spin_count, sgm_leaf_count, sgm_jump_count, sgm_after_count;
uintptr_t sgm_trap_rip, sgm_trap_rsp;		  /* set by sgm_trap before int3 */
uintptr_t sgm_spin_lo, sgm_spin_hi, sgm_spin_rsp; /* set by sgm_spin before its loop */

long sgm_trap(long x);
long sgm_spin(volatile int *flag);
long sgm_leaf(long x);
void sgm_jump(sigjmp_buf *jb, int v);
long sgm_after(long x);

long sgm_trap(long x)
{
	sgm_trap_count++;
	__asm__ volatile("leaq 1f(%%rip), %%rax\n\t"
			 "movq %%rax, %0\n\t"
			 "movq %%rsp, %1\n\t"
			 "int3\n"
			 "1:"
			 : "=m"(sgm_trap_rip), "=m"(sgm_trap_rsp)
			 :
			 : "rax", "memory");
	return x * 2 + 1;
}

long sgm_spin(volatile int *flag)
{
	sgm_spin_count++;
	__asm__ volatile("leaq 1f(%%rip), %%rax\n\t"
			 "movq %%rax, %0\n\t"
			 "leaq 2f(%%rip), %%rax\n\t"
			 "movq %%rax, %1\n\t"
			 "movq %%rsp, %2\n"
			 "1:\tpause\n\t"
			 "cmpl $0, (%3)\n\t"
			 "je 1b\n"
			 "2:"
			 : "=m"(sgm_spin_lo), "=m"(sgm_spin_hi), "=m"(sgm_spin_rsp)
			 : "r"(flag)
			 : "rax", "memory", "cc");
	return *flag;
}

long sgm_leaf(long x)
{
	sgm_leaf_count++;
	return x * 3 + 1;
}

void sgm_jump(sigjmp_buf *jb, int v)
{
	sgm_jump_count++;
	siglongjmp(*jb, v);
}

long sgm_after(long x)
{
	sgm_after_count++;
	return x + 11;
}
