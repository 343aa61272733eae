/*
 * t_recursion.c - rec_fib(20) (21891 invocations, at most 20 deep) or, with argument "deep",
 * rec_depth(10000) (10001 invocations nested 10001 deep), each through librec.so's PLT.
 * The library counts its own invocations; the report must count exactly as many.
 */
#include "tp.h"

#include <string.h>

extern unsigned long rec_fib_count, rec_depth_count;
int rec_fib(int n);
long rec_depth(long n);

int main(int argc, char **argv)
{
	int r;

	if (argc > 1 && strcmp(argv[1], "deep") == 0) {
		long d = rec_depth(10000);

		printf("rec_depth(10000) = %ld, %lu invocations\n", d, rec_depth_count);
		tp_expect(stdout, "rec_depth", rec_depth_count);
		return 0;
	}
	r = rec_fib(20);

	printf("rec_fib(20) = %d, %lu invocations\n", r, rec_fib_count);
	r = rec_fib(15);
	printf("rec_fib(15) = %d\n", r);
	printf("total invocations %lu\n", rec_fib_count);
	tp_expect(stdout, "rec_fib", rec_fib_count);
	return 0;
}
