/*
 * t_many.c N - more traced functions than 16 bits count: libmany.so (gen_many.sh) holds N
 * functions many_f0..; this program first makes a traced call of strlen (its thread's table
 * of counters is sized then, before the library is loaded), then dlopens libmany.so (by its
 * path beside this program: under ASan a RUNPATH search would be libasan's) and calls, through dlsym pointers, every function of index >= 65,000 and every
 * 101st below, function i (i % 3) + 1 times. Prints the sum of the results, the same traced
 * or not.
 */
#include "tp.h"

#include <dlfcn.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *volatile word = "many";
	long n = argc > 1 ? atol(argv[1]) : 0, i, sum = 0;
	char name[32], path[PATH_MAX];
	ssize_t len;
	char *slash;
	void *h;

	if (n < 1) {
		fprintf(stderr, "usage: t_many N\n");
		return 2;
	}
	sum += (long)strlen(word); /* the thread's first traced call */
	len = readlink("/proc/self/exe", path, sizeof(path) - 16);
	if (len > 0)
		path[len] = 0;
	if (len <= 0 || !(slash = strrchr(path, '/'))) {
		perror("readlink /proc/self/exe");
		return 1;
	}
	strcpy(slash + 1, "libmany.so");
	h = dlopen(path, RTLD_NOW);
	if (!h) {
		fprintf(stderr, "dlopen(%s): %s\n", path, dlerror());
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
