/*
 * export_perfetto.c - `tsctrace export --format perfetto`: the reports' kept slow calls
 * (TSC_SLOWEST, "slowest") as a timeline, in the Chrome trace-event JSON that Perfetto and
 * chrome://tracing open: {"traceEvents": [...]}.
 *
 * One complete event ("ph": "X") per kept call, on its thread's track (pid: its run's, tid:
 * its thread), named by the function, with ts its entry and dur its cycles at the report's
 * clock rate, both in microseconds; its arguments, result, CPU, time off the CPU and call path
 * in "args". Thread names ("ph": "M", "thread_name") come from the reports' per-thread rows,
 * process names from their programs (a merge's other runs: their argv[0]). ts counts from the earliest run's start, written in
 * "otherData" as a string (a unix time as a double would lose its microseconds).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/basename.h"
#include "cli/cli.h"
#include "cli/load_text.h"
#include "cli/export.h"
#include "cli/names.h"
#include "report/report_fmt.h"

/* Nanoseconds as microseconds with three decimals, exact (no double, no locale). */
static void put_us(struct tt_buf *out, uint64_t ns)
{
	tt_buf_printf(out, "%" PRIu64 ".%03" PRIu64, ns / 1000, ns % 1000);
}

/* A call's cycles in ns at the report's rate (the clock's own unit when it counts ns). */
static uint64_t cycles_ns(const struct tt_report *r, uint64_t cycles)
{
	if (tt_load_in_ns(r) || !r->clock.tsc_hz)
		return cycles;
	return (uint64_t)((unsigned __int128)cycles * 1000000000u / r->clock.tsc_hz);
}

static void event_sep(struct tt_buf *out, bool *first)
{
	tt_buf_puts(out, *first ? "\n  " : ",\n  ");
	*first = false;
}

static void slow_event(struct tt_buf *out, const struct tt_report *r,
		       const struct tt_report_func *f, const struct tt_report_slow_call *c,
		       uint64_t base, bool *first)
{
	char shown[TT_CLI_NAME_BYTES];
	size_t k;

	event_sep(out, first);
	tt_buf_puts(out, "{\"ph\": \"X\", \"cat\": \"tsctrace\", \"name\": ");
	tt_json_string(out, tt_cli_display_name(f->name, shown, sizeof(shown)));
	tt_buf_printf(out, ", \"pid\": %" PRId64 ", \"tid\": %" PRId64 ", \"ts\": ",
		      c->has_pid ? c->pid : r->pid, c->tid);
	put_us(out, c->start_ns > base ? c->start_ns - base : 0);
	tt_buf_puts(out, ", \"dur\": ");
	put_us(out, cycles_ns(r, c->cycles));
	tt_buf_printf(out,
		      ", \"args\": {\"cycles\": %" PRIu64 ", \"cpu\": %" PRId64 ", \"args\": [",
		      c->cycles, c->cpu);
	for (k = 0; k < 6; k++)
		tt_buf_printf(out, "%s%" PRId64, k ? ", " : "", c->args[k]);
	tt_buf_printf(out, "], \"ret\": %" PRId64 ", \"offcpu_ns\": ", c->ret);
	if (c->has_offcpu)
		tt_buf_printf(out, "%" PRIu64, c->offcpu_ns);
	else
		tt_buf_puts(out, "null");
	tt_buf_puts(out, ", \"path\": ");
	if (!c->path) {
		tt_buf_puts(out, "null");
	} else {
		tt_buf_puts(out, "[");
		for (k = 0; k < c->npath; k++) {
			tt_buf_puts(out, k ? ", " : "");
			tt_json_string(out, c->path[k]);
		}
		tt_buf_puts(out, "]");
	}
	tt_buf_puts(out, "}}");
}

/* A metadata event naming process pid or its thread tid (tid < 0: the process). */
static void name_event(struct tt_buf *out, int64_t pid, int64_t tid, const char *name, bool *first)
{
	event_sep(out, first);
	if (tid < 0)
		tt_buf_printf(out, "{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": %" PRId64,
			      pid);
	else
		tt_buf_printf(out,
			      "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": %" PRId64
			      ", \"tid\": %" PRId64,
			      pid, tid);
	tt_buf_puts(out, ", \"args\": {\"name\": ");
	tt_json_string(out, name);
	tt_buf_puts(out, "}}");
}

struct named {
	int64_t pid, tid;
};

/* Whether (pid, tid) is in seen[0..n); added if not (seen has room for every row). */
static bool seen_before(struct named *seen, size_t *n, int64_t pid, int64_t tid)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (seen[i].pid == pid && seen[i].tid == tid)
			return true;
	seen[(*n)++] = (struct named){ pid, tid };
	return false;
}

/* Names of the processes and threads of rep, each once. */
static void names_of(struct tt_buf *out, const struct tt_report *r, struct named *seen,
		     size_t *nseen, bool *first)
{
	size_t i, k;

	if (!seen_before(seen, nseen, r->pid, -1))
		name_event(out, r->pid, -1, tt_base_name(r->program ? r->program : ""), first);
	for (i = 0; i < r->nmerged; i++) /* a merge's other runs, by their argv[0] */
		if (!seen_before(seen, nseen, r->merged[i].pid, -1))
			name_event(out, r->merged[i].pid, -1,
				   tt_base_name(r->merged[i].argc ? r->merged[i].argv[0] : ""),
				   first);
	for (i = 0; i < r->nfuncs; i++) {
		for (k = 0; k < r->funcs[i].nthreads; k++) {
			const struct tt_report_thread *t = &r->funcs[i].threads[k];
			int64_t pid = t->has_pid ? t->pid : r->pid;

			if (t->tid > 0 && t->name && *t->name &&
			    !seen_before(seen, nseen, pid, t->tid))
				name_event(out, pid, t->tid, t->name, first);
		}
	}
}

int tt_export_perfetto(struct tt_buf *out, struct cli_report **reps, size_t n,
		       const struct export_args *a)
{
	uint64_t base = UINT64_MAX, calls = 0;
	struct named *seen;
	size_t i, j, k, rows = 0, nseen = 0;
	bool first = true;

	(void)a;
	if (tt_load_text_lacks("export", reps, n, "slowest", "its slowest calls (TSC_SLOWEST)") < 0)
		return -1;
	for (i = 0; i < n; i++) {
		const struct tt_report *r = &reps[i]->r;

		base = r->start_unix_ns < base ? r->start_unix_ns : base;
		rows += 1 + r->nmerged;
		for (j = 0; j < r->nfuncs; j++) {
			rows += r->funcs[j].nthreads;
			calls += r->funcs[j].nslowest;
			for (k = 0; k < r->funcs[j].nslowest; k++)
				if (r->funcs[j].slowest[k].start_ns < base)
					base = r->funcs[j].slowest[k].start_ns;
		}
	}
	seen = calloc(rows + 1, sizeof(*seen));
	if (!seen) {
		tt_cli_err("export: out of memory");
		return -1;
	}
	tt_buf_puts(out, "{\"traceEvents\": [");
	for (i = 0; i < n; i++)
		names_of(out, &reps[i]->r, seen, &nseen, &first);
	for (i = 0; i < n; i++) {
		const struct tt_report *r = &reps[i]->r;

		for (j = 0; j < r->nfuncs; j++)
			for (k = 0; k < r->funcs[j].nslowest; k++)
				slow_event(out, r, &r->funcs[j], &r->funcs[j].slowest[k], base,
					   &first);
	}
	tt_buf_printf(out,
		      "\n], \"displayTimeUnit\": \"ns\", \"otherData\": {\"tool\": \"tsctrace\", "
		      "\"start_unix_ns\": \"%" PRIu64 "\", \"slow_calls\": \"%" PRIu64 "\"}}\n",
		      base == UINT64_MAX ? 0 : base, calls);
	free(seen);
	if (out->failed) {
		tt_cli_err("export: out of memory");
		return -1;
	}
	if (!calls)
		tt_cli_err("export: warning: no slow calls kept in %s (taken with TSC_SLOWEST=0, "
			   "or before tsctrace kept them): the timeline has none",
			   n == 1 ? reps[0]->file : "these reports");
	return 0;
}
