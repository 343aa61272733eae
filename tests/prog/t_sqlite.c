/*
 * t_sqlite.c - SQLite statements in a program traced with every function of libsqlite3
 * (cases_whole.sh): a table in memory, 200 rows inserted, two queries printed. The few
 * functions used are declared here, so only the library itself is needed (Debian
 * libsqlite3-0), not its headers. sqlite3_libversion_number is called 300 times by the
 * program alone: its count is exact.
 */
#include "tp.h"

struct sqlite3;
typedef int (*row_fn)(void *ctx, int ncols, char **values, char **names);

int sqlite3_open(const char *filename, struct sqlite3 **db);
int sqlite3_exec(struct sqlite3 *db, const char *sql, row_fn callback, void *ctx, char **err);
int sqlite3_close(struct sqlite3 *db);
int sqlite3_libversion_number(void);

static int print_row(void *ctx, int ncols, char **values, char **names)
{
	int i;

	(void)ctx;
	for (i = 0; i < ncols; i++)
		printf("%s%s=%s", i ? " " : "", names[i], values[i] ? values[i] : "NULL");
	printf("\n");
	return 0;
}

static void run(struct sqlite3 *db, const char *sql, row_fn fn)
{
	if (sqlite3_exec(db, sql, fn, NULL, NULL) != 0) {
		fprintf(stderr, "sqlite3_exec failed: %s\n", sql);
		exit(1);
	}
}

int main(void)
{
	struct sqlite3 *db;
	char sql[128];
	long v = 0;
	int i;

	for (i = 0; i < 300; i++)
		v += sqlite3_libversion_number() > 3000000;
	if (sqlite3_open(":memory:", &db) != 0)
		return 1;
	run(db, "CREATE TABLE t (k INTEGER PRIMARY KEY, name TEXT, x REAL)", NULL);
	for (i = 0; i < 200; i++) {
		snprintf(sql, sizeof(sql), "INSERT INTO t VALUES (%d, 'n%d', %d.5)", i, i % 7,
			 i * 3);
		run(db, sql, NULL);
	}
	run(db, "SELECT name, COUNT(*) AS n, SUM(x) AS s FROM t GROUP BY name ORDER BY name",
	    print_row);
	run(db, "SELECT k, name FROM t WHERE k % 50 = 0 ORDER BY k DESC", print_row);
	sqlite3_close(db);
	printf("version checks: %ld\n", v);
	tp_expect(stdout, "sqlite3_libversion_number", 300);
	return 0;
}
