/*
 * runlist.c - the runs of reports, and a run given twice (see runlist.h). Repeats are found by
 * sorting, not pairwise: a merge of every process of a build may take thousands of reports.
 */
#include "cli/runlist.h"

#include <stdlib.h>

int tt_runlist(struct cli_report *const *reps, size_t n, struct tt_run_ref **out, size_t *nout)
{
	size_t i, k, total = 0;

	for (i = 0; i < n; i++)
		total += reps[i]->r.nmerged ? reps[i]->r.nmerged : 1;
	*nout = 0;
	*out = calloc(total ? total : 1, sizeof(**out));
	if (!*out)
		return -1;
	for (i = 0; i < n; i++) {
		const struct tt_report *r = &reps[i]->r;

		if (!r->nmerged)
			(*out)[(*nout)++] = (struct tt_run_ref){
				{ r->pid, r->start_unix_ns, r->argv, r->argc }, i
			};
		for (k = 0; k < r->nmerged; k++)
			(*out)[(*nout)++] = (struct tt_run_ref){ r->merged[k], i };
	}
	return 0;
}

/* By pid, then start time, then position: a run's first appearance sorts first. */
static int by_run(const void *pa, const void *pb, void *pruns)
{
	const struct tt_run_ref *runs = pruns;
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
	const struct tt_report_run *x = &runs[a].run, *y = &runs[b].run;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->start_unix_ns != y->start_unix_ns)
		return x->start_unix_ns < y->start_unix_ns ? -1 : 1;
	return a < b ? -1 : a > b;
}

bool tt_runlist_repeat(const struct tt_run_ref *runs, size_t n, size_t *a, size_t *b)
{
	size_t *order = calloc(n ? n : 1, sizeof(*order)), i;
	bool found = false;

	if (!order) { /* pairwise then: slow, but still right */
		for (*b = 1; *b < n; (*b)++)
			for (*a = 0; *a < *b; (*a)++)
				if (runs[*a].run.pid == runs[*b].run.pid &&
				    runs[*a].run.start_unix_ns == runs[*b].run.start_unix_ns)
					return true;
		return false;
	}
	for (i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), by_run, (void *)runs);
	/* The pair whose second member comes first in the given order: what a reader scanning
	 * the command line would find. */
	for (i = 1; i < n; i++) {
		if (runs[order[i]].run.pid != runs[order[i - 1]].run.pid ||
		    runs[order[i]].run.start_unix_ns != runs[order[i - 1]].run.start_unix_ns)
			continue;
		if (!found || order[i] < *b) {
			*b = order[i];
			found = true;
		}
	}
	if (found) /* the first appearance of *b's run */
		for (*a = 0; runs[*a].run.pid != runs[*b].run.pid ||
			     runs[*a].run.start_unix_ns != runs[*b].run.start_unix_ns;
		     (*a)++)
			;
	free(order);
	return found;
}
