/*
 * t_clock.c SIDE-FILE - calls of known duration in nanoseconds, for the clock fallback.
 *
 * 20 calls of sw_nap (nanosleep of 1 ms) and 10,000 of sw_add. The program measures each
 * sw_nap call itself with clock_gettime(CLOCK_MONOTONIC) (never rdtsc: it must run where the
 * TSC is forbidden) and writes the median to SIDE-FILE as "nap_ns N", so that the report's
 * figure can be compared with it: nanoseconds, not ticks.
 */
#include "tp.h"

#include <time.h>

#define NAPS 20
#define ADDS 10000

long sw_add(long a, long b);
void sw_nap(void);

static long long ns_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int cmp_ll(const void *x, const void *y)
{
	long long a = *(const long long *)x, b = *(const long long *)y;

	return (a > b) - (a < b);
}

int main(int argc, char **argv)
{
	long long d[NAPS], t;
	long sum = 0;
	FILE *side;
	int i;

	side = tp_side_open(argc, argv, 1);
	for (i = 0; i < NAPS; i++) {
		t = ns_now();
		sw_nap();
		d[i] = ns_now() - t;
	}
	for (i = 0; i < ADDS; i++)
		sum += sw_add(i, 7);
	qsort(d, NAPS, sizeof(d[0]), cmp_ll);
	fprintf(side, "nap_ns %lld\n", (d[NAPS / 2 - 1] + d[NAPS / 2]) / 2);
	fclose(side);

	printf("%d naps, %d adds, sum %ld\n", NAPS, ADDS, sum);
	tp_expect(stdout, "sw_nap", NAPS);
	tp_expect(stdout, "sw_add", ADDS);
	return 0;
}
