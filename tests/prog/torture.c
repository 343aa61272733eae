/*
 * torture.c - libtorture.so: callees with awkward signatures (see torture.h). Every result
 * depends on every argument and on argument order, so a lost or swapped register shows up
 * in the caller's checksum.
 */
#include "torture.h"

#include <stdarg.h>
#include <stdio.h>

double t_many(int a1, int a2, int a3, int a4, int a5, int a6, int a7, int a8, int a9, double d1,
	      double d2, double d3, double d4, double d5, double d6, double d7, double d8,
	      double d9, double d10, double d11)
{
	const int ai[9] = { a1, a2, a3, a4, a5, a6, a7, a8, a9 };
	const double ad[11] = { d1, d2, d3, d4, d5, d6, d7, d8, d9, d10, d11 };
	double r = 0;
	int k;

	for (k = 0; k < 9; k++)
		r = r * 1.5 + ai[k] * (k + 1);
	for (k = 0; k < 11; k++)
		r = r * 0.75 + ad[k] * (k + 0.5);
	return r;
}

struct s40 t_ret40(long x, long y)
{
	struct s40 r = { x, y, x * 3 + y, x ^ (long)((unsigned long)y << 7), x - y * 5 };
	return r;
}

struct s16 t_ret16(long x, long y)
{
	struct s16 r = { x * 7 + y, x - y * 11 };
	return r;
}

struct d2 t_retd2(double x, double y)
{
	struct d2 r = { x * y + 0.125, x / y - 3.0 };
	return r;
}

struct mix t_mix(long l, double d)
{
	struct mix r = { d * (double)l - 0.5, l * 31 + (long)d };
	return r;
}

float t_float(float a, float b)
{
	return a * b + 1.0f / (a + 2.0f);
}

long double t_ld(long double a, long double b, int k)
{
	return a * b + (long double)k / 3.0L;
}

_Complex long double t_cld(long double re, long double im)
{
	_Complex long double z;

	__real__ z = re * 1.25L - im;
	__imag__ z = im / 7.0L + re;
	return z;
}

unsigned __int128 t_i128(unsigned __int128 a, unsigned __int128 b, int s)
{
	return a * b + (a >> (s & 127)) + (b << 3);
}

uint64_t t_big(long a, long b, long c, long d, long e, long f, struct big s, long g)
{
	uint64_t h = 1469598103934665603ULL;
	size_t i;

	for (i = 0; i < sizeof(s.b); i++)
		h = (h ^ s.b[i]) * 1099511628211ULL;
	return h ^ (uint64_t)(a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f) ^ ((uint64_t)g << 17);
}

int t_fmt(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vsnprintf(buf, n, fmt, ap);
	va_end(ap);
	return r;
}

long t_clobber(long x)
{
	volatile long v[8];
	long i, r = 0;

	for (i = 0; i < 8; i++)
		v[i] = x * (i + 1);
	for (i = 0; i < 8; i++)
		r += v[i] ^ i;
	return r;
}

/* Written in asm so that nothing touches %rsp before it is read. */
__asm__(".text\n"
	".globl t_rsp\n"
	".type t_rsp, @function\n"
	".p2align 4\n"
	"t_rsp:\n"
	"	lea 8(%rsp), %rax\n"
	"	and $15, %eax\n"
	"	pushfq\n"
	"	pop %rdx\n"
	"	shr $10, %edx\n"
	"	and $1, %edx\n"
	"	shl $8, %edx\n"
	"	or %rdx, %rax\n"
	"	ret\n"
	".size t_rsp, .-t_rsp\n");
