/*
 * t_signatures.c - call every libtorture.so function (torture.h) 1000 times through the PLT
 * and print one checksum per function over the bit patterns of all results, plus the last
 * result in hex-float form. Any register, stack argument or return value the shim disturbs
 * changes a line of output. Also checks callee-saved registers across a PLT call (asm),
 * stack alignment and the direction flag at the callee's entry.
 */
#include "torture.h"
#include "tp.h"

#include <string.h>

#define N 1000

void run_avx(uint64_t *h, int n);
void run_avx512(uint64_t *h, int n);

/*
 * unsigned tp_regcheck(long x, long *result): load magic values into rbx, rbp, r12-r15, call
 * t_clobber(x) through the PLT, store its result, return a bit mask of the callee-saved
 * registers whose value did not survive (bit 0 rbx ... bit 5 r15).
 */
unsigned tp_regcheck(long x, long *result);
__asm__(".text\n"
	".globl tp_regcheck\n"
	".type tp_regcheck, @function\n"
	".p2align 4\n"
	"tp_regcheck:\n"
	"	push %rbx\n"
	"	push %rbp\n"
	"	push %r12\n"
	"	push %r13\n"
	"	push %r14\n"
	"	push %r15\n"
	"	push %rsi\n" /* 7 pushes: %rsp is 16-aligned at the call */
	"	movabs $0x1111111111111101, %rbx\n"
	"	movabs $0x2222222222222202, %rbp\n"
	"	movabs $0x3333333333333303, %r12\n"
	"	movabs $0x4444444444444404, %r13\n"
	"	movabs $0x5555555555555505, %r14\n"
	"	movabs $0x6666666666666606, %r15\n"
	"	call t_clobber@PLT\n"
	"	xor %ecx, %ecx\n"
	"	movabs $0x1111111111111101, %rdx\n"
	"	cmp %rdx, %rbx\n"
	"	je 1f\n"
	"	or $1, %ecx\n"
	"1:	movabs $0x2222222222222202, %rdx\n"
	"	cmp %rdx, %rbp\n"
	"	je 1f\n"
	"	or $2, %ecx\n"
	"1:	movabs $0x3333333333333303, %rdx\n"
	"	cmp %rdx, %r12\n"
	"	je 1f\n"
	"	or $4, %ecx\n"
	"1:	movabs $0x4444444444444404, %rdx\n"
	"	cmp %rdx, %r13\n"
	"	je 1f\n"
	"	or $8, %ecx\n"
	"1:	movabs $0x5555555555555505, %rdx\n"
	"	cmp %rdx, %r14\n"
	"	je 1f\n"
	"	or $16, %ecx\n"
	"1:	movabs $0x6666666666666606, %rdx\n"
	"	cmp %rdx, %r15\n"
	"	je 1f\n"
	"	or $32, %ecx\n"
	"1:	pop %rsi\n"
	"	mov %rax, (%rsi)\n"
	"	mov %ecx, %eax\n"
	"	pop %r15\n"
	"	pop %r14\n"
	"	pop %r13\n"
	"	pop %r12\n"
	"	pop %rbp\n"
	"	pop %rbx\n"
	"	ret\n"
	".size tp_regcheck, .-tp_regcheck\n");

static void line(const char *name, uint64_t h, const char *last)
{
	printf("%-9s %016" PRIx64 " %s\n", name, h, last);
}

int main(void)
{
	char last[512], buf[256];
	uint64_t h;
	unsigned regmask = 0;
	long bad_rsp = 0;
	int i, avx, avx512;

	h = TP_FNV_INIT;
	for (i = 0; i < N; i++) {
		double r = t_many(i, -i, 3 * i, 4, 5 - i, 6, 7 + i, 8, 9 * i, i * 0.5,
				  -1.0 / (i + 1), 2.5, i * 1e-3, 5.0, 6.25 * i, 7.0, -8.5, i * 9.0,
				  1e10 - i, 0.1 * i);
		tp_fold(&h, &r, sizeof(r));
		snprintf(last, sizeof(last), "%a", r);
	}
	line("t_many", h, last);

	h = TP_FNV_INIT;
	for (i = 0; i < N; i++) {
		struct s40 r = t_ret40(i * 1000003L, -i - 7L);
		tp_fold(&h, &r, sizeof(r));
		snprintf(last, sizeof(last), "%ld %ld %ld %ld %ld", r.a, r.b, r.c, r.d, r.e);
	}
	line("t_ret40", h, last);

	h = TP_FNV_INIT;
	for (i = 0; i < N; i++) {
		struct s16 r = t_ret16(i * 77L, 1L << (i % 40));
		tp_fold(&h, &r, sizeof(r));
		snprintf(last, sizeof(last), "%ld %ld", r.a, r.b);
	}
	line("t_ret16", h, last);

	h = TP_FNV_INIT;
	for (i = 0; i < N; i++) {
		struct d2 r = t_retd2(i + 0.1, 3.0 - i);
		tp_fold(&h, &r, sizeof(r));
		snprintf(last, sizeof(last), "%a %a", r.x, r.y);
	}
	line("t_retd2", h, last);

	h = TP_FNV_INIT;
	for (i = 0; i < N; i++) {
		struct mix r = t_mix(i - 500L, i * 0.3);
		tp_fold(&h, &r, sizeof(r));
		snprintf(last, sizeof(last), "%a %ld", r.d, r.l);
	}
	line("t_mix", h, last);

	h = TP_FNV_INIT;
	for (i = 0; i < N; i++) {
		float r = t_float(i * 0.5f, 1.0f / (i + 3));
		tp_fold(&h, &r, sizeof(r));
		snprintf(last, sizeof(last), "%a", (double)r);
	}
	line("t_float", h, last);

	h = TP_FNV_INIT;
	for (i = 0; i < N; i++) {
		long double r = t_ld(i / 3.0L, 1.0L / (i + 1), i);
		tp_fold(&h, &r, 10); /* the 80-bit value, not the padding */
		snprintf(last, sizeof(last), "%La", r);
	}
	line("t_ld", h, last);

	h = TP_FNV_INIT;
	for (i = 0; i < N; i++) {
		_Complex long double r = t_cld(i / 7.0L, -i * 1.5L);
		long double re = __real__ r, im = __imag__ r;
		tp_fold(&h, &re, 10);
		tp_fold(&h, &im, 10);
		snprintf(last, sizeof(last), "%La %La", re, im);
	}
	line("t_cld", h, last);

	h = TP_FNV_INIT;
	for (i = 0; i < N; i++) {
		unsigned __int128 a = ((unsigned __int128)(0x9e3779b97f4a7c15ULL * (i + 1)) << 64) |
				      (unsigned)i;
		unsigned __int128 b = ((unsigned __int128)i << 70) + 0xfedcba9876543210ULL;
		unsigned __int128 r = t_i128(a, b, i);
		tp_fold(&h, &r, sizeof(r));
		snprintf(last, sizeof(last), "%016" PRIx64 "%016" PRIx64, (uint64_t)(r >> 64),
			 (uint64_t)r);
	}
	line("t_i128", h, last);

	h = TP_FNV_INIT;
	for (i = 0; i < N; i++) {
		struct big s;
		uint64_t r;
		size_t k;

		for (k = 0; k < sizeof(s.b); k++)
			s.b[k] = (unsigned char)(i * 13 + k * 7);
		r = t_big(i, 2, -3, 4L << 20, 5, i * 6, s, 0x123456789L + i);
		tp_fold(&h, &r, sizeof(r));
		snprintf(last, sizeof(last), "%016" PRIx64, r);
	}
	line("t_big", h, last);

	h = TP_FNV_INIT;
	for (i = 0; i < N; i++) {
		int r = t_fmt(buf, sizeof(buf), "%d %f %s %.17g %La %a %ld", i, i * 0.25, "x",
			      i / 3.0, (long double)i / 7, i * 1.5, (long)i * 100000);
		tp_fold(&h, &r, sizeof(r));
		tp_fold(&h, buf, strlen(buf));
		snprintf(last, sizeof(last), "%d [%s]", r, buf);
	}
	line("t_fmt", h, last);

	h = TP_FNV_INIT;
	for (i = 0; i < N; i++) {
		long r;

		regmask |= tp_regcheck(i * 3L - 1000, &r);
		tp_fold(&h, &r, sizeof(r));
		snprintf(last, sizeof(last), "%ld", r);
	}
	line("t_clobber", h, last);
	printf("callee-saved registers lost (mask rbx,rbp,r12-r15): %#x\n", regmask);

	for (i = 0; i < N; i++) {
		long r = t_rsp();

		if (r != 0) {
			if (!bad_rsp)
				printf("t_rsp: first bad entry state %#lx\n", r);
			bad_rsp++;
		}
	}
	printf("t_rsp: %ld calls with misaligned stack or DF set\n", bad_rsp);

	avx = __builtin_cpu_supports("avx");
	avx512 = __builtin_cpu_supports("avx512f");
	h = TP_FNV_INIT;
	if (avx)
		run_avx(&h, N);
	line("t_avx", h, avx ? "run" : "skipped (no avx)");
	h = TP_FNV_INIT;
	if (avx512)
		run_avx512(&h, N);
	line("t_avx512", h, avx512 ? "run" : "skipped (no avx512f)");

	tp_expect(stdout, "t_many", N);
	tp_expect(stdout, "t_ret40", N);
	tp_expect(stdout, "t_ret16", N);
	tp_expect(stdout, "t_retd2", N);
	tp_expect(stdout, "t_mix", N);
	tp_expect(stdout, "t_float", N);
	tp_expect(stdout, "t_ld", N);
	tp_expect(stdout, "t_cld", N);
	tp_expect(stdout, "t_i128", N);
	tp_expect(stdout, "t_big", N);
	tp_expect(stdout, "t_fmt", N);
	tp_expect(stdout, "t_clobber", N);
	tp_expect(stdout, "t_rsp", N);
	tp_expect(stdout, "t_avx", avx ? N : 0);
	tp_expect(stdout, "t_avx512", avx512 ? N : 0);
	return 0;
}
