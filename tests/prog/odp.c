/*
 * odp.c - libodp.so, only ever dlopen'd by t_owndeps: calls some of the functions the shim
 * itself depends on through its own PLT, counting them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

unsigned long odp_malloc, odp_free, odp_strlen, odp_snprintf, odp_memcpy;

long odp_work(int n);

/* n rounds of: format a number, measure it, copy it into a fresh block, free the block. */
long odp_work(int n)
{
	char buf[64];
	long total = 0;
	int i;

	for (i = 0; i < n; i++) {
		char *p;
		size_t len;

		snprintf(buf, sizeof(buf), "plugin-%d", i);
		odp_snprintf++;
		len = strlen(buf);
		odp_strlen++;
		p = malloc(len + 1);
		odp_malloc++;
		if (!p)
			return -1;
		memcpy(p, buf, len + 1);
		odp_memcpy++;
		total += (long)len + p[len - 1];
		free(p);
		odp_free++;
	}
	return total;
}
