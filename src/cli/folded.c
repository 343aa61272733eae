/*
 * folded.c - call paths as folded stacks (see folded.h).
 */
#include "cli/folded.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* Append n bytes of name to *p as one frame: ';' -> ':', control characters -> '?'. */
static char *put_frame(char *p, const char *name, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];

		*p++ = c == ';' ? ':' : c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	return p;
}

static char *stack_text(const struct tt_callpath *p)
{
	struct tt_frame *fr = calloc(p->nframes ? p->nframes : 1, sizeof(*fr));
	size_t i, len = strlen(p->func->name) + 1;
	char *text, *q;

	if (!fr)
		return NULL;
	for (i = 0; i < p->nframes; i++) {
		tt_frame_split(p->frames[i], &fr[i]);
		len += fr[i].fnlen + 1;
	}
	text = malloc(len);
	if (!text) {
		free(fr);
		return NULL;
	}
	q = text;
	for (i = p->nframes; i-- > 0;) {
		if (tt_frame_is_shim(&fr[i]))
			continue;
		q = put_frame(q, fr[i].fn, fr[i].fnlen);
		*q++ = ';';
	}
	q = put_frame(q, p->func->name, strlen(p->func->name));
	*q = 0;
	free(fr);
	return text;
}

static int by_text(const void *a, const void *b)
{
	return strcmp(((const struct tt_stack *)a)->text, ((const struct tt_stack *)b)->text);
}

int tt_stacks_build(const char *cmd, const struct tt_callpaths *cp, enum tt_weight w,
		    struct tt_stacks *out)
{
	size_t i, n = 0;

	out->s = calloc(cp->n ? cp->n : 1, sizeof(*out->s));
	out->n = 0;
	if (!out->s)
		goto oom;
	for (i = 0; i < cp->n; i++) {
		uint64_t v = tt_callpath_value(&cp->p[i], w);

		if (!v)
			continue;
		out->s[out->n].weight = v;
		out->s[out->n].text = stack_text(&cp->p[i]);
		if (!out->s[out->n++].text)
			goto oom;
	}
	qsort(out->s, out->n, sizeof(*out->s), by_text);
	for (i = 0; i < out->n; i++) {
		if (n && strcmp(out->s[n - 1].text, out->s[i].text) == 0) {
			if (__builtin_add_overflow(out->s[n - 1].weight, out->s[i].weight,
						   &out->s[n - 1].weight)) {
				tt_cli_err("%s: the weight of one stack is above 2^64", cmd);
				tt_stacks_free(out);
				return -1;
			}
			free(out->s[i].text);
		} else {
			out->s[n++] = out->s[i];
		}
	}
	out->n = n;
	return 0;
oom:
	tt_cli_err("%s: out of memory", cmd);
	tt_stacks_free(out);
	return -1;
}

void tt_stacks_free(struct tt_stacks *st)
{
	size_t i;

	for (i = 0; st->s && i < st->n; i++)
		free(st->s[i].text);
	free(st->s);
	st->s = NULL;
	st->n = 0;
}

void tt_stacks_write(struct tt_buf *out, const struct tt_stacks *st)
{
	size_t i;

	for (i = 0; i < st->n; i++)
		tt_buf_printf(out, "%s %" PRIu64 "\n", st->s[i].text, st->s[i].weight);
}
