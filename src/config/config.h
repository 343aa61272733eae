/*
 * config.h - the TSC_* environment variables (libtsctrace(7), ENVIRONMENT) as a struct.
 *
 * Parsing is pure: it reads only the envp array it is given and reports each problem through
 * a callback as one line of text (without the "tsctrace: " prefix), so the shim can print it
 * and cmocka can check it. A malformed value falls back to the default; a malformed TSC_FUNCS
 * entry is skipped; unknown TSC_* names are reported (with a suggestion when one is close).
 */
#ifndef TT_CONFIG_H
#define TT_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/cpu_persona.h"

enum tt_format { TT_FMT_TEXT, TT_FMT_JSON };

enum tt_serialize { TT_SER_RDTSCP, TT_SER_LFENCE, TT_SER_MFENCE, TT_SER_CPUID, TT_SER_NONE };
#define TT_SER_COUNT 5

enum tt_clock_choice { TT_CLK_AUTO, TT_CLK_TSC, TT_CLK_MONOTONIC };

enum tt_pin_mode { TT_PIN_EXCLUSIVE, TT_PIN_FIRST, TT_PIN_SPREAD, TT_PIN_NONE, TT_PIN_LIST };

enum tt_hook_mode { TT_HOOK_AUTO, TT_HOOK_INLINE, TT_HOOK_GOT };

#define TT_CONFIG_MAX_CPUS 1024
#define TT_CONFIG_MAX_CALLERS 32
#define TT_CONFIG_SLOWEST 8 /* TSC_SLOWEST's default */
#define TT_CONFIG_MAX_SLOWEST 64
#define TT_CONFIG_MAX_SAMPLE (1ull << 32)
/* TSC_EXPORT_INTERVAL: default and bounds, in ms */
#define TT_CONFIG_EXPORT_MS 10000
#define TT_CONFIG_EXPORT_MIN_MS 100
#define TT_CONFIG_EXPORT_MAX_MS 3600000

/* One TSC_FUNCS entry: `name`, `name@VERSION`, `object:name`, or a glob, possibly combined. */
struct tt_func_spec {
	char *name;    /* symbol name or glob pattern; never empty */
	char *version; /* after '@', or NULL */
	char *object;  /* before ':', or NULL */
	bool glob;     /* name contains *, ? or [ (C++ names: * or ?, and no parameter list) */
	bool cxx;      /* name is a C++ name ("ns::foo", "f(int)"), matched demangled */
};

/* One TSC_ARGS entry: func:K, func:K>=N or func:K==N. */
struct tt_arg_spec {
	char *name;  /* as in TSC_FUNCS */
	uint32_t k;  /* 1..6 */
	uint32_t op; /* 0 all, 1 >=, 2 == (hot/by_arg.h's enum tt_arg_op) */
	uint64_t n;
};

struct tt_config {
	struct tt_func_spec *funcs; /* duplicates merged, in first-seen order */
	size_t nfuncs;
	char *output; /* TSC_OUTPUT template, or NULL for the default */
	enum tt_format format;
	enum tt_serialize serialize;
	bool serialize_set; /* TSC_SERIALIZE given (and valid) */
	enum tt_clock_choice clock;
	enum tt_pin_mode pin;
	uint64_t pin_cpus[TT_CONFIG_MAX_CPUS / 64]; /* TT_PIN_LIST: bit per CPU */
	bool overhead_auto;			    /* TSC_OVERHEAD=auto (default) */
	uint64_t overhead_ticks;		    /* when !overhead_auto */
	enum tt_hook_mode hook;
	unsigned int callers;	/* 0..32 */
	bool callers_libunwind; /* TSC_CALLERS_UNWIND=libunwind: every path by libunwind */
	int dump_signal;	/* signal number, 0 when unset */
	bool quiet;
	bool follow;		   /* TSC_FOLLOW: children of the traced process traced too */
	uint64_t sample;	   /* TSC_SAMPLE: about 1 call in N timed; 0 when every call is */
	uint32_t budget_ppm;	   /* TSC_BUDGET in parts per million; 0 when unset */
	char *export_path;	   /* TSC_EXPORT template, or NULL: no live export */
	uint64_t export_ms;	   /* TSC_EXPORT_INTERVAL */
	bool debug_startup;	   /* TSC_DEBUG=startup: print the time of each start-up phase */
	bool debug_c_exit;	   /* TSC_DEBUG=c-exit: every timed call ends in C (tests) */
	struct tt_cpu_persona cpu; /* TSC_CPU: another CPU's facts, for tests */
	bool cache; /* TSC_CACHE: calibration figures kept between runs (runtime/calib_cache.h) */
	uint32_t slowest;	  /* TSC_SLOWEST: calls kept per function (default 8, 0 off) */
	uint64_t slower_than;	  /* TSC_SLOWER_THAN: cycles, or microseconds; 0 unset */
	bool slower_than_us;	  /* ... given as "Nus" */
	struct tt_arg_spec *args; /* TSC_ARGS */
	size_t nargs;
	bool empty;    /* TSC_EMPTY: a report even when no traced function was found */
	char *run_dir; /* TSC_RUN_DIR: `tsctrace run`'s directory (absolute), or NULL */
};

/* Receives one diagnostic line (no prefix, no newline). */
typedef void (*tt_config_diag_fn)(void *ctx, const char *line);

/*
 * Fill cfg from envp (NULL-terminated "NAME=value" strings; other variables are ignored).
 * Every problem is passed to diag once. Returns 0, or -ENOMEM (cfg then holds the defaults and
 * no function). cfg owns its memory: release it with tt_config_free().
 */
int tt_config_parse(char *const envp[], struct tt_config *cfg, tt_config_diag_fn diag, void *ctx);

/* Release what tt_config_parse allocated; cfg is left at the defaults with no function. */
void tt_config_free(struct tt_config *cfg);

#endif /* TT_CONFIG_H */
