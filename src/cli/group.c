/*
 * group.c - entries of several reports grouped by shared names (see group.h).
 *
 * Every name of every entry is sorted once (strsort.h), so that the entries holding a name
 * lie together; a group then grows from its first entry through the names it gains, visiting
 * each entry and each name once: O(n log n) in the number of names. (Looking for each group's
 * entries through all entries took 82 s to merge reports of 40,000 functions.)
 *
 * The order of a group's names is the one merged reports have always shown: from the group's
 * first entry, the entries sharing a name with the group join in file order, in passes over
 * all entries until a pass adds none, each adding the names the group lacks. A queue ordered
 * by (pass, entry) gives that order without the passes: an entry found through a name joins in
 * the current pass when it comes after the entry that brought the name, else in the next one.
 */
#include "cli/group.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "report/report_names.h"
#include "cli/strsort.h"

#define NONE SIZE_MAX

/* An entry queued to join the group being built: entry k, in pass `pass`. */
struct slot {
	size_t pass, k;
};

struct grouper {
	struct tt_group_member *ent; /* entry k: all reports' functions, in order */
	size_t nent;
	size_t *name_off;	 /* entry k's names are occurrences name_off[k]... */
	size_t *name_id;	 /* occurrence -> the number of its name */
	struct tt_str_ref *refs; /* occurrences sorted by name; owner is the entry */
	size_t nrefs;
	size_t *run;	   /* name number -> its first occurrence in refs */
	size_t *id_group;  /* name number -> the group that has it, or NONE */
	size_t *ent_group; /* entry -> its group, NONE until it is queued */
	struct slot *heap; /* the queue: a binary min-heap by (pass, k) */
	size_t nheap;
};

struct build {
	struct tt_group *g;
	size_t cap; /* of g->names */
	bool mixed; /* its entries' display names differ */
};

static bool before(const struct slot *a, const struct slot *b)
{
	return a->pass != b->pass ? a->pass < b->pass : a->k < b->k;
}

static void heap_push(struct grouper *gr, struct slot s)
{
	size_t i = gr->nheap++, up;

	while (i && before(&s, &gr->heap[up = (i - 1) / 2])) {
		gr->heap[i] = gr->heap[up];
		i = up;
	}
	gr->heap[i] = s;
}

static struct slot heap_pop(struct grouper *gr)
{
	struct slot top = gr->heap[0], last = gr->heap[--gr->nheap];
	size_t i = 0, c;

	while ((c = 2 * i + 1) < gr->nheap) {
		if (c + 1 < gr->nheap && before(&gr->heap[c + 1], &gr->heap[c]))
			c++;
		if (!before(&gr->heap[c], &last))
			break;
		gr->heap[i] = gr->heap[c];
		i = c;
	}
	gr->heap[i] = last;
	return top;
}

static void *alloc_n(size_t n, size_t size)
{
	return calloc(n ? n : 1, size);
}

static int alloc_grouper(struct grouper *gr)
{
	gr->ent = alloc_n(gr->nent, sizeof(*gr->ent));
	gr->name_off = alloc_n(gr->nent + 1, sizeof(*gr->name_off));
	gr->ent_group = alloc_n(gr->nent, sizeof(*gr->ent_group));
	gr->heap = alloc_n(gr->nent, sizeof(*gr->heap));
	gr->name_id = alloc_n(gr->nrefs, sizeof(*gr->name_id));
	gr->refs = alloc_n(gr->nrefs, sizeof(*gr->refs));
	gr->run = alloc_n(gr->nrefs + 1, sizeof(*gr->run));
	gr->id_group = alloc_n(gr->nrefs, sizeof(*gr->id_group));
	return gr->ent && gr->name_off && gr->ent_group && gr->heap && gr->name_id && gr->refs &&
			       gr->run && gr->id_group
		       ? 0
		       : -1;
}

static void free_grouper(struct grouper *gr)
{
	free(gr->ent);
	free(gr->name_off);
	free(gr->ent_group);
	free(gr->heap);
	free(gr->name_id);
	free(gr->refs);
	free(gr->run);
	free(gr->id_group);
}

/* Every entry and every occurrence of a name listed, then the names numbered in sorted order. */
static int index_names(struct grouper *gr, struct cli_report *const *reps, size_t n)
{
	const struct tt_report_func *f;
	size_t i, j, k = 0, r = 0, id;

	for (i = 0; i < n; i++)
		for (j = 0; j < reps[i]->r.nfuncs; j++, gr->nent++)
			gr->nrefs += tt_report_func_nnames(&reps[i]->funcs[j]);
	if (alloc_grouper(gr) < 0)
		return -1;
	for (i = 0; i < n; i++) {
		for (j = 0; j < reps[i]->r.nfuncs; j++, k++) {
			f = &reps[i]->funcs[j];
			gr->ent[k] = (struct tt_group_member){ i, f };
			gr->ent_group[k] = NONE;
			gr->name_off[k] = r;
			for (id = 0; id < tt_report_func_nnames(f); id++, r++) {
				gr->refs[r].s = tt_report_func_name(f, id);
				gr->refs[r].owner = k;
				gr->refs[r].pos = r;
			}
		}
	}
	tt_str_refs_sort(gr->refs, gr->nrefs);
	for (i = 0, id = 0; i < gr->nrefs; i = j, id++) {
		j = tt_str_run_end(gr->refs, gr->nrefs, i);
		gr->run[id] = i;
		gr->id_group[id] = NONE;
		for (r = i; r < j; r++)
			gr->name_id[gr->refs[r].pos] = id;
	}
	gr->run[id] = gr->nrefs;
	return 0;
}

static int add_name(struct build *b, const char *name)
{
	struct tt_group *g = b->g;
	const char **bigger;

	if (g->nnames == b->cap) {
		bigger = realloc(g->names, (b->cap ? b->cap * 2 : 4) * sizeof(*bigger));
		if (!bigger)
			return -1;
		g->names = bigger;
		b->cap = b->cap ? b->cap * 2 : 4;
	}
	g->names[g->nnames++] = name;
	return 0;
}

/*
 * Entry at.k joins group gi: its names that the group lacks are added, and the entries not
 * yet queued that have one of them are queued. -1 when out of memory.
 */
static int absorb(struct grouper *gr, struct build *b, size_t gi, struct slot at)
{
	const struct tt_report_func *f = gr->ent[at.k].f;
	size_t i, id, r, e;

	for (i = 0; i < tt_report_func_nnames(f); i++) {
		id = gr->name_id[gr->name_off[at.k] + i];
		if (gr->id_group[id] == gi)
			continue;
		gr->id_group[id] = gi;
		if (add_name(b, tt_report_func_name(f, i)) < 0)
			return -1;
		for (r = gr->run[id]; r < gr->run[id + 1]; r++) {
			e = gr->refs[r].owner;
			if (gr->ent_group[e] != NONE)
				continue;
			gr->ent_group[e] = gi;
			heap_push(gr, (struct slot){ e > at.k ? at.pass : at.pass + 1, e });
		}
	}
	b->mixed = b->mixed || (b->g->name && strcmp(b->g->name, f->name) != 0);
	if (!b->g->name)
		b->g->name = f->name;
	return 0;
}

/* Entries that were shown under different display names: show the names joined. */
static int display_name(struct build *b)
{
	struct tt_group *g = b->g;
	size_t len = 1, i;
	char *p;

	if (!b->mixed)
		return 0;
	for (i = 0; i < g->nnames; i++)
		len += strlen(g->names[i]) + 1;
	g->joined = p = malloc(len);
	if (!p)
		return -1;
	*p = '\0';
	for (i = 0; i < g->nnames; i++) { /* not strcat, which rescans what is written */
		if (i)
			*p++ = '|';
		p = stpcpy(p, g->names[i]);
	}
	g->name = g->joined;
	return 0;
}

/* Group gi, from entry k, which no group has taken yet. */
static int one_group(struct grouper *gr, size_t k, size_t gi, struct tt_group *g)
{
	struct build b = { g, 0, false };

	gr->ent_group[k] = gi;
	heap_push(gr, (struct slot){ 0, k });
	while (gr->nheap)
		if (absorb(gr, &b, gi, heap_pop(gr)) < 0)
			return -1;
	return display_name(&b);
}

/* Each group's entries, in the order of all entries. */
static int fill_members(const struct grouper *gr, struct tt_group *groups, size_t ngroups)
{
	struct tt_group *g;
	size_t k, i;

	for (k = 0; k < gr->nent; k++)
		groups[gr->ent_group[k]].nmembers++;
	for (i = 0; i < ngroups; i++) {
		groups[i].members = alloc_n(groups[i].nmembers, sizeof(*groups[i].members));
		groups[i].nmembers = 0;
		if (!groups[i].members)
			return -1;
	}
	for (k = 0; k < gr->nent; k++) {
		g = &groups[gr->ent_group[k]];
		g->members[g->nmembers++] = gr->ent[k];
	}
	return 0;
}

int tt_group_funcs(struct cli_report *const *reps, size_t n, struct tt_group **out, size_t *nout)
{
	struct grouper gr = { 0 };
	size_t k, gi;
	int rc = -1;

	*nout = 0;
	*out = NULL;
	if (index_names(&gr, reps, n) == 0 && (*out = alloc_n(gr.nent, sizeof(**out)))) {
		rc = 0;
		for (k = 0; k < gr.nent && rc == 0; k++) {
			if (gr.ent_group[k] != NONE)
				continue;
			gi = (*nout)++;
			rc = one_group(&gr, k, gi, &(*out)[gi]);
		}
		if (rc == 0)
			rc = fill_members(&gr, *out, *nout);
	}
	free_grouper(&gr);
	if (rc < 0)
		tt_cli_err("out of memory");
	return rc;
}

void tt_groups_free(struct tt_group *groups, size_t n)
{
	size_t i;

	for (i = 0; groups && i < n; i++) {
		free(groups[i].names);
		free(groups[i].joined);
		free(groups[i].members);
	}
	free(groups);
}
