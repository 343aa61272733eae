/*
 * group.c - entries of several reports grouped by shared names (see group.h).
 *
 * A group starts at the first entry not yet taken and grows until no other entry shares a
 * name with it: a few passes over every entry, each strcmp over a handful of names. With
 * reports of hundreds of functions that is well under the cost of reading them.
 */
#include "group.h"

#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report_names.h"

struct build {
	struct tt_group *g;
	size_t cap;		/* of g->names */
	bool mixed;		/* its entries' display names differ */
};

static bool has_name(const struct tt_group *g, const char *name)
{
	size_t i;

	for (i = 0; i < g->nnames; i++)
		if (strcmp(g->names[i], name) == 0)
			return true;
	return false;
}

bool tt_group_has(const struct tt_group *g, const struct tt_report_func *f)
{
	size_t i;

	for (i = 0; i < tt_report_func_nnames(f); i++)
		if (has_name(g, tt_report_func_name(f, i)))
			return true;
	return false;
}

/* f joins the group: its names that the group lacks are added. -1 when out of memory. */
static int absorb(struct build *b, const struct tt_report_func *f)
{
	struct tt_group *g = b->g;
	const char *name, **bigger;
	size_t i;

	for (i = 0; i < tt_report_func_nnames(f); i++) {
		name = tt_report_func_name(f, i);
		if (has_name(g, name))
			continue;
		if (g->nnames == b->cap) {
			bigger = realloc(g->names, (b->cap ? b->cap * 2 : 4) * sizeof(*bigger));
			if (!bigger)
				return -1;
			g->names = bigger;
			b->cap = b->cap ? b->cap * 2 : 4;
		}
		g->names[g->nnames++] = name;
	}
	b->mixed = b->mixed || (g->name && strcmp(g->name, f->name) != 0);
	if (!g->name)
		g->name = f->name;
	return 0;
}

/* Add every entry not yet taken that shares a name with the group, until none does. */
static int grow(struct cli_report *const *reps, size_t n, bool *taken, struct build *b)
{
	bool grew = true;
	size_t i, j, k;

	while (grew) {
		grew = false;
		for (i = 0, k = 0; i < n; k += reps[i]->r.nfuncs, i++) {
			for (j = 0; j < reps[i]->r.nfuncs; j++) {
				if (taken[k + j] || !tt_group_has(b->g, &reps[i]->funcs[j]))
					continue;
				if (absorb(b, &reps[i]->funcs[j]) < 0)
					return -1;
				taken[k + j] = grew = true;
			}
		}
	}
	return 0;
}

/* Entries that were shown under different display names: show the names joined. */
static int display_name(struct build *b)
{
	struct tt_group *g = b->g;
	size_t len = 1, i;

	if (!b->mixed)
		return 0;
	for (i = 0; i < g->nnames; i++)
		len += strlen(g->names[i]) + 1;
	g->joined = malloc(len);
	if (!g->joined)
		return -1;
	g->joined[0] = '\0';
	for (i = 0; i < g->nnames; i++) {
		if (i)
			strcat(g->joined, "|");
		strcat(g->joined, g->names[i]);
	}
	g->name = g->joined;
	return 0;
}

/* The group of entry j of report i, which no group has taken yet. */
static int one_group(struct cli_report *const *reps, size_t n, bool *taken, size_t k,
		     const struct tt_report_func *f, struct tt_group *g)
{
	struct build b = { g, 0, false };

	taken[k] = true;
	return absorb(&b, f) < 0 || grow(reps, n, taken, &b) < 0 || display_name(&b) < 0 ? -1 : 0;
}

int tt_group_funcs(struct cli_report *const *reps, size_t n, struct tt_group **out,
		   size_t *nout)
{
	size_t total = 0, i, j, k;
	bool *taken;
	int rc = 0;

	for (i = 0; i < n; i++)
		total += reps[i]->r.nfuncs;
	*nout = 0;
	*out = calloc(total ? total : 1, sizeof(**out));
	taken = calloc(total ? total : 1, sizeof(*taken));
	for (i = 0, k = 0; *out && taken && i < n && rc == 0; i++) {
		for (j = 0; j < reps[i]->r.nfuncs && rc == 0; j++, k++) {
			if (taken[k])
				continue;
			rc = one_group(reps, n, taken, k, &reps[i]->funcs[j], &(*out)[(*nout)++]);
		}
	}
	if (!*out || !taken)
		rc = -1;
	free(taken);
	if (rc < 0)
		tt_cli_err("out of memory");
	return rc;
}

void tt_groups_free(struct tt_group *groups, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(groups[i].names);
		free(groups[i].joined);
	}
	free(groups);
}
