/* torture_avx.c - libtorture.so: ymm arguments and result (built with -mavx; called only
 * after __builtin_cpu_supports("avx")). */
#include <immintrin.h>

__m256d t_avx(__m256d a, __m256d b, __m256d c, double k);

__m256d t_avx(__m256d a, __m256d b, __m256d c, double k)
{
	return _mm256_add_pd(_mm256_mul_pd(a, b), _mm256_mul_pd(c, _mm256_set1_pd(k)));
}
