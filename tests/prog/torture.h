/*
 * torture.h - signature torture functions of libtorture.so (test "signatures").
 *
 * Each one exercises a corner of the x86-64 SysV calling convention that a trampoline can
 * break: stack arguments, memory-returned structs, rax:rdx and xmm0:xmm1 pairs, x87 st0/st1,
 * __int128, a 512-byte struct by value, varargs (al = vector register count), full-width
 * ymm/zmm arguments, callee-saved registers, stack alignment and the direction flag.
 */
#ifndef TP_TORTURE_H
#define TP_TORTURE_H

#include <stddef.h>
#include <stdint.h>

struct s40 {
	long a, b, c, d, e;
}; /* 40 bytes: returned in memory */
struct s16 {
	long a, b;
}; /* rax:rdx */
struct d2 {
	double x, y;
}; /* xmm0:xmm1 */
struct mix {
	double d;
	long l;
}; /* xmm0 + rax */
struct big {
	unsigned char b[512];
}; /* passed in memory */

double t_many(int a1, int a2, int a3, int a4, int a5, int a6, int a7, int a8, int a9, double d1,
	      double d2, double d3, double d4, double d5, double d6, double d7, double d8,
	      double d9, double d10, double d11);
struct s40 t_ret40(long x, long y);
struct s16 t_ret16(long x, long y);
struct d2 t_retd2(double x, double y);
struct mix t_mix(long l, double d);
float t_float(float a, float b);
long double t_ld(long double a, long double b, int k);
_Complex long double t_cld(long double re, long double im); /* st0 and st1 */
unsigned __int128 t_i128(unsigned __int128 a, unsigned __int128 b, int s);
uint64_t t_big(long a, long b, long c, long d, long e, long f, struct big s, long g);
int t_fmt(char *buf, size_t n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
long t_clobber(long x);
/* (rsp + 8) % 16 at entry, plus 0x100 when the direction flag is set: 0 when the ABI holds. */
long t_rsp(void);

#endif /* TP_TORTURE_H */
