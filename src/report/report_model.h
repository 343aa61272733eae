/*
 * report_model.h - the report as plain data, filled by runtime/report_build.c from the live
 * tables and turned into text or JSON by the pure formatters (report_text.c, report_json.c).
 *
 * Field meanings are libtsctrace(7), REPORT (schema 1). Every string is NUL-terminated UTF-8
 * or arbitrary bytes (the JSON writer escapes); no pointer may be NULL unless marked optional.
 */
#ifndef TT_REPORT_MODEL_H
#define TT_REPORT_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define TT_REPORT_SCHEMA 1

/* One statistic block in the clock's unit ("cycles" = raw minus overhead, or "raw"). */
struct tt_summary {
	uint64_t min, median, p90, p99, max;
	double mean;
	uint64_t total;
	bool has_tail;	      /* p999 and p9999 are known (reports read back from before: no) */
	uint64_t p999, p9999; /* p99.9 and p99.99 */
};

/* The same statistics converted to nanoseconds with clock.tsc_hz. */
struct tt_summary_ns {
	double min, median, p90, p99, max, mean, total;
	bool has_tail;
	double p999, p9999;
};

/* One non-empty histogram bucket: count samples with low <= value <= high. */
struct tt_bucket {
	uint64_t low, high, count;
};

/* An object the frames of call sites are in (the report's "objects"): what a symbolizer needs
 * to find it again, even stripped, moved or rebuilt (the build ID tells). */
struct tt_report_object {
	const char *path;     /* its file when the report was taken */
	const char *build_id; /* GNU build ID in hex, "" when it has none */
};

/* Where one frame of a call site is: an index into tt_report.objects (-1: in no object) and
 * the address in that file's own terms (run-time address minus load bias). */
struct tt_report_location {
	int64_t object;
	uint64_t address;
	bool tail; /* a tail call's frame: the function's entry, no return address */
};

/* 95% bounds of a percentile estimated from a sample (order statistics): lo <= hi. */
struct tt_ci {
	uint64_t lo, hi;
};

/* Sampling of one function (TSC_SAMPLE, TSC_BUDGET): what was timed, and how sure its
 * percentiles are. */
struct tt_report_sampling {
	uint64_t period_min, period_max; /* 1 in N drawn with, per thread over time; 0: none */
	bool has_ci;			 /* some calls passed over and some timed */
	struct tt_ci median, p90, p99;	 /* of cycles */
	bool weighted;			 /* TSC_BUDGET: median, p90, p99 and mean of cycles,
					  * raw and ns weighted by period */
	uint64_t timed_cost;		 /* TSC_BUDGET: a timed call's cost seen; 0: none */
	/* What merging weighted reports needs (the weighted buckets are the function's
	 * weighted_buckets); false in reports read back from before them. */
	bool has_weights;
	uint64_t weights_sq;		       /* sum of the squared weights */
	uint64_t weighted_total, weighted_raw; /* sum of weight x cycles, and x raw ticks */
};

/* TSC_CALLERS: one call site (N = 1) or call path (N > 1) of a function. */
struct tt_report_caller {
	const char *site;	   /* "main+0x4c (app)", a path's frames joined by " <- " */
	const char *const *frames; /* the path, innermost first (nframes == 1 for N = 1) */
	size_t nframes;
	const struct tt_report_location *locations; /* one per frame; optional (NULL) */
	uint64_t calls, timed, unwound, migrated, dropped;
	uint64_t skipped; /* passed over by sampling: counted, not timed */
	struct tt_summary cycles;
	bool has_self;	     /* self_total is known (reports from before self time: false) */
	uint64_t self_total; /* cycles of these calls less those of the traced calls they made */
	/* TSC_BUDGET: cycles' median, p90, p99 and mean weighted by the period that chose each
	 * timed call, as the function's; weights = their sum (the calls they stand for) and
	 * weighted_total = the sum of weight x cycles (an estimate of all its calls' cycles). */
	bool weighted;
	uint64_t weights, weighted_total, weights_sq; /* and the sum of the squared weights */
	/* Sampling: the sum of weight x self cycles, beside self_total (the calls timed'): an
	 * estimate of the self cycles of all its calls ("self_weighted") */
	bool has_self_weighted;
	uint64_t self_weighted_total;
	/* The buckets of cycles (and, weighted, each timed call counted as its weight), as the
	 * function's: what `tsctrace merge` recomputes a merged site's percentiles from.
	 * Optional: NULL with 0 (reports from before them, pseudo-sites with nothing timed). */
	const struct tt_bucket *buckets, *weighted_buckets;
	size_t nbuckets, nweighted_buckets;
};

/* One thread's share of a function (threads that exited before the report included). */
struct tt_report_thread {
	int64_t tid;	  /* 0: exited threads beyond the rows kept, summed */
	const char *name; /* comm; "" when unknown */
	uint64_t calls, timed;
	uint64_t cycles; /* total cycles of its timed calls */
	bool has_self;	 /* false in reports read back from before self time */
	uint64_t self;	 /* total self cycles */
	bool has_pid;	 /* merged reports: rows of several processes, each its own */
	int64_t pid;	 /* the process the thread ran in (has_pid) */
	/* TSC_BUDGET: each timed call weighted by the period that chose it: weights = the calls
	 * they stand for, weighted_cycles = sum of weight x cycles (its calls' cycles, estimated) */
	bool weighted;
	uint64_t weights, weights_sq, weighted_cycles;
	/* Sampling: the sum of weight x self cycles beside self (the calls timed'): its calls'
	 * self cycles, estimated ("self_weighted") */
	bool has_self_weighted;
	uint64_t self_weighted;
};

/* TSC_SLOWEST: one of a function's slowest timed calls ("slowest"), as the shim kept it. */
struct tt_report_slow_call {
	uint64_t cycles;   /* after overhead subtraction, as cycles.max */
	uint64_t start_ns; /* unix ns of its entry */
	int64_t tid, cpu;
	bool has_cpu;		 /* false: "cpu": null (not known) */
	int64_t args[6], ret;	 /* integer argument registers at entry, rax at exit */
	const char *const *path; /* call path, innermost caller first; NULL: none ("path": null) */
	size_t npath;
	bool has_offcpu; /* false: "offcpu_ns": null (the warnings say why) */
	uint64_t offcpu_ns;
	bool has_pid; /* merged reports: the process it ran in */
	int64_t pid;
};

/* What "slowest" is ("slowest_info"). */
struct tt_report_slowest_info {
	uint64_t kept;	 /* K: the most calls kept per function */
	bool timed_only; /* only timed calls can be kept (sampling passes over some) */
	bool has_slower_than;
	uint64_t slower_than; /* TSC_SLOWER_THAN in cycles (has_slower_than) */
	uint64_t not_kept;    /* calls above it that the full list left out */
};

/* TSC_ARGS: one log2 bucket of the argument's unsigned value ([0, 0], then [2^k, 2^(k+1)-1]). */
struct tt_report_arg_bucket {
	uint64_t lo, hi, calls, timed, min, median, p99;
};

/* TSC_ARGS: a function's latency by one integer argument ("by_arg"). */
struct tt_report_by_arg {
	unsigned int arg;   /* K = 1..6 */
	const char *filter; /* ">=N", "==N" or NULL */
	const struct tt_report_arg_bucket *buckets;
	size_t nbuckets;
	bool merged_estimate; /* merge: some bucket's median and p99 are timed-weighted means */
};

struct tt_report_func {
	const char *name;	  /* as the user named it; "a|b" when two names share one address */
	const char *const *names; /* every name of the entry, in the order given ("a", "b"):
					 * a tool finds the entry by any of them. Optional: with
					 * nnames 0 the writers take name as the only one */
	size_t nnames;
	const char *symbol;	/* symbol at the traced address (the IFUNC implementation) */
	const char *object;	/* file of the object defining it */
	bool has_offset;	/* false in reports read back from before offsets were written */
	uint64_t offset;	/* its address minus its object's load base */
	const char *hook;	/* "got", "inline", "trap" or "none" */
	const char *count_only; /* why its calls are counted, never timed ("returns twice"), or
				 * NULL: a timed function */
	uint64_t calls, timed, unwound, migrated, dropped;
	uint64_t skipped;  /* passed over by sampling: counted, not timed (0 without sampling) */
	bool has_sampling; /* the run sampled: skipped and sampling are written */
	struct tt_report_sampling sampling;
	bool has_first; /* false when the function was never completed */
	uint64_t first; /* cycles of the process's very first call */
	struct tt_summary cycles, raw;
	bool has_ns; /* false when the clock unit is already nanoseconds */
	struct tt_summary_ns ns;
	bool has_self;		/* self is known (reports from before self time: false) */
	struct tt_summary self; /* cycles less the traced calls it made and their overhead */
	uint64_t self_unknown;	/* timed calls whose self time is unknown (a traced call they
				 * made migrated or was left by longjmp): not in self */
	bool self_approximate;	/* sampling passed over calls: those made inside timed ones
				 * are in self */
	/* Buckets of self's distribution, as `buckets` are of cycles' ("self_histogram"); only
	 * where it differs from cycles' (the function made traced calls or lost some). */
	const struct tt_bucket *self_buckets;
	size_t nself_buckets;
	bool has_self_buckets;
	/* Sampling ("self_weighted"): each timed call's self time weighted by the period that
	 * chose it, as cycles' weighted buckets are: self's median, p90, p99 and mean are then
	 * from these buckets (min, max, total stay those of the calls timed); weights = their
	 * sum, weighted_total = the sum of weight x self cycles (all calls' self, estimated). */
	bool self_weighted;
	uint64_t self_weights, self_weights_sq, self_weighted_total;
	const struct tt_bucket *self_weighted_buckets;
	size_t nself_weighted_buckets;
	const struct tt_report_thread *threads; /* by tid; NULL with nthreads 0 */
	size_t nthreads;
	bool has_threads;		 /* "threads" written (or read back) */
	const struct tt_bucket *buckets; /* of cycles, ascending, non-empty only */
	size_t nbuckets;
	/* sampling.has_weights: the same buckets with each timed call counted as its weight
	 * (the period that chose it), so each count is a sum of weights */
	const struct tt_bucket *weighted_buckets;
	size_t nweighted_buckets;
	bool has_callers;			/* TSC_CALLERS was set */
	const struct tt_report_caller *callers; /* most calls first; counts add up to calls */
	size_t ncallers;
	/* TSC_SLOWEST (issue 34): the slowest timed calls, slowest first, and what they are */
	bool has_slowest;
	const struct tt_report_slow_call *slowest;
	size_t nslowest;
	bool has_slowest_info;
	struct tt_report_slowest_info slowest_info;
	/* TSC_ARGS: latency by argument, and calls the filter left untimed ("filtered") */
	bool has_by_arg;
	struct tt_report_by_arg by_arg;
	bool has_filtered;
	uint64_t filtered;
};

/* The function's cycles over all its calls as the report estimates them: under a budget with
 * weights, sampling.weighted_total (each timed call times the calls it stands for); otherwise
 * cycles.total. What reports are ordered by and total% is a share of, so that a function timed
 * 1 in 300 is not ranked below one timed on every call for it. */
static inline uint64_t tt_report_func_cycles_est(const struct tt_report_func *f)
{
	return f->sampling.weighted && f->sampling.has_weights ? f->sampling.weighted_total
							       : f->cycles.total;
}

/* One of the runs a merged report was made of (`tsctrace merge`). */
struct tt_report_run {
	int64_t pid;
	uint64_t start_unix_ns;
	const char *const *argv;
	size_t argc;
};

struct tt_report {
	const char *tool;	 /* "tsctrace 0.1.0" */
	const char *program;	 /* the name the user ran (argv[0]'s base name) */
	const char *exe;	 /* /proc/self/exe's target; NULL: unknown, left out */
	bool wide_names;	 /* text: C++ names whole, not shortened (report --wide) */
	const char *const *argv; /* argc strings */
	size_t argc;
	int64_t pid;
	uint64_t start_unix_ns; /* CLOCK_REALTIME at shim start */
	uint64_t wall_ns;	/* CLOCK_MONOTONIC from start to report */
	/* tsctrace attach: the window traced, CLOCK_REALTIME from the attach to the report. */
	bool has_attach;
	uint64_t attach_start_unix_ns, attach_end_unix_ns;
	struct {
		const char *source;	   /* "tsc" or "monotonic" */
		const char *serialize;	   /* "rdtscp", "lfence", "mfence", "cpuid", "none" */
		uint64_t tsc_hz;	   /* 0 when source is monotonic */
		const char *tsc_hz_source; /* "calibrated", "cpuid" or "none" */
		bool invariant;
		bool hypervisor;
		uint64_t granularity;	   /* ticks */
		const char *cpu;	   /* brand string */
		uint32_t tsc_hz_error_ppm; /* bound on tsc_hz's error ("calibrated"), else 0 */
	} clock;
	struct {
		uint64_t min, median, subtracted;
		const char *source; /* "calibrated", "TSC_OVERHEAD" */
		uint64_t nested;    /* what a traced call adds to a traced caller (self time) */
		bool has_nested;    /* nested written (or read back) */
	} overhead;
	struct {
		uint64_t traced, pinned, migrations;
	} threads;
	struct {
		const char *mode;    /* "fixed" (TSC_SAMPLE) or "budget"; NULL: every call timed */
		uint64_t period;     /* TSC_SAMPLE=N */
		uint32_t budget_ppm; /* TSC_BUDGET */
		uint64_t floor;	     /* TSC_BUDGET: calls of each function per thread all timed */
		uint64_t timed_cost; /* clock units a timed call costs over a passed-over one */
		bool has_counting;   /* TSC_BUDGET: the three below are known */
		double count_cost;   /* and a passed-over call over an untraced one (GOT) */
		bool has_count_cost_inline; /* an inline hook's route was measured: */
		double count_cost_inline;   /* the same through it (0 is a figure) */
		double counting;  /* counting every call: its share of the run, estimated */
		bool over_budget; /* counting alone exceeds the budget */
	} sampling;
	const char *const *warnings;
	size_t nwarnings;
	bool text_threads; /* the text report prints each function's threads (report --threads) */
	bool text_slowest; /* ... each function's slowest calls (report --slowest) */
	bool text_by_arg;  /* ... each function's latency by argument (report --by-arg) */
	const struct tt_report_func *funcs; /* sorted by cycles.total, largest first */
	size_t nfuncs;
	const struct tt_report_run *merged; /* a merged report's runs (nmerged > 0; the header
					     * above is the first one's); NULL for one run */
	size_t nmerged;
	const struct tt_report_object *objects; /* of the callers' locations; optional */
	size_t nobjects;
};

#endif /* TT_REPORT_MODEL_H */
