/*
 * t_ident.c - function-pointer identity under GOT hooks. Built with -fno-plt: its calls of
 * id_get and id_add go through GLOB_DAT slots (`jmp *id_get@GOTPCREL(%rip)`) that nothing
 * else reads, which stay traced; it takes memcpy's address through its GLOB_DAT slot for
 * memcpy (`mov memcpy@GOTPCREL(%rip), %rax`), which must then equal the address libident.so
 * relocated into data. libident.so's id_get compares its own address the same way (ident.c):
 * traced, it must not call itself forever. run.sh checks how each slot is used.
 */
#include <string.h>

#include "tp.h"

#define N_GET 3000
#define N_ADD 2000

long id_get(long x);
long id_add(long a, long b);
extern void *(*id_memcpy)(void *, const void *, size_t);

/* One call site each, a tail call: the slot is read by that `jmp *` only (a loop could get
 * the address loaded into a register once, which is a data use). */
__attribute__((noinline)) static long get(long x)
{
	return id_get(x);
}

__attribute__((noinline)) static long add(long a, long b)
{
	return id_add(a, b);
}

int main(void)
{
	/* volatile: the comparison is made at run time, from the GOT slot. */
	void *volatile mine = (void *)memcpy;
	long sum = 0, i;

	for (i = 0; i < N_GET; i++)
		sum += get(i);
	for (i = 0; i < N_ADD; i++)
		sum = add(sum, i) % 1000003;
	printf("sum %ld\n", sum);
	printf("memcpy here and in libident.so: %s\n",
	       mine == (void *)id_memcpy ? "the same address" : "different addresses");
	tp_expect(stdout, "id_get", N_GET);
	tp_expect(stdout, "id_add", N_ADD);
	return 0;
}
