/* torture_avx512.c - libtorture.so: zmm arguments and result (built with -mavx512f; called
 * only after __builtin_cpu_supports("avx512f")). */
#include <immintrin.h>

__m512d t_avx512(__m512d a, __m512d b, __m512d c, double k);

__m512d t_avx512(__m512d a, __m512d b, __m512d c, double k)
{
	return _mm512_add_pd(_mm512_mul_pd(a, b), _mm512_mul_pd(c, _mm512_set1_pd(k)));
}
