/*
 * ident.c - libident.so: OpenSSL's CRYPTO_malloc pattern, where a function's address read
 * through a GOT slot is compared with the same address relocated into data.
 *
 * id_impl, an exported pointer, starts out as id_get (a pointer in .data: the loader writes
 * the real address there, R_X86_64_64). id_get calls the replacement when one was installed,
 * which it tells by comparing id_impl with its own address, read through this library's
 * GLOB_DAT slot for id_get. Were that slot pointed at a stub, id_get would call id_impl, that
 * is itself, forever (a tail call: it spins).
 *
 * id_get's entry is assembly with a loop back into its first 5 bytes (refuse.S's loop_back),
 * which no inline hook may displace: it is hooked through GOT slots in every TSC_HOOK mode.
 * id_add is plain: inline-hooked where inline hooks are on.
 */
#include <stddef.h>
#include <string.h>

long id_get(long x);
long id_add(long a, long b);
long id_get_body(long x) __attribute__((visibility("hidden")));

long (*id_impl)(long) = id_get;

/* memcpy's address as this library has it: in .data, not in a GOT slot. */
void *(*id_memcpy)(void *, const void *, size_t) = memcpy;

long id_get_body(long x)
{
	if (id_impl != id_get)
		return id_impl(x);
	return 3 * x + 1;
}

__asm__(".text\n"
	".globl id_get\n"
	".type id_get, @function\n"
	".p2align 4\n"
	"id_get:\n"
	"	xorl %eax, %eax\n"
	"1:	addl $1, %eax\n"
	"	cmpl $1, %eax\n"
	"	jb 1b\n"
	"	jmp id_get_body\n"
	".size id_get, .-id_get\n");

long id_add(long a, long b)
{
	return a + b;
}
