/*
 * report_json_tail.c - the JSON of issue 34's tail (libtsctrace(7), REPORT): a function's
 * slowest calls ("slowest", "slowest_info") and its latency by argument ("by_arg",
 * "filtered"). Same rules as report_json.c: no allocation, integers exact, strings escaped.
 */
#include "report/report_fmt.h"

#include <inttypes.h>

/* {"cycles": .., "start_ns": .., "tid": .., "cpu": .., "args": [..], "ret": .., "path": [..],
 * "offcpu_ns": ..} on one line. */
static void slow_call(struct tt_buf *out, const struct tt_report_slow_call *c)
{
	size_t i;

	tt_buf_printf(out, "{\"cycles\": %" PRIu64 ", \"start_ns\": %" PRIu64, c->cycles,
		      c->start_ns);
	if (c->has_pid)
		tt_buf_printf(out, ", \"pid\": %" PRId64, c->pid);
	tt_buf_printf(out, ", \"tid\": %" PRId64, c->tid);
	if (c->has_cpu)
		tt_buf_printf(out, ", \"cpu\": %" PRId64 ", \"args\": [", c->cpu);
	else
		tt_buf_puts(out, ", \"cpu\": null, \"args\": [");
	for (i = 0; i < 6; i++)
		tt_buf_printf(out, "%s%" PRId64, i ? ", " : "", c->args[i]);
	tt_buf_printf(out, "], \"ret\": %" PRId64 ", \"path\": ", c->ret);
	if (!c->path) {
		tt_buf_puts(out, "null");
	} else {
		tt_buf_puts(out, "[");
		for (i = 0; i < c->npath; i++) {
			tt_buf_puts(out, i ? ", " : "");
			tt_json_string(out, c->path[i]);
		}
		tt_buf_puts(out, "]");
	}
	if (c->has_offcpu)
		tt_buf_printf(out, ", \"offcpu_ns\": %" PRIu64 "}", c->offcpu_ns);
	else
		tt_buf_puts(out, ", \"offcpu_ns\": null}");
}

static void slowest(struct tt_buf *out, const char *ind, const struct tt_report_func *f)
{
	const struct tt_report_slowest_info *s = &f->slowest_info;
	size_t i;

	if (f->has_slowest) {
		tt_buf_printf(out, "%s\"slowest\": [", ind);
		for (i = 0; i < f->nslowest; i++) {
			tt_buf_printf(out, "%s\n%s  ", i ? "," : "", ind);
			slow_call(out, &f->slowest[i]);
		}
		tt_buf_printf(out, "%s%s],\n", f->nslowest ? "\n" : "", f->nslowest ? ind : "");
	}
	if (!f->has_slowest_info)
		return;
	tt_buf_printf(out, "%s\"slowest_info\": {\"kept\": %" PRIu64 ", \"timed_only\": %s", ind,
		      s->kept, s->timed_only ? "true" : "false");
	if (s->has_slower_than)
		tt_buf_printf(out, ", \"slower_than\": %" PRIu64, s->slower_than);
	else
		tt_buf_puts(out, ", \"slower_than\": null");
	tt_buf_printf(out, ", \"not_kept\": %" PRIu64 "},\n", s->not_kept);
}

static void by_arg(struct tt_buf *out, const char *ind, const struct tt_report_by_arg *a)
{
	size_t i;

	tt_buf_printf(out, "%s\"by_arg\": {\"arg\": %u, \"filter\": ", ind, a->arg);
	if (a->filter)
		tt_json_string(out, a->filter);
	else
		tt_buf_puts(out, "null");
	if (a->merged_estimate)
		tt_buf_puts(out, ", \"estimated\": [\"median\", \"p99\"]");
	tt_buf_puts(out, ", \"buckets\": [");
	for (i = 0; i < a->nbuckets; i++) {
		const struct tt_report_arg_bucket *b = &a->buckets[i];

		tt_buf_printf(out,
			      "%s\n%s  {\"lo\": %" PRIu64 ", \"hi\": %" PRIu64
			      ", \"calls\": %" PRIu64 ", \"timed\": %" PRIu64,
			      i ? "," : "", ind, b->lo, b->hi, b->calls, b->timed);
		if (b->timed) /* the figures of the calls timed: none, none to give */
			tt_buf_printf(out,
				      ", \"min\": %" PRIu64 ", \"median\": %" PRIu64
				      ", \"p99\": %" PRIu64 "}",
				      b->min, b->median, b->p99);
		else
			tt_buf_puts(out, ", \"min\": null, \"median\": null, \"p99\": null}");
	}
	tt_buf_printf(out, "%s%s]},\n", a->nbuckets ? "\n" : "", a->nbuckets ? ind : "");
}

void tt_report_json_tail(struct tt_buf *out, const char *ind, const struct tt_report_func *f)
{
	slowest(out, ind, f);
	if (f->has_by_arg)
		by_arg(out, ind, &f->by_arg);
	if (f->has_filtered)
		tt_buf_printf(out, "%s\"filtered\": %" PRIu64 ",\n", ind, f->filtered);
}
