/*
 * load.h - a schema-1 JSON report (libtsctrace(7), REPORT) read, checked and turned into the
 * struct tt_report that the shim's own formatters take.
 *
 * Checking is strict, because every subcommand computes from these numbers: each field the
 * contract lists must be there with its type; counts must add up (timed = calls - unwound -
 * migrated - dropped); statistics must be ordered (min <= median <= p90 <= p99 <= max);
 * histogram buckets must be [low, high, count] with low <= high, count >= 1, sorted by
 * (low, high) without repeats. Buckets may overlap: a merged report keeps the buckets of
 * reports with different overheads apart (see merge_func.c). A caller needs "site", "calls"
 * and "cycles"; "frames" (default: the site alone) and the counts "timed", "unwound",
 * "migrated", "dropped" (default: all calls timed) may be left out, as in the contract's
 * example, but must add up when present. "names" may be left out (reports from before it):
 * the parts of "name" between '|' are the names then. No name may belong to two entries.
 * Unknown extra fields are allowed.
 */
#ifndef TT_LOAD_H
#define TT_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "report/report_model.h"

struct cli_report {
	const char *file;   /* as named on the command line; "-" is stdin */
	json_t *root;	    /* owns every string of r */
	struct tt_report r; /* r.funcs points at funcs */
	struct tt_report_func *funcs;
	const char **argv;	      /* r.argv */
	const char **warnings;	      /* r.warnings */
	uint64_t merged_from;	      /* "merged_from" of a merged report; 1 for a plain one */
	struct tt_report_run *merged; /* r.merged: "merged" of a merged report, else NULL */
	const char ***merged_argv;    /* each run's argv vector (malloc'd) */
};

/*
 * Read and check the report in file ("-" for stdin). Returns NULL after one "tsctrace:" line
 * saying what is wrong: the file cannot be read, is larger than tt_load_cap(), is not JSON,
 * has another schema, or a field is missing or wrong (named by its path).
 */
struct cli_report *tt_load_report(const char *file);

/* The same for a document already parsed (root, which the report then owns; freed on
 * failure), named file in messages. */
struct cli_report *tt_load_report_root(const char *file, json_t *root);

/* Load every file; NULL (and nothing kept) if any fails. *out is an array of n reports. */
struct cli_report **tt_load_reports(char *const *files, size_t n);

/*
 * The most bytes read from one input: 256 MiB, or $TSCTRACE_MAX_INPUT ("512M": K, M, G, T for
 * KiB... TiB). Returns 0, or -1 after a "tsctrace:" line when the variable is malformed.
 */
int tt_load_cap(uint64_t *cap);

/*
 * The JSON document in file ("-" for stdin), reading at most cap bytes (load_read.c). Returns
 * NULL after one "tsctrace:" line: the file cannot be opened or read, goes on past cap bytes,
 * or is not JSON.
 */
json_t *tt_load_parse(const char *file, uint64_t cap);

void tt_load_free(struct cli_report *rep);
void tt_load_free_all(struct cli_report **reps, size_t n);

/*
 * Check and fill one function from its JSON object (load_func.c). Returns 0, or -1 after a
 * "tsctrace:" line, with nothing left allocated.
 */
int tt_load_func(const char *file, size_t index, json_t *obj, struct tt_report_func *f);

/*
 * Sampling (load_sampling.c): the top-level "sampling" object into r->sampling (mode NULL when
 * absent), and a function's "sampling" object (path: "functions[N]") into f->sampling with
 * f->has_sampling. Both optional; -1 after a message when present but malformed.
 */
int tt_load_sampling_header(const char *file, json_t *root, struct tt_report *r);
int tt_load_sampling_func(const char *file, const char *path, json_t *obj,
			  struct tt_report_func *f);

/* A function's optional tail (issue 34): "slowest", "slowest_info", "by_arg", "filtered"
 * (load_tail.c); tt_load_tail_free frees what it allocated. */
int tt_load_tail(const char *file, const char *path, json_t *obj, struct tt_report_func *f);
void tt_load_tail_free(struct tt_report_func *f);

/* Free what tt_load_func allocated for f (buckets, callers and their frames). */
void tt_load_func_free(struct tt_report_func *f);

/*
 * A histogram object h ({"of": want_of, "buckets": [[low, high, count], ...]}, path names it
 * in messages) into *out (malloc'd, set as soon as allocated: free it on failure too) and
 * *nout. Returns 0, or -1 after a "tsctrace:" line.
 */
int tt_load_histogram(const char *file, const char *path, json_t *h, const char *want_of,
		      const struct tt_bucket **out, size_t *nout);

/* Check and fill one statistic block of uint64 fields and a mean (load_func.c). */
int tt_load_summary(const char *file, const char *path, json_t *obj, struct tt_summary *s);

/* A function's optional self time, per-thread rows and callers' self totals (load_self.c). */
int tt_load_self_func(const char *file, const char *path, json_t *obj, struct tt_report_func *f);

/* The function of rep that name names (one of its "names", or its display name "a|b"), or
 * NULL. */
const struct tt_report_func *tt_load_find(const struct cli_report *rep, const char *name);

/* True when the report's clock counts nanoseconds rather than TSC ticks. */
bool tt_load_in_ns(const struct tt_report *r);

#endif /* TT_LOAD_H */
