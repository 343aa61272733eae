/*
 * config.c - the TSC_* environment variables (libtsctrace(7), ENVIRONMENT) -> struct tt_config.
 *
 * Pure: reads only the envp array it is given and no global, prints nothing itself; each
 * problem is one line handed to the caller's callback, once per cause. Runs once at start-up,
 * before anything is traced, so malloc is fine here.
 *
 * Strict on purpose: values are matched exactly as the contract spells them (lower case, no
 * blanks); anything else gets one line naming the variable, the value and the default used,
 * and the default applies. When envp holds a name twice the first wins, as with getenv().
 * User strings quoted in a message are cut to 64 bytes with control bytes shown as '?', so one
 * cause stays one short line whatever the environment holds.
 *
 * This file owns the variable table, the fixed-word values, defaults and fallbacks, and the
 * suggestions for unknown names. TSC_FUNCS entries are parsed in config_funcs.c, numbers, CPU
 * lists and signal names in config_value.c, and lines are worded in config_diag.c.
 */
#include "config/config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/edit_distance.h"
#include "config/config_diag.h"
#include "config/config_funcs.h"
#include "config/config_value.h"

#define MAX_SUGGEST 2 /* edits up to which an unknown name gets a suggestion (1 if short) */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

enum var {
	V_FUNCS,
	V_OUTPUT,
	V_FORMAT,
	V_SERIALIZE,
	V_CLOCK,
	V_PIN,
	V_OVERHEAD,
	V_HOOK,
	V_CALLERS,
	V_CALLERS_UNWIND,
	V_DUMP_SIGNAL,
	V_QUIET,
	V_CPU,
	V_FOLLOW,
	V_SAMPLE,
	V_BUDGET,
	V_EXPORT,
	V_EXPORT_INTERVAL,
	V_DEBUG,
	V_CACHE,
	V_SLOWEST,
	V_SLOWER_THAN,
	V_ARGS,
	V_EMPTY,
	V_RUN_DIR,
	V_COUNT
};

static const char *const var_names[V_COUNT] = {
	[V_FUNCS] = "TSC_FUNCS",
	[V_OUTPUT] = "TSC_OUTPUT",
	[V_FORMAT] = "TSC_FORMAT",
	[V_SERIALIZE] = "TSC_SERIALIZE",
	[V_CLOCK] = "TSC_CLOCK",
	[V_PIN] = "TSC_PIN",
	[V_OVERHEAD] = "TSC_OVERHEAD",
	[V_HOOK] = "TSC_HOOK",
	[V_CALLERS] = "TSC_CALLERS",
	[V_CALLERS_UNWIND] = "TSC_CALLERS_UNWIND",
	[V_DUMP_SIGNAL] = "TSC_DUMP_SIGNAL",
	[V_QUIET] = "TSC_QUIET",
	[V_CPU] = "TSC_CPU",
	[V_FOLLOW] = "TSC_FOLLOW",
	[V_EXPORT] = "TSC_EXPORT",
	[V_EXPORT_INTERVAL] = "TSC_EXPORT_INTERVAL",
	[V_SAMPLE] = "TSC_SAMPLE",
	[V_BUDGET] = "TSC_BUDGET",
	[V_DEBUG] = "TSC_DEBUG",
	[V_CACHE] = "TSC_CACHE",
	[V_SLOWEST] = "TSC_SLOWEST",
	[V_SLOWER_THAN] = "TSC_SLOWER_THAN",
	[V_ARGS] = "TSC_ARGS",
	[V_EMPTY] = "TSC_EMPTY",
	[V_RUN_DIR] = "TSC_RUN_DIR",
};

/* Indexed by the enum values of config.h. */
static const char *const format_names[] = { "text", "json" };
static const char *const serialize_names[TT_SER_COUNT] = { "rdtscp", "lfence", "mfence", "cpuid",
							   "none" };
static const char *const clock_names[] = { "auto", "tsc", "monotonic" };
static const char *const pin_names[] = { "exclusive", "first", "spread", "none" };
static const char *const hook_names[] = { "auto", "inline", "got" };
static const char *const quiet_names[] = { "0", "1" };
static const char *const follow_names[] = { "0", "1" };
static const char *const debug_names[] = { "0", "startup", "c-exit" };
static const char *const cache_names[] = { "0", "1" };
static const char *const unwind_names[] = { "cached", "libunwind" };
static const char *const empty_names[] = { "0", "1" };

struct parser {
	struct tt_config *cfg;
	struct tt_config_diag diag;
};

static void set_defaults(struct tt_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->funcs = NULL;
	cfg->output = NULL;
	cfg->format = TT_FMT_TEXT;
	cfg->serialize = TT_SER_RDTSCP;
	cfg->clock = TT_CLK_AUTO;
	cfg->pin = TT_PIN_EXCLUSIVE;
	cfg->overhead_auto = true;
	cfg->hook = TT_HOOK_AUTO;
	cfg->follow = true;
	cfg->cache = true;
	cfg->export_ms = TT_CONFIG_EXPORT_MS;
	cfg->slowest = TT_CONFIG_SLOWEST;
}

/* One line for a value not understood; fallback says what is used instead ("using text"). */
static void bad_value(const struct parser *p, enum var v, const char *val, const char *why,
		      const char *fallback)
{
	const struct tt_config_diag *d = &p->diag;
	char sv[TT_SHOW_SIZE];

	if (!*val)
		tt_config_diag_say(d, "%s is empty, %s", var_names[v], fallback);
	else if (why)
		tt_config_diag_say(d, "%s=%s not understood (%s), %s", var_names[v],
				   tt_config_diag_show(sv, val, strlen(val)), why, fallback);
	else
		tt_config_diag_say(d, "%s=%s not understood, %s", var_names[v],
				   tt_config_diag_show(sv, val, strlen(val)), fallback);
}

/* The index of val in names[0..n), or -1 with one line. */
static int choose(const struct parser *p, enum var v, const char *val, const char *const names[],
		  size_t n, const char *fallback)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(val, names[i]))
			return (int)i;
	bad_value(p, v, val, NULL, fallback);
	return -1;
}

/* Why a number was refused: "negative" for "-5", else NULL (plain junk). */
static const char *number_why(const char *val)
{
	return val[0] == '-' && val[1] >= '0' && val[1] <= '9' ? "negative" : NULL;
}

static void set_overhead(const struct parser *p, const char *val)
{
	uint64_t ticks;
	int err;

	if (!strcmp(val, "auto"))
		return; /* the default */
	err = tt_config_value_u64(val, &ticks);
	if (err) {
		bad_value(p, V_OVERHEAD, val, err == -ERANGE ? "too large" : number_why(val),
			  "using auto");
		return;
	}
	p->cfg->overhead_auto = false;
	p->cfg->overhead_ticks = ticks;
}

static void set_callers(const struct parser *p, const char *val)
{
	uint64_t n;
	int err = tt_config_value_u64(val, &n);

	if (err == -EINVAL) {
		bad_value(p, V_CALLERS, val, number_why(val), "using 0");
		return;
	}
	if (err || n > TT_CONFIG_MAX_CALLERS) {
		bad_value(p, V_CALLERS, val, "out of range 0-32", "using 0");
		return;
	}
	p->cfg->callers = (unsigned int)n;
}

/* TSC_SLOWEST=N: the N slowest timed calls of each function kept (0: none). */
static void set_slowest(const struct parser *p, const char *val)
{
	uint64_t n;
	int err = tt_config_value_u64(val, &n);

	if (err == -EINVAL) {
		bad_value(p, V_SLOWEST, val, number_why(val), "using 8");
		return;
	}
	if (err || n > TT_CONFIG_MAX_SLOWEST) {
		bad_value(p, V_SLOWEST, val, "out of range 0-64", "using 8");
		return;
	}
	p->cfg->slowest = (uint32_t)n;
}

/* TSC_SLOWER_THAN=CYCLES or Nus: every timed call above it kept (as room allows). */
static void set_slower_than(const struct parser *p, const char *val)
{
	char num[32];
	size_t len = strlen(val);
	bool us = len > 2 && !strcmp(val + len - 2, "us");
	uint64_t n;
	int err;

	if (us)
		len -= 2;
	if (len >= sizeof(num)) {
		bad_value(p, V_SLOWER_THAN, val, "too large", "keeping no calls by threshold");
		return;
	}
	memcpy(num, val, len);
	num[len] = 0;
	err = tt_config_value_u64(num, &n);
	if (err || n == 0) {
		bad_value(p, V_SLOWER_THAN, val,
			  err == -ERANGE   ? "too large"
			  : n == 0 && !err ? "must be above 0"
					   : number_why(val),
			  "keeping no calls by threshold");
		return;
	}
	if (us && n > UINT64_MAX / 1000000000u) {
		bad_value(p, V_SLOWER_THAN, val, "too large", "keeping no calls by threshold");
		return;
	}
	p->cfg->slower_than = n;
	p->cfg->slower_than_us = us;
}

/* One TSC_ARGS entry, s[0..len): "func:K", "func:K>=N" or "func:K==N". 0, -1 bad, -ENOMEM. */
static int add_arg(const struct parser *p, const char *s, size_t len)
{
	struct tt_config *cfg = p->cfg;
	struct tt_arg_spec *v, *a;
	const char *colon = NULL, *c, *end = s + len;
	char num[32];
	size_t i;

	for (c = s; c < end; c++)
		if (*c == ':')
			colon = c;
	if (!colon || colon == s || colon + 1 >= end || colon[1] < '1' || colon[1] > '6')
		return -1;
	for (i = 0; i < cfg->nargs; i++)
		if (strlen(cfg->args[i].name) == (size_t)(colon - s) &&
		    !memcmp(cfg->args[i].name, s, (size_t)(colon - s)))
			return -1; /* one argument a function */
	v = realloc(cfg->args, (cfg->nargs + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	cfg->args = v;
	a = &v[cfg->nargs];
	memset(a, 0, sizeof(*a));
	a->k = (uint32_t)(colon[1] - '0');
	c = colon + 2;
	if (c < end) {
		if (end - c < 3 || (memcmp(c, ">=", 2) != 0 && memcmp(c, "==", 2) != 0) ||
		    (size_t)(end - c - 2) >= sizeof(num))
			return -1;
		a->op = c[0] == '>' ? 1 : 2;
		memcpy(num, c + 2, (size_t)(end - c - 2));
		num[end - c - 2] = 0;
		if (tt_config_value_u64(num, &a->n))
			return -1;
	}
	a->name = strndup(s, (size_t)(colon - s));
	if (!a->name)
		return -ENOMEM;
	cfg->nargs++;
	return 0;
}

/* TSC_ARGS=func:K[,func:K>=N,...]: latency by an argument's value. */
static int set_args(const struct parser *p, const char *val)
{
	const char *s = val, *comma;
	char sv[TT_SHOW_SIZE];
	int err;

	for (; *s; s = comma + 1) {
		size_t len;

		comma = strchr(s, ',');
		if (!comma)
			comma = s + strlen(s);
		len = (size_t)(comma - s);
		err = len ? add_arg(p, s, len) : 0;
		if (err == -ENOMEM)
			return err;
		if (err)
			tt_config_diag_say(&p->diag,
					   "TSC_ARGS entry %s not understood (func:K, func:K>=N or "
					   "func:K==N, K 1-6, each function once), skipped",
					   tt_config_diag_show(sv, s, len));
		if (!*comma)
			break;
	}
	return 0;
}

/* TSC_SAMPLE=N: about one call in N timed, every call counted (1: every call timed). */
static void set_sample(const struct parser *p, const char *val)
{
	uint64_t n;
	int err = tt_config_value_u64(val, &n);

	if (err == -EINVAL) {
		bad_value(p, V_SAMPLE, val, number_why(val), "timing every call");
		return;
	}
	if (err || n < 1 || n > TT_CONFIG_MAX_SAMPLE) {
		bad_value(p, V_SAMPLE, val, "out of range 1-4294967296", "timing every call");
		return;
	}
	p->cfg->sample = n > 1 ? n : 0;
}

/* TSC_BUDGET=2% (or 2, or 0.5%): the share of the run timing may add, in ppm. */
static void set_budget(const struct parser *p, const char *val)
{
	uint64_t ppm = 0, scale = 10000;
	const char *c = val;
	bool digits = false;

	for (; *c >= '0' && *c <= '9'; c++, digits = true)
		if (ppm <= 100) /* past 100 it is out of range anyway: no overflow */
			ppm = ppm * 10 + (uint64_t)(*c - '0');
	ppm *= 10000;
	if (*c == '.')
		for (c++; *c >= '0' && *c <= '9'; c++, digits = true)
			if ((scale /= 10) > 0)
				ppm += (uint64_t)(*c - '0') * scale;
	if (*c == '%')
		c++;
	if (!digits || *c) {
		bad_value(p, V_BUDGET, val, number_why(val), "no budget");
		return;
	}
	if (ppm == 0 || ppm > 1000000) {
		bad_value(p, V_BUDGET, val, "out of range 0.0001%-100%", "no budget");
		return;
	}
	p->cfg->budget_ppm = (uint32_t)ppm;
}

static void set_pin(const struct parser *p, const char *val)
{
	uint64_t cpus[TT_CONFIG_MAX_CPUS / 64];
	size_t i;
	int err;

	for (i = 0; i < ARRAY_SIZE(pin_names); i++) {
		if (!strcmp(val, pin_names[i])) {
			p->cfg->pin = (enum tt_pin_mode)i;
			return;
		}
	}
	err = tt_config_value_cpus(val, cpus);
	if (err) {
		bad_value(p, V_PIN, val,
			  err == -ERANGE ? "CPU above 1023"
			  : err == -EDOM ? "reversed range"
					 : NULL,
			  "using exclusive");
		return;
	}
	p->cfg->pin = TT_PIN_LIST;
	memcpy(p->cfg->pin_cpus, cpus, sizeof(cpus));
}

static void set_dump_signal(const struct parser *p, const char *val)
{
	char sv[TT_SHOW_SIZE];
	const char *why;
	int sig;

	if (tt_config_value_signal(val, &sig, &why)) {
		bad_value(p, V_DUMP_SIGNAL, val, why, "no dump signal");
		return;
	}
	why = tt_config_value_refusal(sig);
	if (why) {
		tt_config_diag_say(&p->diag, "TSC_DUMP_SIGNAL=%s refused (%s), no dump signal",
				   tt_config_diag_show(sv, val, strlen(val)), why);
		return;
	}
	p->cfg->dump_signal = sig;
}

static void set_export_interval(const struct parser *p, const char *val)
{
	uint64_t ms;
	int err = tt_config_value_ms(val, &ms);

	if (err == -EINVAL) {
		bad_value(p, V_EXPORT_INTERVAL, val, "a number of s or ms, as 10s or 500ms",
			  "using 10s");
		return;
	}
	if (err || ms < TT_CONFIG_EXPORT_MIN_MS || ms > TT_CONFIG_EXPORT_MAX_MS) {
		bad_value(p, V_EXPORT_INTERVAL, val, "out of range 100ms-3600s", "using 10s");
		return;
	}
	p->cfg->export_ms = ms;
}

/* A copy of a path template into *out; empty: one line saying what is used instead.
 * malloc, not strdup: the tests count and fail allocations through malloc. */
static int set_path(const struct parser *p, enum var v, const char *val, char **out,
		    const char *fallback)
{
	size_t len = strlen(val);

	if (!len) {
		tt_config_diag_say(&p->diag, "%s is empty, %s", var_names[v], fallback);
		return 0;
	}
	*out = malloc(len + 1);
	if (!*out)
		return -ENOMEM;
	memcpy(*out, val, len + 1);
	return 0;
}

/* TSC_RUN_DIR (set by `tsctrace run`): an absolute directory, so that a program's chdir
 * cannot move its reports; anything else is refused and TSC_OUTPUT applies. */
static int set_run_dir(const struct parser *p, const char *val)
{
	if (val[0] != '/') {
		bad_value(p, V_RUN_DIR, val, "not an absolute directory", "using TSC_OUTPUT");
		return 0;
	}
	return set_path(p, V_RUN_DIR, val, &p->cfg->run_dir, "using TSC_OUTPUT");
}

static int set_var(struct parser *p, enum var v, const char *val)
{
	struct tt_config *cfg = p->cfg;
	const char *why;
	int i;

	switch (v) {
	case V_FUNCS: return tt_config_funcs_parse(val, cfg, &p->diag);
	case V_OUTPUT: return set_path(p, v, val, &cfg->output, "using the default");
	case V_EXPORT: return set_path(p, v, val, &cfg->export_path, "no live export");
	case V_EXPORT_INTERVAL: set_export_interval(p, val); break;
	case V_FORMAT:
		i = choose(p, v, val, format_names, ARRAY_SIZE(format_names), "using text");
		if (i >= 0)
			cfg->format = (enum tt_format)i;
		break;
	case V_SERIALIZE:
		i = choose(p, v, val, serialize_names, TT_SER_COUNT, "using rdtscp");
		if (i >= 0) {
			cfg->serialize = (enum tt_serialize)i;
			cfg->serialize_set = true;
		}
		break;
	case V_CLOCK:
		i = choose(p, v, val, clock_names, ARRAY_SIZE(clock_names), "using auto");
		if (i >= 0)
			cfg->clock = (enum tt_clock_choice)i;
		break;
	case V_PIN: set_pin(p, val); break;
	case V_OVERHEAD: set_overhead(p, val); break;
	case V_HOOK:
		i = choose(p, v, val, hook_names, ARRAY_SIZE(hook_names), "using auto");
		if (i >= 0)
			cfg->hook = (enum tt_hook_mode)i;
		break;
	case V_CALLERS: set_callers(p, val); break;
	case V_CALLERS_UNWIND:
		i = choose(p, v, val, unwind_names, ARRAY_SIZE(unwind_names), "using cached");
		cfg->callers_libunwind = i == 1;
		break;
	case V_DUMP_SIGNAL: set_dump_signal(p, val); break;
	case V_QUIET:
		i = choose(p, v, val, quiet_names, ARRAY_SIZE(quiet_names), "using 0");
		cfg->quiet = i == 1;
		break;
	case V_CPU:
		if (tt_cpu_persona_parse(val, &cfg->cpu, &why) < 0)
			bad_value(p, v, val, why, "using the CPU as it is");
		break;
	case V_FOLLOW:
		i = choose(p, v, val, follow_names, ARRAY_SIZE(follow_names), "using 1");
		cfg->follow = i != 0;
		break;
	case V_SAMPLE: set_sample(p, val); break;
	case V_BUDGET: set_budget(p, val); break;
	case V_DEBUG:
		i = choose(p, v, val, debug_names, ARRAY_SIZE(debug_names), "using 0");
		cfg->debug_startup = i == 1;
		cfg->debug_c_exit = i == 2;
		break;
	case V_CACHE:
		i = choose(p, v, val, cache_names, ARRAY_SIZE(cache_names), "using 1");
		cfg->cache = i != 0;
		break;
	case V_SLOWEST: set_slowest(p, val); break;
	case V_SLOWER_THAN: set_slower_than(p, val); break;
	case V_ARGS: return set_args(p, val);
	case V_EMPTY:
		i = choose(p, v, val, empty_names, ARRAY_SIZE(empty_names), "using 0");
		cfg->empty = i == 1;
		break;
	case V_RUN_DIR: return set_run_dir(p, val);
	case V_COUNT: break;
	}
	return 0;
}

static char upper(char c)
{
	return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

/* The known name closest to name[0..len): within MAX_SUGGEST edits (1 for the short names), or
 * else one it begins (TSC_OUT for TSC_OUTPUT, with at least 3 characters after TSC_). NULL when
 * none. */
static const char *suggest(const char *name, size_t len)
{
	size_t best_d = MAX_SUGGEST + 1, d, i;
	const char *best = NULL;
	int v;

	for (v = 0; v < V_COUNT; v++) {
		/* one edit in a 4-letter name is already a different word: TSC_FOOD is not HOOK */
		size_t limit = strlen(var_names[v]) <= 8 ? 1 : MAX_SUGGEST;

		d = tt_edit_distance(name, len, var_names[v], strlen(var_names[v]), MAX_SUGGEST,
				     true);
		if (d <= limit && d < best_d) {
			best_d = d;
			best = var_names[v];
		}
	}
	for (v = 0; !best && len >= 7 && v < V_COUNT; v++) {
		if (strlen(var_names[v]) <= len)
			continue;
		for (i = 0; i < len && upper(name[i]) == var_names[v][i]; i++)
			;
		if (i == len)
			best = var_names[v];
	}
	return best;
}

static void unknown_var(const struct parser *p, const char *name, size_t len)
{
	const char *best = suggest(name, len);
	char sv[TT_SHOW_SIZE];
	const char *shown = tt_config_diag_show(sv, name, len);

	if (best)
		tt_config_diag_say(&p->diag, "unknown variable %s (did you mean %s?)", shown, best);
	else
		tt_config_diag_say(&p->diag, "unknown variable %s", shown);
}

static int lookup(const char *name, size_t len)
{
	int v;

	for (v = 0; v < V_COUNT; v++)
		if (strlen(var_names[v]) == len && !memcmp(var_names[v], name, len))
			return v;
	return -1;
}

/* True when envp[0..i) already holds a variable named name[0..len). */
static bool seen_before(char *const envp[], size_t i, const char *name, size_t len)
{
	size_t j;

	for (j = 0; j < i; j++)
		if (!strncmp(envp[j], name, len) && envp[j][len] == '=')
			return true;
	return false;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = s ? strlen(s) : 0, k = strlen(suffix);

	return n > k && !strcmp(s + n - k, suffix);
}

int tt_config_parse(char *const envp[], struct tt_config *cfg, tt_config_diag_fn diag, void *ctx)
{
	struct parser p = { .cfg = cfg, .diag = { .fn = diag, .ctx = ctx } };
	bool seen[V_COUNT] = { false };
	size_t i, len;
	int v, err;

	set_defaults(cfg);
	for (i = 0; envp && envp[i]; i++) {
		const char *eq = strchr(envp[i], '=');

		if (!eq || strncmp(envp[i], "TSC_", 4))
			continue;
		len = (size_t)(eq - envp[i]);
		v = lookup(envp[i], len);
		if (v < 0) {
			if (!seen_before(envp, i, envp[i], len))
				unknown_var(&p, envp[i], len);
			continue;
		}
		if (seen[v])
			continue; /* the first wins, as with getenv() */
		seen[v] = true;
		err = set_var(&p, (enum var)v, eq + 1);
		if (err) {
			tt_config_free(cfg);
			return err;
		}
	}
	if (!seen[V_FORMAT] && ends_with(cfg->output, ".json"))
		cfg->format = TT_FMT_JSON; /* the format follows the name, unless told otherwise */
	if (cfg->sample && cfg->budget_ppm) {
		tt_config_diag_say(&p.diag, "TSC_SAMPLE and TSC_BUDGET both set: using TSC_BUDGET");
		cfg->sample = 0;
	}
	return 0;
}

void tt_config_free(struct tt_config *cfg)
{
	size_t i;

	if (!cfg)
		return;
	for (i = 0; i < cfg->nfuncs; i++) {
		free(cfg->funcs[i].name);
		free(cfg->funcs[i].version);
		free(cfg->funcs[i].object);
	}
	free(cfg->funcs);
	for (i = 0; i < cfg->nargs; i++)
		free(cfg->args[i].name);
	free(cfg->args);
	free(cfg->output);
	free(cfg->export_path);
	free(cfg->run_dir);
	set_defaults(cfg);
}
