/*
 * load_text.c - the shim's text report (libtsctrace(7), REPORT; TSC_FORMAT=text) read back
 * into the schema-1 JSON document the JSON loader checks (load.c), so that every command
 * reads both formats alike.
 *
 * Exact where it counts: counts, min, percentiles and max come from the table cells (whole
 * numbers); the totals, raw extremes, TSC rate, start and wall time and every histogram bucket
 * from the "exact:" lines (report_text_exact.c), never from the rounded cells or the bars,
 * which group buckets. ns statistics are recomputed from cycles and the exact rate, as the shim
 * computes them. What the text does not hold is said in one line naming it, never guessed:
 * a text report from before the "exact:" lines, a sampled one (weights), a merged one (its
 * runs). Left out, as absent from older JSON reports: self time, callers, slowest calls, by
 * argument, threads; functions never called (the text only counts them); the object is the
 * file name the text shows, not its full path.
 * Raw median, p90 and p99 are cycles' plus the overhead subtracted, as merge shifts buckets.
 */
#include "cli/load_text.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/load.h"
#include "report/stats.h"

#define TEXT_LACKS "tsctrace text lacks" /* a key with blanks: never one of the schema's */

struct text {
	const char *file;
	char *s;	  /* the text, cut into lines in place */
	char *cur;	  /* the next line */
	size_t next_hist; /* the function whose histogram is due (match) */
};

/* The next line (NUL-terminated, no '\n'), or NULL at the end. */
static char *next_line(struct text *t)
{
	char *l = t->cur, *nl;

	if (!l || !*l)
		return NULL;
	nl = strchr(l, '\n');
	if (nl) {
		*nl = '\0';
		t->cur = nl + 1;
	} else {
		t->cur = l + strlen(l);
	}
	return l;
}

static char *peek_line(const struct text *t)
{
	return t->cur && *t->cur ? t->cur : NULL;
}

static bool starts(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

static json_t *u64(uint64_t v)
{
	return json_integer((json_int_t)v);
}

/* A whole number in s; false when s is not one (such as "-"). */
static bool num(const char *s, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	*v = strtoull(s, &end, 10);
	return *end == '\0';
}

static int bad(const struct text *t, const char *what)
{
	tt_cli_err("%s: a text report %s; take it again with TSC_OUTPUT=NAME.json or "
		   "TSC_FORMAT=json",
		   t->file, what);
	return -1;
}

/* argv as put_arg writes it: words, some in '...' with ' as '\''. */
static json_t *parse_argv(char *s)
{
	json_t *a = json_array();
	char *w = malloc(strlen(s) + 1);
	size_t n;

	if (!a || !w) {
		free(w);
		json_decref(a);
		return NULL;
	}
	while (*s) {
		while (*s == ' ')
			s++;
		if (!*s)
			break;
		n = 0;
		while (*s && *s != ' ') {
			if (*s == '\'') {
				for (s++; *s && *s != '\''; s++)
					w[n++] = *s;
				if (*s)
					s++;
				if (s[0] == '\\' && s[1] == '\'') { /* '\'' */
					w[n++] = '\'';
					s += 2;
				}
			} else {
				w[n++] = *s++;
			}
		}
		w[n] = '\0';
		json_array_append_new(a, json_string(w));
	}
	free(w);
	return a;
}

static int header(struct text *t, json_t *root)
{
	json_t *clock = json_object(), *oh = json_object(), *th = json_object();
	json_t *warn = json_array();
	uint64_t a, b, c, start = 0, wall = 0, hz = 0;
	char *l, *p, tool[64], src[64], ser[32], unit[8], osrc[64];
	bool exact = false;
	int n;

	json_object_set_new(root, "clock", clock);
	json_object_set_new(root, "overhead", oh);
	json_object_set_new(root, "threads", th);
	json_object_set_new(root, "warnings", warn);
	json_object_set_new(clock, "cpu", json_string(""));
	l = next_line(t);
	if (sscanf(l, "%63[^\n]", tool) != 1 || strlen(tool) < 8)
		return bad(t, "with no first line");
	tool[strlen(tool) - 7] = '\0'; /* " report" */
	json_object_set_new(root, "tool", json_string(tool));
	json_object_set_new(root, "schema", json_integer(1));
	while ((l = next_line(t)) && *l) {
		if (starts(l, "program:  "))
			json_object_set_new(root, "program", json_string(l + 10));
		else if (starts(l, "exe:      "))
			json_object_set_new(root, "exe", json_string(l + 10));
		else if (starts(l, "argv:"))
			json_object_set_new(root, "argv", parse_argv(l + 5));
		else if (sscanf(l, "pid:      %" SCNu64, &a) == 1)
			json_object_set_new(root, "pid", u64(a));
		else if (starts(l, "cpu:      "))
			json_object_set_new(clock, "cpu", json_string(l + 10));
		else if (starts(l, "clock:    ")) {
			char *q;

			p = l + 10;
			n = sscanf(p, "%31[a-z]", src);
			json_object_set_new(clock, "source", json_string(n == 1 ? src : ""));
			json_object_set_new(clock, "tsc_hz_source", json_string("none"));
			if ((q = strstr(p, " MHz (")) && sscanf(q + 6, "%63[a-z_A-Z]", osrc) == 1)
				json_object_set_new(clock, "tsc_hz_source", json_string(osrc));
			if ((q = strstr(p, ", within ")) && sscanf(q + 9, "%" SCNu64, &a) == 1)
				json_object_set_new(clock, "tsc_hz_error_ppm", u64(a));
			json_object_set_new(clock, "invariant",
					    json_boolean(!strstr(p, "not invariant")));
			json_object_set_new(clock, "hypervisor",
					    json_boolean(!strstr(p, "no hypervisor")));
			if (!(q = strstr(p, "serialize ")) ||
			    sscanf(q + 10, "%31[a-z]", ser) != 1 ||
			    !(q = strstr(p, "granularity ")) || sscanf(q + 12, "%" SCNu64, &a) != 1)
				return bad(t, "whose clock line is not understood");
			json_object_set_new(clock, "serialize", json_string(ser));
			json_object_set_new(clock, "granularity", u64(a));
		} else if (sscanf(l,
				  "overhead: min %" SCNu64 " median %" SCNu64
				  " %7s subtracted %" SCNu64 " (%63[^)])",
				  &a, &b, unit, &c, osrc) == 5) {
			json_object_set_new(oh, "min", u64(a));
			json_object_set_new(oh, "median", u64(b));
			json_object_set_new(oh, "subtracted", u64(c));
			json_object_set_new(oh, "source", json_string(osrc));
		} else if (sscanf(l, "threads:  %" SCNu64 " traced, %" SCNu64 " pinned, %" SCNu64,
				  &a, &b, &c) == 3) {
			json_object_set_new(th, "traced", u64(a));
			json_object_set_new(th, "pinned", u64(b));
			json_object_set_new(th, "migrations", u64(c));
		} else if (sscanf(l,
				  "exact:    start %" SCNu64 " unix ns, wall %" SCNu64
				  " ns, tsc %" SCNu64,
				  &start, &wall, &hz) == 3) {
			exact = true;
			if ((p = strstr(l, ", nested overhead ")) &&
			    sscanf(p + 18, "%" SCNu64, &a) == 1)
				json_object_set_new(oh, "nested", u64(a));
		} else if (starts(l, "merged:")) {
			tt_cli_err("%s: a text report of a merge, whose runs (argv, start times) "
				   "are not in the text; read the JSON merge -o NAME.json wrote",
				   t->file);
			return -1;
		} else if (starts(l, "warning:  ")) {
			json_array_append_new(warn, json_string(l + 10));
		}
	}
	if (!exact)
		return bad(t, "with no \"exact:\" lines (written before them): its "
			      "histograms and totals are rounded for the eye");
	json_object_set_new(root, "start_unix_ns", u64(start));
	json_object_set_new(root, "wall_ns", u64(wall));
	json_object_set_new(clock, "tsc_hz", u64(hz));
	return 0;
}

/* The function named name (as the tables show it) in funcs, or NULL. */
static json_t *find(json_t *funcs, const char *name)
{
	size_t i;
	json_t *f;

	json_array_foreach(funcs, i, f)
		if (strcmp(json_string_value(json_object_get(f, "name")), name) == 0)
			return f;
	return NULL;
}

/* The name before the last n words of row (cut there); NULL when the row has fewer. */
static char *row_name(char *row, char **w, size_t n)
{
	size_t i;
	char *end = row + strlen(row), *p;

	for (i = n; i-- > 0;) {
		while (end > row && end[-1] == ' ')
			end--;
		for (p = end; p > row && p[-1] != ' '; p--)
			;
		if (p == row)
			return NULL;
		w[i] = p;
		*end = '\0';
		end = p;
	}
	while (end > row && end[-1] == ' ')
		end--;
	*end = '\0';
	return end > row ? row : NULL;
}

static const char *const stat_keys[] = { "min", "median", "p90", "p99", "p999", "p9999", "max" };

/* The statistics table: calls, then cycles' statistics (the tail when printed). */
static int table_stats(struct text *t, json_t *funcs)
{
	char *l, *w[10], *name;
	uint64_t v;
	size_t i;

	while ((l = next_line(t)) && *l) {
		json_t *f = json_object(), *cyc = json_object(), *names = json_array();

		json_array_append_new(funcs, f);
		if (!(name = row_name(l, w, 10)) || !num(w[0], &v))
			return bad(t, "whose statistics table is not understood");
		json_object_set_new(f, "name", json_string(name));
		for (char *save = NULL, *p = strtok_r(name, "|", &save); p;
		     p = strtok_r(NULL, "|", &save))
			json_array_append_new(names, json_string(p));
		json_object_set_new(f, "names", names);
		json_object_set_new(f, "calls", u64(v));
		json_object_set_new(f, "cycles", cyc);
		for (i = 0; i < 7; i++)
			if (num(w[1 + i], &v))
				json_object_set_new(cyc, stat_keys[i], u64(v));
	}
	return 0;
}

/* The function whose name (as the tables show it) starts l, followed by after: tried from
 * *next on, since every section lists the functions in the same order (linear in all, and
 * "fn1" is not taken for "fn1 x"'s row when "fn1 x" is the one due). */
static json_t *match(json_t *funcs, size_t *next, const char *l, const char *after)
{
	size_t n = json_array_size(funcs), k, i;

	for (k = 0; k < n; k++) {
		const char *name;

		i = (*next + k) % n;
		name = json_string_value(json_object_get(json_array_get(funcs, i), "name"));
		if (starts(l, name) && starts(l + strlen(name), after)) {
			*next = i + 1;
			return json_array_get(funcs, i);
		}
	}
	return NULL;
}

/* The accounting table: timed, unwound, migrated, dropped, first, hook, symbol. */
static int table_counts(struct text *t, json_t *funcs)
{
	static const char *const keys[] = { "timed", "unwound", "migrated", "dropped", "first" };
	char *l, *w[7], *name, *sym;
	uint64_t v;
	size_t i, next = 0;
	json_t *f;

	next_line(t); /* its head */
	while ((l = next_line(t)) && *l) {
		/* The symbol is the last column and may hold blanks ("strlen (ifunc ...)"): the
		 * words are found after the name, which the first table gave. */
		if (!(f = match(funcs, &next, l, " ")))
			return bad(t, "whose tables do not list the same functions");
		name = l + strlen(json_string_value(json_object_get(f, "name")));
		for (i = 0; i < 6; i++) {
			while (*name == ' ')
				name++;
			w[i] = name;
			name += strcspn(name, " ");
			if (*name)
				*name++ = '\0';
		}
		while (*name == ' ')
			name++;
		sym = name;
		for (i = 0; i < 5; i++)
			if (num(w[i], &v))
				json_object_set_new(f, keys[i], u64(v));
			else if (i == 4)
				json_object_set_new(f, keys[i], json_null());
			else
				return bad(t, "whose call accounting is not understood");
		json_object_set_new(f, "hook", json_string(w[5]));
		json_object_set_new(f, "symbol", json_string(sym));
	}
	return 0;
}

/* f's histogram buckets, the histogram made when f has none yet. */
static json_t *buckets_of(json_t *f)
{
	json_t *h = json_object_get(f, "histogram");

	if (!h) {
		h = json_pack("{s:s,s:[]}", "of", "cycles", "buckets");
		json_object_set_new(f, "histogram", h);
	}
	return json_object_get(h, "buckets");
}

/* "  exact: total T, raw total R min A max B; buckets L[-H]:N ..." and its continuations. */
static int exact_hist(struct text *t, json_t *f, char *l)
{
	json_t *raw = json_object(), *b = buckets_of(f);
	uint64_t tot, rtot, rmin, rmax, lo, hi, n;
	char *p, *save = NULL;
	int used;

	json_object_set_new(f, "raw", raw);
	if (sscanf(l,
		   "  exact: total %" SCNu64 ", raw total %" SCNu64 " min %" SCNu64 " max %" SCNu64
		   "; buckets%n",
		   &tot, &rtot, &rmin, &rmax, &used) != 4)
		return bad(t, "whose \"exact:\" histogram line is not understood");
	json_object_set_new(json_object_get(f, "cycles"), "total", u64(tot));
	json_object_set_new(raw, "total", u64(rtot));
	json_object_set_new(raw, "min", u64(rmin));
	json_object_set_new(raw, "max", u64(rmax));
	for (;;) {
		for (p = strtok_r(l + used, " ", &save); p; p = strtok_r(NULL, " ", &save)) {
			if (sscanf(p, "%" SCNu64 "-%" SCNu64 ":%" SCNu64, &lo, &hi, &n) == 3 ||
			    (sscanf(p, "%" SCNu64 ":%" SCNu64, &lo, &n) == 2 && (hi = lo, 1)))
				json_array_append_new(b, json_pack("[III]", (json_int_t)lo,
								   (json_int_t)hi, (json_int_t)n));
			else
				return bad(t, "whose histogram buckets are not understood");
		}
		if (!peek_line(t) || !starts(peek_line(t), "    "))
			return 0;
		l = next_line(t);
		used = 0;
	}
}

/* "histogram of NAME in OBJECT[+0xOFF] (...)": the object and offset; then its exact line. */
static int histogram(struct text *t, json_t *funcs, char *l)
{
	json_t *f;
	char *in, *paren, *plus;

	l += strlen("histogram of ");
	paren = strrchr(l, '(');
	f = match(funcs, &t->next_hist, l, " in ");
	in = f ? l + strlen(json_string_value(json_object_get(f, "name"))) + 4 : NULL;
	if (!f || !paren || paren <= in)
		return bad(t, "whose histogram heading is not understood");
	paren[-1] = '\0';
	plus = strrchr(in, '+');
	if (plus && starts(plus, "+0x")) {
		*plus = '\0';
		json_object_set_new(f, "offset", json_string(plus + 1));
	}
	json_object_set_new(f, "object", json_string(in));
	while ((l = next_line(t)) && *l)
		if (starts(l, "  exact: "))
			return exact_hist(t, f, l);
	return bad(t, "with a histogram and no \"exact:\" line under it");
}

/* What the tables leave to be derived: each function's raw block, mean, ns, defaults. */
static void complete(json_t *root, json_t *f)
{
	json_t *clock = json_object_get(root, "clock");
	json_t *cyc = json_object_get(f, "cycles"), *raw = json_object_get(f, "raw");
	uint64_t sub = json_integer_value(
		json_object_get(json_object_get(root, "overhead"), "subtracted"));
	uint64_t timed = json_integer_value(json_object_get(f, "timed"));
	uint64_t hz = json_integer_value(json_object_get(clock, "tsc_hz"));
	const char *keys[] = { "median", "p90", "p99", "p999", "p9999" };
	struct tt_summary s;
	struct tt_summary_ns ns;
	size_t i;

	if (!json_object_get(f, "object"))
		json_object_set_new(f, "object", json_string(""));
	buckets_of(f);
	if (!timed) { /* "-" cells: zeros by the JSON's convention */
		for (i = 0; i < 7; i++)
			json_object_set_new(cyc, stat_keys[i], u64(0));
		json_object_del(cyc, "p999");
		json_object_del(cyc, "p9999");
	}
	if (!json_object_get(cyc, "total"))
		json_object_set_new(cyc, "total", u64(0));
	if (!raw) {
		raw = json_pack("{s:I,s:I,s:I}", "min", (json_int_t)0, "max", (json_int_t)0,
				"total", (json_int_t)0);
		json_object_set_new(f, "raw", raw);
	}
	s.total = json_integer_value(json_object_get(cyc, "total"));
	json_object_set_new(cyc, "mean", json_real(timed ? (double)s.total / (double)timed : 0));
	json_object_set_new(raw, "mean",
			    json_real(timed ? (double)json_integer_value(
						      json_object_get(raw, "total")) /
						      (double)timed
					    : 0));
	for (i = 0; i < 5; i++) {
		json_t *v = json_object_get(cyc, keys[i]);
		uint64_t x, lo = json_integer_value(json_object_get(raw, "min"));
		uint64_t hi = json_integer_value(json_object_get(raw, "max"));

		if (!v)
			continue;
		x = (uint64_t)json_integer_value(v) + sub;
		json_object_set_new(raw, keys[i], u64(x < lo ? lo : x > hi ? hi : x));
	}
	if (!hz || !json_is_string(json_object_get(clock, "source")) ||
	    strcmp(json_string_value(json_object_get(clock, "source")), "tsc") != 0)
		return;
	s.min = json_integer_value(json_object_get(cyc, "min"));
	s.median = json_integer_value(json_object_get(cyc, "median"));
	s.p90 = json_integer_value(json_object_get(cyc, "p90"));
	s.p99 = json_integer_value(json_object_get(cyc, "p99"));
	s.max = json_integer_value(json_object_get(cyc, "max"));
	s.has_tail = json_object_get(cyc, "p999") != NULL;
	s.p999 = json_integer_value(json_object_get(cyc, "p999"));
	s.p9999 = json_integer_value(json_object_get(cyc, "p9999"));
	s.mean = json_real_value(json_object_get(cyc, "mean"));
	tt_stats_to_ns(&s, hz, &ns);
	json_object_set_new(f, "ns",
			    json_pack("{s:f,s:f,s:f,s:f,s:f,s:f,s:f}", "min", ns.min, "median",
				      ns.median, "p90", ns.p90, "p99", ns.p99, "max", ns.max,
				      "mean", ns.mean, "total", ns.total));
	if (ns.has_tail) {
		json_object_set_new(json_object_get(f, "ns"), "p999", json_real(ns.p999));
		json_object_set_new(json_object_get(f, "ns"), "p9999", json_real(ns.p9999));
	}
}

/* Mark part (a section the text shows but this loader leaves out) in root's TEXT_LACKS,
 * a member no JSON report has, for tt_load_text_lacks. */
static void lacks(json_t *root, const char *part)
{
	json_t *a = json_object_get(root, TEXT_LACKS);

	if (!a) {
		a = json_array();
		json_object_set_new(root, TEXT_LACKS, a);
	}
	json_array_append_new(a, json_string(part));
}

static int body(struct text *t, json_t *root, json_t *funcs)
{
	char *l, *colon;
	size_t i;
	json_t *f;

	while ((l = next_line(t))) {
		if (starts(l, "times in ")) {
			next_line(t); /* the statistics table's head */
			if (table_stats(t, funcs) < 0 || table_counts(t, funcs) < 0)
				return -1;
		} else if (starts(l, "sampling: ")) {
			return bad(t, "of a sampled run, whose weights are not in the text");
		} else if (starts(l, "histogram of ")) {
			if (histogram(t, funcs, l) < 0)
				return -1;
		} else if (starts(l, "callers of ")) {
			lacks(root, "callers");
		} else if (starts(l, "self: ")) {
			lacks(root, "self");
		} else if (starts(l, "threads of ")) {
			lacks(root, "threads");
		} else if (starts(l, "slowest calls of ")) {
			lacks(root, "slowest");
		} else if (starts(l, "latency of ")) {
			lacks(root, "by_arg");
		} else if ((colon = strstr(l, ": counted only, never timed: it "))) {
			*colon = '\0';
			if ((f = find(funcs, l)))
				json_object_set_new(f, "count_only",
						    json_string(colon +
								strlen(": counted only, "
								       "never timed: it ")));
		}
	}
	json_array_foreach(funcs, i, f)
		complete(root, f);
	return 0;
}

json_t *tt_load_text(const char *file, char *text)
{
	struct text t = { file, text, text, 0 };
	json_t *root = json_object(), *funcs = json_array();

	json_object_set_new(root, "functions", funcs);
	if (header(&t, root) < 0 || body(&t, root, funcs) < 0) {
		json_decref(root);
		return NULL;
	}
	return root;
}

int tt_load_text_lacks(const char *cmd, struct cli_report *const *reps, size_t n, const char *part,
		       const char *what)
{
	size_t i, j;
	json_t *v;

	for (i = 0; i < n; i++)
		json_array_foreach(json_object_get(reps[i]->root, TEXT_LACKS), j, v)
			if (strcmp(json_string_value(v), part) == 0) {
				tt_cli_err("%s: %s: a text report, which shows %s only in part and "
					   "is read without them; take it again with "
					   "TSC_OUTPUT=NAME.json or TSC_FORMAT=json",
					   cmd, reps[i]->file, what);
				return -1;
			}
	return 0;
}
