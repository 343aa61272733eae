/* sig_avx.c - t_signatures' caller of t_avx (built with -mavx, run only when supported). */
#include "tp.h"

#include <immintrin.h>

__m256d t_avx(__m256d a, __m256d b, __m256d c, double k);
void run_avx(uint64_t *h, int n);

void run_avx(uint64_t *h, int n)
{
	double out[4];
	int i;

	for (i = 0; i < n; i++) {
		__m256d a = _mm256_set_pd(i, i + 0.5, -i, 1.0 / (i + 1));
		__m256d b = _mm256_set_pd(3.0, -0.25 * i, 1e6 + i, 7.0 / (i + 2));
		__m256d c = _mm256_set_pd(i * i, 0.125, -2.0 * i, 1e-3 * i);
		__m256d r = t_avx(a, b, c, i * 0.001);

		_mm256_storeu_pd(out, r);
		tp_fold(h, out, sizeof(out));
	}
	printf("t_avx last: %a %a %a %a\n", out[0], out[1], out[2], out[3]);
}
