/*
 * percall_xray.c - the LLVM XRay peer of bench/run.sh: percall's loop with bench_fn in the
 * executable, built by clang with -fxray-instrument (XRay instruments the functions of the
 * executable it is compiled into, not calls into a shared library, so this is "the same loop,
 * same-executable variant"). Only xray_fn is instrumented: main and the loop carry
 * xray_never_instrument.
 *
 *	percall_xray fdr [N]	initialise XRay's FDR (flight data recorder) mode with the options
 *				in XRAY_FDR_OPTIONS, patch the sleds, run the loop, then finalize
 *				and flush the log (to XRAY_OPTIONS' xray_logfile_base)
 *	percall_xray off [N]	the same binary, sleds left unpatched (a few nops per call)
 *
 * XRAY_OPTIONS must contain xray_mode=xray-fdr for the FDR mode to be registered (run.sh sets
 * it). The loop is timed as in percall.c and the same key=value line is printed. The XRay
 * interface is C++ (xray/xray_log_interface.h); the four C-linkage entry points it needs are
 * declared here, their enum results read as int.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define NEVER __attribute__((xray_never_instrument))

int __xray_log_init_mode(const char *mode, const char *config);
int __xray_log_finalize(void);
int __xray_log_flushLog(void);
int __xray_patch(void);

/* XRayLogInitStatus / XRayLogFlushStatus / XRayPatchingStatus values used below. */
#define XRAY_LOG_INITIALIZED 2
#define XRAY_LOG_FINALIZED 4
#define XRAY_LOG_FLUSHED 2
#define XRAY_PATCH_SUCCESS 1

__attribute__((noinline, xray_always_instrument)) int xray_fn(int x)
{
	__asm__ volatile("");
	return x + 1;
}

NEVER static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

NEVER static inline uint64_t tsc_fenced(void)
{
	uint32_t lo, hi;

	__asm__ volatile("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

NEVER __attribute__((noinline)) static int loop(long n, int x)
{
	long i;

	for (i = 0; i < n; i++)
		x = xray_fn(x);
	return x;
}

NEVER int main(int argc, char **argv)
{
	long n = argc > 2 ? strtol(argv[2], NULL, 10) : 2000000;
	uint64_t t0, t1, ns0, ns1;
	int fdr, x;

	if (argc < 2 || (strcmp(argv[1], "fdr") && strcmp(argv[1], "off")) || n <= 0) {
		fprintf(stderr, "usage: percall_xray fdr|off [calls]\n");
		return 2;
	}
	fdr = !strcmp(argv[1], "fdr");
	if (fdr) {
		const char *opt = getenv("XRAY_FDR_OPTIONS");
		int s = __xray_log_init_mode("xray-fdr", opt ? opt : "");

		if (s != XRAY_LOG_INITIALIZED) {
			fprintf(stderr,
				"percall_xray: FDR mode did not initialise (status %d; "
				"XRAY_OPTIONS needs xray_mode=xray-fdr)\n",
				s);
			return 1;
		}
		if (__xray_patch() != XRAY_PATCH_SUCCESS) {
			fprintf(stderr, "percall_xray: __xray_patch failed\n");
			return 1;
		}
	}
	ns0 = now_ns();
	t0 = tsc_fenced();
	x = loop(n, 0);
	t1 = tsc_fenced();
	ns1 = now_ns();
	if (x != (int)n) {
		fprintf(stderr, "percall_xray: computed %d, expected %ld\n", x, n);
		return 1;
	}
	if (fdr && (__xray_log_finalize() != XRAY_LOG_FINALIZED ||
		    __xray_log_flushLog() != XRAY_LOG_FLUSHED)) {
		fprintf(stderr, "percall_xray: the FDR log could not be finalized and flushed\n");
		return 1;
	}
	printf("mode=xray-%s calls=%ld ticks=%llu ns=%llu per_call_ticks=%.2f per_call_ns=%.2f\n",
	       argv[1], n, (unsigned long long)(t1 - t0), (unsigned long long)(ns1 - ns0),
	       (double)(t1 - t0) / (double)n, (double)(ns1 - ns0) / (double)n);
	return 0;
}
