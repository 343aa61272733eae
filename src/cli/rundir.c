/*
 * rundir.c - see rundir.h.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "rundir.h"

#define STAMP_LEN 15 /* YYYYMMDD-HHMMSS */

int tt_rundir_make(char *name, size_t size, char *abs, size_t abs_size)
{
	char cwd[PATH_MAX], stamp[32];
	time_t now = time(NULL);
	struct tm tm;

	if (!gmtime_r(&now, &tm) || !strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm) ||
	    (size_t)snprintf(name, size, TT_RUNDIR_PREFIX "%s.%ld", stamp, (long)getpid()) >=
		    size) {
		tt_cli_err("run: cannot name the run directory");
		return -1;
	}
	if (!getcwd(cwd, sizeof(cwd)) ||
	    (size_t)snprintf(abs, abs_size, "%s/%s", strcmp(cwd, "/") ? cwd : "", name) >=
		    abs_size) {
		tt_cli_err("run: cannot tell the current directory: %s", strerror(errno));
		return -1;
	}
	if (mkdir(name, 0755) < 0) {
		tt_cli_err("run: cannot make %s: %s", abs, strerror(errno));
		return -1;
	}
	return 0;
}

/* Whether s is a run directory's name: the prefix, a stamp, '.', digits. */
static bool is_run_name(const char *s)
{
	size_t i, p = strlen(TT_RUNDIR_PREFIX);

	if (strncmp(s, TT_RUNDIR_PREFIX, p) != 0)
		return false;
	s += p;
	for (i = 0; i < STAMP_LEN; i++)
		if (i == 8 ? s[i] != '-' : (s[i] < '0' || s[i] > '9'))
			return false;
	if (s[STAMP_LEN] != '.' || !s[STAMP_LEN + 1])
		return false;
	for (s += STAMP_LEN + 1; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

int tt_rundir_latest(const char *cmd, char *name, size_t size)
{
	size_t p = strlen(TT_RUNDIR_PREFIX);
	DIR *d = opendir(".");
	struct dirent *e;
	struct timespec best_m = { 0, 0 };
	struct stat st;
	int c;

	name[0] = '\0';
	if (!d) {
		tt_cli_err("%s: cannot read the current directory: %s", cmd, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		if (!is_run_name(e->d_name) || stat(e->d_name, &st) < 0 || !S_ISDIR(st.st_mode) ||
		    strlen(e->d_name) >= size)
			continue;
		c = name[0] ? strncmp(e->d_name + p, name + p, STAMP_LEN) : 1;
		if (c > 0 || (c == 0 && (st.st_mtim.tv_sec > best_m.tv_sec ||
					 (st.st_mtim.tv_sec == best_m.tv_sec &&
					  st.st_mtim.tv_nsec > best_m.tv_nsec)))) {
			memcpy(name, e->d_name, strlen(e->d_name) + 1);
			best_m = st.st_mtim;
		}
	}
	closedir(d);
	if (!name[0]) {
		tt_cli_err("%s: no report given, and no " TT_RUNDIR_PREFIX
			   "* directory of tsctrace run here",
			   cmd);
		return -1;
	}
	return 0;
}

static bool ends_with(const char *s, const char *end)
{
	size_t n = strlen(s), e = strlen(end);

	return n > e && strcmp(s + n - e, end) == 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int tt_rundir_reports(const char *dir, char ***files, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL, **nv;
	size_t cap = 0;

	*files = NULL;
	*n = 0;
	if (!d) {
		tt_cli_err("cannot read the run directory %s: %s", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		if (!ends_with(e->d_name, ".json") || strcmp(e->d_name, TT_RUNDIR_MERGED) == 0 ||
		    e->d_name[0] == '.')
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				goto oom;
			v = nv;
		}
		if (asprintf(&v[*n], "%s/%s", dir, e->d_name) < 0)
			goto oom;
		(*n)++;
	}
	closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), by_name);
	*files = v;
	return 0;
oom:
	closedir(d);
	tt_rundir_free(v, *n);
	*n = 0;
	tt_cli_err("out of memory");
	return -1;
}

void tt_rundir_free(char **files, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(files[i]);
	free(files);
}

size_t tt_rundir_empty_count(const char *dir)
{
	char path[PATH_MAX];
	size_t lines = 0;
	FILE *f;
	int c;

	if ((size_t)snprintf(path, sizeof(path), "%s/" TT_RUNDIR_EMPTY, dir) >= sizeof(path))
		return 0;
	f = fopen(path, "re");
	if (!f)
		return 0;
	while ((c = getc(f)) != EOF)
		lines += c == '\n';
	fclose(f);
	return lines;
}
