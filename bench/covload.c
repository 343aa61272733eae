/*
 * covload.c - a small real program for the inline-coverage measure (coverage.sh): it loads
 * the library being measured at start-up and does some work with it, so that the functions
 * the shim patched are run (a wrong patch crashes it or changes its checksum).
 *
 *	covload		libc only: sort, format, copy, compare, allocate, a temporary file
 *	covload_z	also zlib (built with -DCOV_Z, linked with libz.so.1): compress, crc32
 *	covload_sqlite3	also SQLite (-DCOV_SQLITE3, libsqlite3.so.0): a table in memory
 *
 * The libraries' prototypes are declared here so that only their runtime packages
 * (zlib1g, libsqlite3-0) are needed, not their -dev packages. Prints `checksum=N`; exits 1
 * if the work went wrong. With the argument `start`, does nothing (run.sh times the shim's
 * start-up with a whole library traced).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef COV_Z
int compress(unsigned char *dest, unsigned long *dest_len, const unsigned char *src,
	     unsigned long src_len);
int uncompress(unsigned char *dest, unsigned long *dest_len, const unsigned char *src,
	       unsigned long src_len);
unsigned long crc32(unsigned long crc, const unsigned char *buf, unsigned int len);
#endif

#ifdef COV_SQLITE3
typedef struct sqlite3 sqlite3;
int sqlite3_open(const char *name, sqlite3 **db);
int sqlite3_exec(sqlite3 *db, const char *sql, int (*cb)(void *, int, char **, char **), void *arg,
		 char **err);
int sqlite3_close(sqlite3 *db);

static int row_cb(void *arg, int n, char **vals, char **cols)
{
	(void)cols;
	if (n == 1 && vals[0])
		*(long *)arg = strtol(vals[0], NULL, 10);
	return 0;
}
#endif

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	enum { N = 4096 };
	static char text[N * 8], back[N * 8];
	int *v = malloc(N * sizeof(*v));
	unsigned long sum = 0;
	size_t len = 0;
	FILE *f;
	int i;

	if (argc > 1 && strcmp(argv[1], "start") == 0) {
		free(v);
		return 0;
	}
	if (!v)
		return 1;
	for (i = 0; i < N; i++)
		v[i] = (i * 7919) % N;
	qsort(v, N, sizeof(*v), cmp_int);
	for (i = 0; i < N; i++) {
		if (v[i] != i)
			return 1;
		len += (size_t)snprintf(text + len, sizeof(text) - len, "%d ", v[i]);
	}
	free(v);
	f = tmpfile();
	if (!f || fwrite(text, 1, len, f) != len || fseek(f, 0, SEEK_SET) != 0 ||
	    fread(back, 1, len, f) != len || memcmp(text, back, len) != 0)
		return 1;
	fclose(f);
	sum = strlen(text) + (unsigned long)(strchr(text, '9') - text);
#ifdef COV_Z
	{
		static unsigned char packed[N * 8 + 1024], unpacked[N * 8];
		unsigned long plen = sizeof(packed), ulen = sizeof(unpacked);

		if (compress(packed, &plen, (const unsigned char *)text, len) != 0 ||
		    uncompress(unpacked, &ulen, packed, plen) != 0 || ulen != len ||
		    memcmp(unpacked, text, len) != 0)
			return 1;
		sum += crc32(0, unpacked, (unsigned int)ulen) & 0xffff;
	}
#endif
#ifdef COV_SQLITE3
	{
		sqlite3 *db;
		long total = -1;

		if (sqlite3_open(":memory:", &db) != 0 ||
		    sqlite3_exec(db,
				 "create table t(a integer);"
				 "with recursive c(x) as (select 1 union all select x + 1 from c "
				 "where x < 1000) insert into t select x from c;"
				 "select sum(a) from t;",
				 row_cb, &total, NULL) != 0 ||
		    total != 500500)
			return 1;
		sqlite3_close(db);
		sum += (unsigned long)total;
	}
#endif
	printf("checksum=%lu\n", sum);
	return 0;
}
