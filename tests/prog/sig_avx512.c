/* sig_avx512.c - t_signatures' caller of t_avx512 (built with -mavx512f, run only when
 * supported). */
#include "tp.h"

#include <immintrin.h>

__m512d t_avx512(__m512d a, __m512d b, __m512d c, double k);
void run_avx512(uint64_t *h, int n);

void run_avx512(uint64_t *h, int n)
{
	double out[8];
	int i;

	for (i = 0; i < n; i++) {
		__m512d a = _mm512_set_pd(i, i + 0.5, -i, 1.0 / (i + 1), 2.0 * i, 3.5, -7.0,
					  i * 1e-4);
		__m512d b = _mm512_set_pd(3.0, -0.25 * i, 1e6 + i, 7.0 / (i + 2), 11.0, i, -i, 0.5);
		__m512d c = _mm512_set_pd(i * i, 0.125, -2.0 * i, 1e-3 * i, 9.0, -9.0, i + 1,
					  1.0 / 3);
		__m512d r = t_avx512(a, b, c, i * 0.001);

		_mm512_storeu_pd(out, r);
		tp_fold(h, out, sizeof(out));
	}
	printf("t_avx512 last: %a %a %a %a %a %a %a %a\n", out[0], out[1], out[2], out[3], out[4],
	       out[5], out[6], out[7]);
}
