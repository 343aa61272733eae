/*
 * rundir.c - see rundir.h.
 */
#include <dirent.h>
#include <stdint.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/rundir.h"

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
		tt_cli_err("run: cannot make %s: %s (start it in a directory you can write, or "
			   "give -o)",
			   abs, strerror(errno));
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

/* The whole file into *data (malloc'd, *len bytes); 1 when it is missing, 0, or -1 after a
 * line. */
static int slurp(const char *path, char **data, size_t *len)
{
	FILE *f = fopen(path, "re");
	size_t cap = 65536, n;
	uint64_t most;
	char *buf, *nb;

	*data = NULL;
	*len = 0;
	if (!f)
		return errno == ENOENT
			       ? 1
			       : (tt_cli_err("cannot read %s: %s", path, strerror(errno)), -1);
	if (tt_load_cap(&most) < 0 || !(buf = malloc(cap))) {
		fclose(f);
		return -1;
	}
	while ((n = fread(buf + *len, 1, cap - *len, f)) > 0) {
		*len += n;
		if (*len > most) {
			tt_cli_err("%s: larger than %llu bytes (TSCTRACE_MAX_INPUT)", path,
				   (unsigned long long)most);
			break;
		}
		if (*len == cap) {
			nb = realloc(buf, cap * 2);
			if (!nb) {
				tt_cli_err("%s: out of memory", path);
				*len = most + 1; /* as an error below */
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	if (ferror(f) || *len > most) {
		fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	*data = buf;
	return 0;
}

/* One record (a JSON text after an RS byte) into out->v, named after its process; -1 when out
 * of memory. */
static int take_record(struct tt_run_reports *out, const char *path, size_t index, const char *text,
		       size_t len)
{
	char *label, *at;
	json_error_t jerr;
	json_t *root, *pid, *program;
	struct cli_report *rep;
	size_t i;

	for (i = 0; i < len && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t'); i++)
		;
	if (i == len)
		return 0; /* nothing between two RS bytes */
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	pid = root ? json_object_get(root, "pid") : NULL;
	program = root ? json_object_get(root, "program") : NULL;
	at = program && json_is_string(program) ? strrchr(json_string_value(program), '/') : NULL;
	if (asprintf(&label, "%s, #%zu (%s, pid %lld)", path, index,
		     at					  ? at + 1
		     : program && json_is_string(program) ? json_string_value(program)
							  : "?",
		     pid && json_is_integer(pid) ? (long long)json_integer_value(pid) : -1LL) < 0) {
		json_decref(root);
		return -1;
	}
	out->labels[out->nlabels++] = label;
	if (!root) {
		tt_cli_err("%s: not a JSON report (cut short?): %s; left out", label, jerr.text);
		out->unreadable++;
		return 0;
	}
	rep = tt_load_report_root(label, root); /* a line of its own when it is not a report */
	if (!rep)
		out->unreadable++;
	else
		out->v[out->n++] = rep;
	return 0;
}

/* By image (pid, then start time), then by place in the file. */
static int by_image(const void *pa, const void *pb, void *pv)
{
	struct cli_report *const *v = pv;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	const struct tt_report *ra = &v[a]->r, *rb = &v[b]->r;

	if (ra->pid != rb->pid)
		return ra->pid < rb->pid ? -1 : 1;
	if (ra->start_unix_ns != rb->start_unix_ns)
		return ra->start_unix_ns < rb->start_unix_ns ? -1 : 1;
	return a < b ? -1 : a > b;
}

/* Of reports of one image (pid and start time), the last: earlier ones are freed. Sorted,
 * not compared pairwise: a large build has tens of thousands of processes. -1 when out of
 * memory. */
static int keep_last(struct tt_run_reports *out)
{
	size_t *order = calloc(out->n ? out->n : 1, sizeof(*order)), i, k = 0;

	if (!order)
		return -1;
	for (i = 0; i < out->n; i++)
		order[i] = i;
	qsort_r(order, out->n, sizeof(*order), by_image, out->v);
	for (i = 0; i + 1 < out->n; i++)
		if (out->v[order[i]]->r.pid == out->v[order[i + 1]]->r.pid &&
		    out->v[order[i]]->r.start_unix_ns == out->v[order[i + 1]]->r.start_unix_ns) {
			tt_load_free(out->v[order[i]]); /* the same image again further on */
			out->v[order[i]] = NULL;
		}
	for (i = 0; i < out->n; i++)
		if (out->v[i])
			out->v[k++] = out->v[i];
	out->n = k;
	free(order);
	return 0;
}

int tt_rundir_load(const char *dir, struct tt_run_reports *out)
{
	char *path, *data, *p, *end, *next;
	size_t len, records = 0, index = 0;
	int r;

	memset(out, 0, sizeof(*out));
	if (asprintf(&path, "%s/" TT_RUNDIR_REPORTS, dir) < 0) {
		tt_cli_err("out of memory");
		return -1;
	}
	r = slurp(path, &data, &len);
	if (r) {
		free(path);
		return r > 0 ? 0 : -1;
	}
	for (p = data, end = data + len; p < end; p++)
		records += *p == '\x1e';
	out->v = calloc(records + 1, sizeof(*out->v));
	out->labels = calloc(records + 1, sizeof(*out->labels));
	if (!out->v || !out->labels)
		goto oom;
	/* Whatever comes before the first RS is a cut record too (or nothing). */
	for (p = data; p < end; p = next) {
		next = memchr(p + (*p == '\x1e'), '\x1e', (size_t)(end - p - (*p == '\x1e')));
		if (!next)
			next = end;
		if (*p == '\x1e')
			p++;
		if (take_record(out, path, ++index, p, (size_t)(next - p)) < 0)
			goto oom;
	}
	if (keep_last(out) < 0)
		goto oom;
	free(data);
	free(path);
	return 0;
oom:
	free(data);
	free(path);
	tt_rundir_reports_free(out);
	tt_cli_err("out of memory");
	return -1;
}

void tt_rundir_reports_free(struct tt_run_reports *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		tt_load_free(r->v[i]);
	for (i = 0; i < r->nlabels; i++)
		free(r->labels[i]);
	free(r->v);
	free(r->labels);
	memset(r, 0, sizeof(*r));
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
