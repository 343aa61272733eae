/*
 * err.c - liberr.so: callees whose errno behaviour the caller checks. err_set sets errno and
 * returns -1 for two thirds of its inputs and leaves errno alone otherwise; err_keep never
 * touches errno.
 */
#include <errno.h>

int err_set(int v);
int err_keep(int v);

int err_set(int v)
{
	if (v % 3 == 0) {
		errno = EDOM;
		return -1;
	}
	if (v % 3 == 1) {
		errno = 1000 + v;
		return -1;
	}
	return v;
}

int err_keep(int v)
{
	return v + 1;
}
