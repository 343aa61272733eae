/*
 * callpath.c - the call paths of reports, with the rest of each function on one more path
 * (see callpath.h).
 */
#include "cli/callpath.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/load_text.h"

static const char *const unseen_frame[] = { TT_CALLPATH_UNSEEN };

bool tt_weight_parse(const char *s, enum tt_weight *w)
{
	if (strcmp(s, "calls") == 0)
		*w = TT_WEIGHT_CALLS;
	else if (strcmp(s, "cycles") == 0)
		*w = TT_WEIGHT_CYCLES;
	else if (strcmp(s, "self") == 0)
		*w = TT_WEIGHT_SELF;
	else
		return false;
	return true;
}

uint64_t tt_callpath_value(const struct tt_callpath *p, enum tt_weight w)
{
	switch (w) {
	case TT_WEIGHT_CALLS: return p->calls;
	case TT_WEIGHT_CYCLES: return p->cycles;
	case TT_WEIGHT_SELF: return p->self;
	}
	return 0;
}

static bool hex_tail(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!strchr("0123456789abcdefABCDEF", s[i]))
			return false;
	return len > 0;
}

/* The length of s[0..len) without a trailing "+0xHEX", or len when there is none. */
static size_t strip_offset(const char *s, size_t len)
{
	size_t i;

	for (i = len; i >= 3; i--)
		if (s[i - 3] == '+' && s[i - 2] == '0' && s[i - 1] == 'x')
			return hex_tail(s + i, len - i) ? i - 3 : len;
	return len;
}

void tt_frame_split(const char *frame, struct tt_frame *out)
{
	size_t len = strlen(frame), cut;
	const char *open;

	out->fn = frame;
	out->fnlen = len;
	out->obj = NULL;
	out->objlen = 0;
	if (frame[0] == '(')
		return; /* a pseudo-site */
	open = strstr(frame, " (");
	if (open && len > 0 && frame[len - 1] == ')') {
		/* "symbol+0xOFF (object)" */
		out->obj = open + 2;
		out->objlen = (size_t)(frame + len - 1 - out->obj);
		out->fnlen = strip_offset(frame, (size_t)(open - frame));
		return;
	}
	cut = strip_offset(frame, len);
	if (cut < len && cut > 0) {
		/* "object+0xOFF": no symbol, so the address stays in the name */
		out->obj = frame;
		out->objlen = cut;
	}
}

bool tt_frame_is_shim(const struct tt_frame *fr)
{
	static const char shim[] = "libtsctrace.so";

	return fr->objlen == sizeof(shim) - 1 && memcmp(fr->obj, shim, fr->objlen) == 0;
}

/* functions[fi] (and its callers[ci] when ci >= 0) "self.total" of rep, if there. */
static bool self_total(const struct cli_report *rep, size_t fi, long ci, uint64_t *out)
{
	json_t *o = json_array_get(json_object_get(rep->root, "functions"), fi), *t;

	if (ci >= 0)
		o = json_array_get(json_object_get(o, "callers"), (size_t)ci);
	t = json_object_get(json_object_get(o, "self"), "total");
	if (!json_is_integer(t) || json_integer_value(t) < 0)
		return false;
	*out = (uint64_t)json_integer_value(t);
	return true;
}

static int no_self(const char *cmd, const struct cli_report *rep, size_t fi, long ci)
{
	char where[64];

	if (ci >= 0)
		snprintf(where, sizeof(where), "functions[%zu].callers[%ld]", fi, ci);
	else
		snprintf(where, sizeof(where), "functions[%zu]", fi);
	tt_cli_err("%s: --weight self: %s has no self time (%s.self.total); the report must "
		   "come from a tsctrace that records it",
		   cmd, rep->file, where);
	return -1;
}

struct sums {
	uint64_t calls, cycles, self;
};

static int add_function(const char *cmd, const struct cli_report *rep, size_t fi, enum tt_weight w,
			struct tt_callpaths *out)
{
	const struct tt_report_func *f = &rep->funcs[fi];
	struct sums sum = { 0, 0, 0 };
	struct tt_callpath *p;
	uint64_t fself = 0;
	bool has_fself = self_total(rep, fi, -1, &fself);
	size_t i;

	if (w == TT_WEIGHT_SELF && !f->has_callers && !has_fself)
		return no_self(cmd, rep, fi, -1);
	for (i = 0; i < f->ncallers; i++) {
		const struct tt_report_caller *c = &f->callers[i];

		p = &out->p[out->n++];
		p->rep = rep;
		p->func = f;
		p->frames = c->frames;
		p->nframes = c->nframes ? c->nframes : 1; /* a pseudo-site: frames[0] is its name */
		p->calls = c->calls;
		p->cycles = c->cycles.total;
		p->self = 0;
		if (w == TT_WEIGHT_SELF && !self_total(rep, fi, (long)i, &p->self))
			return no_self(cmd, rep, fi, (long)i);
		sum.calls += p->calls;
		sum.cycles += p->cycles;
		sum.self += p->self;
	}
	if (sum.calls > f->calls || sum.cycles > f->cycles.total ||
	    (w == TT_WEIGHT_SELF && has_fself && sum.self > fself)) {
		tt_cli_err("%s: %s: functions[%zu]: its callers add up to more than the function",
			   cmd, rep->file, fi);
		return -1;
	}
	if (w != TT_WEIGHT_SELF || !has_fself)
		fself = sum.self;
	if (f->has_callers && sum.calls == f->calls && sum.cycles == f->cycles.total &&
	    sum.self == fself)
		return 0;
	p = &out->p[out->n++];
	p->rep = rep;
	p->func = f;
	p->frames = f->has_callers ? unseen_frame : NULL;
	p->nframes = f->has_callers ? 1 : 0;
	p->calls = f->calls - sum.calls;
	p->cycles = f->cycles.total - sum.cycles;
	p->self = fself - sum.self;
	return 0;
}

int tt_callpaths_collect(const char *cmd, struct cli_report **reps, size_t n, enum tt_weight w,
			 struct tt_callpaths *out)
{
	size_t i, j, cap = 0;

	out->p = NULL;
	out->n = 0;
	if (tt_load_text_lacks(cmd, reps, n, "callers", "its call paths (TSC_CALLERS)") < 0 ||
	    (w == TT_WEIGHT_SELF && tt_load_text_lacks(cmd, reps, n, "self", "its self time") < 0))
		return -1;
	for (i = 0; i < n; i++) {
		if (w != TT_WEIGHT_CALLS &&
		    tt_load_in_ns(&reps[i]->r) != tt_load_in_ns(&reps[0]->r)) {
			tt_cli_err("%s: %s counts ns and %s TSC ticks: their times do not add up",
				   cmd, reps[tt_load_in_ns(&reps[i]->r) ? i : 0]->file,
				   reps[tt_load_in_ns(&reps[i]->r) ? 0 : i]->file);
			return -1;
		}
		for (j = 0; j < reps[i]->r.nfuncs; j++)
			cap += reps[i]->funcs[j].ncallers + 1;
	}
	out->p = calloc(cap ? cap : 1, sizeof(*out->p));
	if (!out->p) {
		tt_cli_err("%s: out of memory", cmd);
		return -1;
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < reps[i]->r.nfuncs; j++) {
			if (add_function(cmd, reps[i], j, w, out) < 0) {
				tt_callpaths_free(out);
				return -1;
			}
		}
	}
	return 0;
}

void tt_callpaths_free(struct tt_callpaths *cp)
{
	free(cp->p);
	cp->p = NULL;
	cp->n = 0;
}
