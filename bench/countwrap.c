/*
 * countwrap.c - libcountwrap.so, the floor that sampling.sh holds exact counting against: the
 * cheapest exact count an LD_PRELOAD tool can make of memcmp, strlen, malloc and free.
 *
 * Each is a preloaded function of the same name that adds one to a counter in initial-exec
 * TLS (one instruction) and tail-calls the real one: no serializing instruction, no clock, no
 * table, no test. Calls that libc makes to memcmp and strlen inside itself bind to libc's own
 * copies and are not seen here (tsctrace's inline hooks count them too), so this wrapper does
 * less than tsctrace's counted path; what it costs is a lower bound on what any exact count of
 * these calls by interposition costs.
 *
 * At exit, when BENCH_COUNT_OUT names a file, it gets the main thread's counts.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define EXPORT __attribute__((visibility("default")))
#define TLS __thread __attribute__((tls_model("initial-exec")))

/* glibc's own allocator entry points: no dlsym, which may itself allocate. */
extern void *__libc_malloc(size_t n);
extern void __libc_free(void *p);

static int (*real_memcmp)(const void *, const void *, size_t);
static size_t (*real_strlen)(const char *);
static TLS uint64_t n_memcmp, n_strlen, n_malloc, n_free;

__attribute__((constructor)) static void countwrap_init(void)
{
	real_memcmp = (int (*)(const void *, const void *, size_t))dlsym(RTLD_NEXT, "memcmp");
	real_strlen = (size_t(*)(const char *))dlsym(RTLD_NEXT, "strlen");
}

/* Before the constructor (other libraries' constructors, dlsym itself): a plain loop. */
static int slow_memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *p = a, *q = b;

	for (; n; n--, p++, q++)
		if (*p != *q)
			return *p - *q;
	return 0;
}

static size_t slow_strlen(const char *s)
{
	const char *p = s;

	while (*p)
		p++;
	return (size_t)(p - s);
}

EXPORT int memcmp(const void *a, const void *b, size_t n)
{
	n_memcmp++;
	return __builtin_expect(real_memcmp != NULL, 1) ? real_memcmp(a, b, n)
							: slow_memcmp(a, b, n);
}

EXPORT size_t strlen(const char *s)
{
	n_strlen++;
	return __builtin_expect(real_strlen != NULL, 1) ? real_strlen(s) : slow_strlen(s);
}

EXPORT void *malloc(size_t n)
{
	n_malloc++;
	return __libc_malloc(n);
}

EXPORT void free(void *p)
{
	n_free++;
	__libc_free(p);
}

__attribute__((destructor)) static void countwrap_fini(void)
{
	const char *path = getenv("BENCH_COUNT_OUT");
	FILE *f;

	if (!path || !(f = fopen(path, "w")))
		return;
	fprintf(f, "memcmp=%llu strlen=%llu malloc=%llu free=%llu\n", (unsigned long long)n_memcmp,
		(unsigned long long)n_strlen, (unsigned long long)n_malloc,
		(unsigned long long)n_free);
	fclose(f);
}
