/*
 * attach_interval.c - see attach_interval.h. A bucket of the report's histogram is
 * [lo, hi, count] in cycles (docs/report-format.md); the interval's percentile is the upper
 * edge of the bucket that holds it in the difference of the two histograms (exact below
 * 1024 cycles, where each bucket holds one value).
 */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/attach_interval.h"

struct bucket {
	uint64_t lo, hi, count;
};

struct tt_interval_func {
	char *name;
	uint64_t calls;
	struct bucket *b;
	size_t nb;
};

static void func_free(struct tt_interval_func *f)
{
	free(f->name);
	free(f->b);
}

void tt_interval_free(struct tt_interval *iv)
{
	size_t i;

	for (i = 0; i < iv->n; i++)
		func_free(&iv->funcs[i]);
	free(iv->funcs);
	iv->funcs = NULL;
	iv->n = 0;
}

static int read_func(json_t *jf, struct tt_interval_func *f)
{
	json_t *buckets = json_object_get(json_object_get(jf, "histogram"), "buckets");
	const char *name = json_string_value(json_object_get(jf, "name"));
	size_t i;

	memset(f, 0, sizeof(*f));
	f->name = strdup(name ? name : "?");
	f->calls = (uint64_t)json_integer_value(json_object_get(jf, "calls"));
	f->nb = json_array_size(buckets);
	f->b = calloc(f->nb ? f->nb : 1, sizeof(*f->b));
	if (!f->name || !f->b)
		return -1;
	for (i = 0; i < f->nb; i++) {
		json_t *b = json_array_get(buckets, i);

		f->b[i].lo = (uint64_t)json_integer_value(json_array_get(b, 0));
		f->b[i].hi = (uint64_t)json_integer_value(json_array_get(b, 1));
		f->b[i].count = (uint64_t)json_integer_value(json_array_get(b, 2));
	}
	return 0;
}

static const struct tt_interval_func *find(const struct tt_interval *iv, const char *name)
{
	size_t i;

	for (i = 0; i < iv->n; i++)
		if (strcmp(iv->funcs[i].name, name) == 0)
			return &iv->funcs[i];
	return NULL;
}

/* The count of f's bucket starting at lo in the previous report (0 when none). */
static uint64_t before(const struct tt_interval_func *prev, uint64_t lo)
{
	size_t i;

	for (i = 0; prev && i < prev->nb; i++)
		if (prev->b[i].lo == lo)
			return prev->b[i].count;
	return 0;
}

/* The upper edge of the bucket holding the q-quantile of the interval's calls (the
 * buckets' increases since prev), 0 when none were timed. */
static uint64_t quantile(const struct tt_interval_func *now, const struct tt_interval_func *prev,
			 double q)
{
	uint64_t total = 0, seen = 0, d, want;
	size_t i;

	for (i = 0; i < now->nb; i++) {
		d = now->b[i].count - before(prev, now->b[i].lo);
		total += now->b[i].count >= before(prev, now->b[i].lo) ? d : 0;
	}
	if (!total)
		return 0;
	want = (uint64_t)(q * (double)total);
	if (want >= total)
		want = total - 1;
	for (i = 0; i < now->nb; i++) {
		uint64_t b = before(prev, now->b[i].lo);

		if (now->b[i].count < b)
			continue;
		seen += now->b[i].count - b;
		if (seen > want)
			return now->b[i].hi;
	}
	return now->b[now->nb - 1].hi;
}

static void print_value(FILE *out, uint64_t cycles, double hz)
{
	if (hz > 0)
		fprintf(out, " %12.1f", (double)cycles * 1e9 / hz);
	else
		fprintf(out, " %12llu", (unsigned long long)cycles);
}

int tt_interval_step(struct tt_interval *iv, const char *path, double seconds, FILE *out)
{
	json_t *root = json_load_file(path, 0, NULL), *funcs;
	struct tt_interval now = { NULL, 0, iv->seq };
	double hz;
	size_t i;

	if (!root)
		return -1;
	funcs = json_object_get(root, "functions");
	hz = (double)json_integer_value(json_object_get(json_object_get(root, "clock"), "tsc_hz"));
	now.n = json_array_size(funcs);
	now.funcs = calloc(now.n ? now.n : 1, sizeof(*now.funcs));
	for (i = 0; now.funcs && i < now.n; i++)
		if (read_func(json_array_get(funcs, i), &now.funcs[i]) < 0)
			break;
	json_decref(root);
	if (!now.funcs || i < now.n) {
		now.n = i;
		tt_interval_free(&now);
		return -1;
	}
	if (iv->seq % 20 == 0)
		fprintf(out, "%-8s %-24s %12s %12s %12s\n", "seconds", "function", "calls",
			hz > 0 ? "median ns" : "median cyc", hz > 0 ? "p99 ns" : "p99 cyc");
	for (i = 0; i < now.n; i++) {
		const struct tt_interval_func *f = &now.funcs[i], *p = find(iv, f->name);
		uint64_t calls = f->calls - (p && p->calls <= f->calls ? p->calls : 0);

		fprintf(out, "%-8.1f %-24s %12llu", seconds, f->name, (unsigned long long)calls);
		print_value(out, quantile(f, p, 0.5), hz);
		print_value(out, quantile(f, p, 0.99), hz);
		fputc('\n', out);
	}
	fflush(out);
	tt_interval_free(iv);
	*iv = now;
	iv->seq++;
	return 0;
}
