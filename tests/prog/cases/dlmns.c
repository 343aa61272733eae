/*
 * dlmns.c - libdlmns.so: the library t_dlmopen_ns loads into a namespace of its own
 * (dlmopen LM_ID_NEWLM). dlmns_step is traced; dlmns_calls counts its calls there.
 * dlmns_heap takes and gives back memory of its namespace's libc (malloc, free).
 */
#include <stdlib.h>
#include <string.h>

long dlmns_step(long x);
long dlmns_run(long n);
long dlmns_heap(long n);

unsigned long dlmns_calls;

__attribute__((noipa)) long dlmns_step(long x)
{
	dlmns_calls++;
	return x * 5 + 1;
}

/* n calls of dlmns_step through the library's own PLT. */
__attribute__((noipa)) long dlmns_run(long n)
{
	long sum = 0, i;

	for (i = 0; i < n; i++)
		sum += dlmns_step(i);
	return sum;
}

/* n blocks from this namespace's malloc, filled, summed and freed by its free. */
__attribute__((noipa)) long dlmns_heap(long n)
{
	long sum = 0, i;

	for (i = 0; i < n; i++) {
		unsigned char *p = malloc((size_t)(64 + i));

		if (!p)
			return -1;
		memset(p, (int)(i & 0x7f), (size_t)(64 + i));
		sum += p[i];
		free(p);
	}
	return sum;
}
