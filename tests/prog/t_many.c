/*
 * t_many.c N - more traced functions than 16 bits count: libmany.so (gen_many.sh) holds N
 * functions many_f0..; this program first makes a traced call of strlen (its thread's table
 * of counters is sized then, before the library is loaded), then dlopens libmany.so (through
 * its RUNPATH) and calls, through dlsym pointers, every function of index >= 65,000 and every
 * 101st below, function i (i % 3) + 1 times. Prints the sum of the results, the same traced
 * or not.
 */
#include "tp.h"

#include <dlfcn.h>
#include <string.h>

int main(int argc, char **argv)
{
	const char *volatile word = "many";
	long n = argc > 1 ? atol(argv[1]) : 0, i, sum = 0;
	char name[32];
	void *h;

	if (n < 1) {
		fprintf(stderr, "usage: t_many N\n");
		return 2;
	}
	sum += (long)strlen(word); /* the thread's first traced call */
	h = dlopen("libmany.so", RTLD_NOW);
	if (!h) {
		fprintf(stderr, "dlopen(libmany.so): %s\n", dlerror());
		return 1;
	}
	for (i = 0; i < n; i++) {
		int (*f)(int);
		long k;

		if (i < 65000 && i % 101 != 0)
			continue;
		snprintf(name, sizeof(name), "many_f%ld", i);
		*(void **)&f = dlsym(h, name);
		if (!f) {
			fprintf(stderr, "dlsym(%s): %s\n", name, dlerror());
			return 1;
		}
		for (k = 0; k <= i % 3; k++)
			sum += f((int)k) - k;
	}
	printf("sum %ld\n", sum);
	return 0;
}
