/*
 * config.c - the TSC_* environment variables (CONTRACT.md section 2) -> struct tt_config.
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
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_FUNCS	1024	/* TSC_FUNCS entries kept; more is surely a mistake */
#define SHOW_BYTES	64	/* bytes of a user string quoted in a message */
#define SHOW_SIZE	(SHOW_BYTES + 4)	/* plus "..." and the NUL */
#define MAX_SUGGEST	2	/* edits up to which an unknown name gets a suggestion (1 if short) */
#define NAME_MAX_LEN	24	/* longer than any known variable name */
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

enum var {
	V_FUNCS, V_OUTPUT, V_FORMAT, V_SERIALIZE, V_CLOCK, V_PIN, V_OVERHEAD, V_HOOK, V_CALLERS,
	V_DUMP_SIGNAL, V_QUIET, V_COUNT
};

static const char *const var_names[V_COUNT] = {
	[V_FUNCS] = "TSC_FUNCS",	[V_OUTPUT] = "TSC_OUTPUT",	[V_FORMAT] = "TSC_FORMAT",
	[V_SERIALIZE] = "TSC_SERIALIZE", [V_CLOCK] = "TSC_CLOCK",	[V_PIN] = "TSC_PIN",
	[V_OVERHEAD] = "TSC_OVERHEAD",	[V_HOOK] = "TSC_HOOK",		[V_CALLERS] = "TSC_CALLERS",
	[V_DUMP_SIGNAL] = "TSC_DUMP_SIGNAL", [V_QUIET] = "TSC_QUIET",
};

/* Indexed by the enum values of config.h. */
static const char *const format_names[] = { "text", "json" };
static const char *const serialize_names[TT_SER_COUNT] = { "rdtscp", "lfence", "mfence", "cpuid",
							   "none" };
static const char *const clock_names[] = { "auto", "tsc", "monotonic" };
static const char *const pin_names[] = { "first", "spread", "none" };
static const char *const hook_names[] = { "auto", "inline", "got" };
static const char *const quiet_names[] = { "0", "1" };

struct signame {
	const char *name;	/* without the SIG prefix */
	int num;
};

/* Names TSC_DUMP_SIGNAL understands; the fatal ones are known so that they can be refused. */
static const struct signame signames[] = {
	{ "USR1", SIGUSR1 },	{ "USR2", SIGUSR2 },	{ "HUP", SIGHUP },	{ "TERM", SIGTERM },
	{ "INT", SIGINT },	{ "QUIT", SIGQUIT },	{ "ALRM", SIGALRM },	{ "PROF", SIGPROF },
	{ "VTALRM", SIGVTALRM }, { "WINCH", SIGWINCH }, { "CHLD", SIGCHLD },	{ "CONT", SIGCONT },
	{ "TSTP", SIGTSTP },	{ "TTIN", SIGTTIN },	{ "TTOU", SIGTTOU },	{ "URG", SIGURG },
	{ "XCPU", SIGXCPU },	{ "XFSZ", SIGXFSZ },	{ "IO", SIGIO },	{ "PWR", SIGPWR },
	{ "SYS", SIGSYS },	{ "PIPE", SIGPIPE },	{ "KILL", SIGKILL },	{ "STOP", SIGSTOP },
	{ "SEGV", SIGSEGV },	{ "BUS", SIGBUS },	{ "ILL", SIGILL },	{ "FPE", SIGFPE },
	{ "ABRT", SIGABRT },	{ "TRAP", SIGTRAP },
};

/* A piece of an envp string; s == NULL when absent. */
struct span {
	const char *s;
	size_t len;
};

/* A TSC_FUNCS entry cut into its parts, still pointing into the variable's value. */
struct entry {
	struct span object, name, version;
	bool glob;
};

struct parser {
	struct tt_config *cfg;
	tt_config_diag_fn diag;
	void *ctx;
	size_t funcs_cap;	/* slots allocated in cfg->funcs */
};

static void set_defaults(struct tt_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->funcs = NULL;
	cfg->output = NULL;
	cfg->format = TT_FMT_TEXT;
	cfg->serialize = TT_SER_RDTSCP;
	cfg->clock = TT_CLK_AUTO;
	cfg->pin = TT_PIN_FIRST;
	cfg->overhead_auto = true;
	cfg->hook = TT_HOOK_AUTO;
}

static void say(const struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(const struct parser *p, const char *fmt, ...)
{
	char line[512];
	va_list ap;

	if (!p->diag)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	p->diag(p->ctx, line);
}

/* s[0..len) made fit for a message: at most SHOW_BYTES bytes, cut between UTF-8 characters and
 * marked "...", control bytes as '?'. Returns buf. */
static const char *show(char buf[SHOW_SIZE], const char *s, size_t len)
{
	size_t n = len, i;

	if (n > SHOW_BYTES) {
		n = SHOW_BYTES;
		while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		buf[i] = (c < 0x20 || c == 0x7f) ? '?' : (char)c;
	}
	if (n < len) {
		memcpy(buf + n, "...", 3);
		n += 3;
	}
	buf[n] = '\0';
	return buf;
}

/* One line for a value not understood; fallback says what is used instead ("using text"). */
static void bad_value(const struct parser *p, enum var v, const char *val, const char *why,
		      const char *fallback)
{
	char sv[SHOW_SIZE];

	if (!*val)
		say(p, "%s is empty, %s", var_names[v], fallback);
	else if (why)
		say(p, "%s=%s not understood (%s), %s", var_names[v], show(sv, val, strlen(val)),
		    why, fallback);
	else
		say(p, "%s=%s not understood, %s", var_names[v], show(sv, val, strlen(val)),
		    fallback);
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

/* Decimal digits only (no sign, no blank). 0, -EINVAL when not a number, -ERANGE when too big. */
static int parse_u64(const char *s, uint64_t *out)
{
	uint64_t v = 0;
	bool big = false;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		unsigned int d = (unsigned int)(*s - '0');

		if (*s < '0' || *s > '9')
			return -EINVAL;
		if (v > (UINT64_MAX - d) / 10)
			big = true;
		else
			v = v * 10 + d;
	}
	if (big)
		return -ERANGE;
	*out = v;
	return 0;
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
		return;		/* the default */
	err = parse_u64(val, &ticks);
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
	int err = parse_u64(val, &n);

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

/* One CPU number at *s, advancing *s; values above the limit are kept at the limit. */
static int read_cpu(const char **s, unsigned int *cpu)
{
	const char *c = *s;
	unsigned int v = 0;

	if (*c < '0' || *c > '9')
		return -EINVAL;
	for (; *c >= '0' && *c <= '9'; c++) {
		v = v * 10 + (unsigned int)(*c - '0');
		if (v > TT_CONFIG_MAX_CPUS)
			v = TT_CONFIG_MAX_CPUS;
	}
	*s = c;
	*cpu = v;
	return 0;
}

/* A list such as "0,2-3" into a bit set. 0, -EINVAL (junk), -ERANGE (CPU too big) or -EDOM
 * (reversed range). */
static int parse_cpu_list(const char *s, uint64_t cpus[TT_CONFIG_MAX_CPUS / 64])
{
	unsigned int lo, hi, c;

	memset(cpus, 0, TT_CONFIG_MAX_CPUS / 8);
	for (;;) {
		if (read_cpu(&s, &lo))
			return -EINVAL;
		hi = lo;
		if (*s == '-') {
			s++;
			if (read_cpu(&s, &hi))
				return -EINVAL;
		}
		if (lo >= TT_CONFIG_MAX_CPUS || hi >= TT_CONFIG_MAX_CPUS)
			return -ERANGE;
		if (hi < lo)
			return -EDOM;
		for (c = lo; c <= hi; c++)
			cpus[c / 64] |= UINT64_C(1) << (c % 64);
		if (!*s)
			return 0;
		if (*s++ != ',')
			return -EINVAL;
	}
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
	err = parse_cpu_list(val, cpus);
	if (err) {
		bad_value(p, V_PIN, val, err == -ERANGE ? "CPU above 1023" :
			  err == -EDOM ? "reversed range" : NULL, "using first");
		return;
	}
	p->cfg->pin = TT_PIN_LIST;
	memcpy(p->cfg->pin_cpus, cpus, sizeof(cpus));
}

/* s follows "RTMIN" or "RTMAX": nothing, or sign and a count from base. */
static int rt_signal(const char *s, char sign, int base, int *sig, const char **why)
{
	uint64_t n = 0;
	int err;

	if (*s) {
		if (*s != sign)
			return -EINVAL;
		err = parse_u64(s + 1, &n);
		if (err == -EINVAL)
			return err;
		if (err || n > (uint64_t)(SIGRTMAX - SIGRTMIN)) {
			*why = "beyond the real-time signals";
			return -ERANGE;
		}
	}
	*sig = sign == '+' ? base + (int)n : base - (int)n;
	return 0;
}

static int parse_signal(const char *val, int *sig, const char **why)
{
	const char *s = val;
	uint64_t n;
	size_t i;
	int err;

	*why = NULL;
	if (*s >= '0' && *s <= '9') {
		err = parse_u64(s, &n);
		if (err == -EINVAL)
			return err;
		if (err || n < 1 || n > 64) {
			*why = "out of range 1-64";
			return -ERANGE;
		}
		*sig = (int)n;
		return 0;
	}
	if (!strncmp(s, "SIG", 3))
		s += 3;
	for (i = 0; i < ARRAY_SIZE(signames); i++) {
		if (!strcmp(s, signames[i].name)) {
			*sig = signames[i].num;
			return 0;
		}
	}
	if (!strncmp(s, "RTMIN", 5))
		return rt_signal(s + 5, '+', SIGRTMIN, sig, why);
	if (!strncmp(s, "RTMAX", 5))
		return rt_signal(s + 5, '-', SIGRTMAX, sig, why);
	return -EINVAL;
}

/* Why a signal cannot carry the dump, or NULL when it can. */
static const char *signal_refusal(int sig)
{
	switch (sig) {
	case SIGKILL:
	case SIGSTOP:
		return "cannot be caught";
	case SIGSEGV:
	case SIGBUS:
	case SIGILL:
	case SIGFPE:
	case SIGABRT:
	case SIGTRAP:
		return "reports a crash";
	}
	/* glibc keeps 32 .. SIGRTMIN - 1 for its threads; sigaction refuses them */
	if (sig > 31 && sig < SIGRTMIN)
		return "reserved by the C library";
	return NULL;
}

static void set_dump_signal(const struct parser *p, const char *val)
{
	char sv[SHOW_SIZE];
	const char *why;
	int sig;

	if (parse_signal(val, &sig, &why)) {
		bad_value(p, V_DUMP_SIGNAL, val, why, "no dump signal");
		return;
	}
	why = signal_refusal(sig);
	if (why) {
		say(p, "TSC_DUMP_SIGNAL=%s refused (%s), no dump signal",
		    show(sv, val, strlen(val)), why);
		return;
	}
	p->cfg->dump_signal = sig;
}

static bool is_symchar(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '.' || c == '$';
}

static const char *bad_char(char *why, size_t size, char c, const char *where)
{
	unsigned char u = (unsigned char)c;

	if (u > 0x20 && u < 0x7f)
		snprintf(why, size, "bad character '%c' in %s", c, where);
	else
		snprintf(why, size, "bad character 0x%02x in %s", u, where);
	return why;
}

/* Symbol characters, plus the glob characters * ? and [...] (optionally negated by ! or ^,
 * holding symbol characters and '-' ranges). Sets e->glob. NULL when fine, else the reason. */
static const char *check_name(struct entry *e, char *why, size_t size)
{
	const char *s = e->name.s;
	size_t n = e->name.len, i, j, first;

	for (i = 0; i < n; i++) {
		if (s[i] == '*' || s[i] == '?') {
			e->glob = true;
		} else if (s[i] == '[') {
			e->glob = true;
			j = i + 1;
			if (j < n && (s[j] == '!' || s[j] == '^'))
				j++;
			for (first = j; j < n && s[j] != ']'; j++)
				if (!is_symchar(s[j]) && s[j] != '-')
					return bad_char(why, size, s[j], "name");
			if (j == n)
				return "unclosed [ in name";
			if (j == first)
				return "empty [] in name";
			i = j;
		} else if (!is_symchar(s[i])) {
			return bad_char(why, size, s[i], "name");
		}
	}
	return NULL;
}

/* Cut s[0..len) into [object:]name[@version]; the object is what precedes the first ':' unless
 * an '@' comes first. NULL when well formed, else the reason. */
static const char *split_entry(const char *s, size_t len, struct entry *e, char *why, size_t size)
{
	const char *end = s + len, *colon = memchr(s, ':', len), *at = memchr(s, '@', len), *bad;
	size_t i;

	memset(e, 0, sizeof(*e));
	if (colon && (!at || colon < at)) {	/* in "f@V:x" the ':' belongs to the version */
		if (colon == s)
			return "empty object";
		e->object = (struct span){ s, (size_t)(colon - s) };
		s = colon + 1;
	}
	at = memchr(s, '@', (size_t)(end - s));
	e->name = (struct span){ s, (size_t)((at ? at : end) - s) };
	if (!e->name.len)
		return "empty name";
	if (at) {
		e->version = (struct span){ at + 1, (size_t)(end - at - 1) };
		if (!e->version.len)
			return "empty version";
	}
	bad = check_name(e, why, size);
	if (bad)
		return bad;
	for (i = 0; i < e->version.len; i++)
		if (!is_symchar(e->version.s[i]) && e->version.s[i] != '-')
			return bad_char(why, size, e->version.s[i], "version");
	return NULL;
}

static bool span_eq(const char *str, struct span sp)
{
	if (!str || !sp.s)
		return !str && !sp.s;
	return strlen(str) == sp.len && !memcmp(str, sp.s, sp.len);
}

static char *span_dup(struct span sp)
{
	char *s = malloc(sp.len + 1);

	if (s) {
		memcpy(s, sp.s, sp.len);
		s[sp.len] = '\0';
	}
	return s;
}

static int set_output(const struct parser *p, const char *val)
{
	if (!*val) {
		say(p, "TSC_OUTPUT is empty, using the default");
		return 0;
	}
	p->cfg->output = span_dup((struct span){ val, strlen(val) });
	return p->cfg->output ? 0 : -ENOMEM;
}

static int append(struct parser *p, const struct entry *e)
{
	struct tt_config *cfg = p->cfg;
	struct tt_func_spec *f;

	if (cfg->nfuncs == p->funcs_cap) {
		size_t cap = p->funcs_cap ? p->funcs_cap * 2 : 16;

		f = realloc(cfg->funcs, cap * sizeof(*f));
		if (!f)
			return -ENOMEM;
		cfg->funcs = f;
		p->funcs_cap = cap;
	}
	f = &cfg->funcs[cfg->nfuncs];
	f->name = span_dup(e->name);
	f->version = e->version.s ? span_dup(e->version) : NULL;
	f->object = e->object.s ? span_dup(e->object) : NULL;
	f->glob = e->glob;
	if (!f->name || (e->version.s && !f->version) || (e->object.s && !f->object))
		goto out_free;
	cfg->nfuncs++;
	return 0;

out_free:
	free(f->name);
	free(f->version);
	free(f->object);
	return -ENOMEM;
}

/* One TSC_FUNCS entry s[0..len): 0 when kept, merged or reported, 1 when the cap ends the list,
 * or -ENOMEM. */
static int add_entry(struct parser *p, const char *s, size_t len)
{
	const struct tt_config *cfg = p->cfg;
	char why[48] = "", sv[SHOW_SIZE];
	const char *bad;
	struct entry e;
	size_t i;

	bad = split_entry(s, len, &e, why, sizeof(why));
	if (bad) {
		say(p, "TSC_FUNCS entry \"%s\" malformed (%s), skipped", show(sv, s, len), bad);
		return 0;
	}
	for (i = 0; i < cfg->nfuncs; i++) {
		const struct tt_func_spec *f = &cfg->funcs[i];

		if (span_eq(f->name, e.name) && span_eq(f->version, e.version) &&
		    span_eq(f->object, e.object))
			return 0;
	}
	if (cfg->nfuncs == MAX_FUNCS) {
		say(p, "TSC_FUNCS has more than %d entries, the rest are skipped", MAX_FUNCS);
		return 1;
	}
	return append(p, &e);
}

static bool is_sep(char c)
{
	return c == ',' || c == ' ' || (c >= '\t' && c <= '\r');	/* \t \n \v \f \r */
}

static int set_funcs(struct parser *p, const char *s)
{
	const char *e;
	int err;

	for (;;) {
		while (is_sep(*s))
			s++;
		if (!*s)
			return 0;
		for (e = s; *e && !is_sep(*e); e++)
			;
		err = add_entry(p, s, (size_t)(e - s));
		if (err)
			return err < 0 ? err : 0;
		s = e;
	}
}

static int set_var(struct parser *p, enum var v, const char *val)
{
	struct tt_config *cfg = p->cfg;
	int i;

	switch (v) {
	case V_FUNCS:
		return set_funcs(p, val);
	case V_OUTPUT:
		return set_output(p, val);
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
	case V_PIN:
		set_pin(p, val);
		break;
	case V_OVERHEAD:
		set_overhead(p, val);
		break;
	case V_HOOK:
		i = choose(p, v, val, hook_names, ARRAY_SIZE(hook_names), "using auto");
		if (i >= 0)
			cfg->hook = (enum tt_hook_mode)i;
		break;
	case V_CALLERS:
		set_callers(p, val);
		break;
	case V_DUMP_SIGNAL:
		set_dump_signal(p, val);
		break;
	case V_QUIET:
		i = choose(p, v, val, quiet_names, ARRAY_SIZE(quiet_names), "using 0");
		cfg->quiet = i == 1;
		break;
	case V_COUNT:
		break;
	}
	return 0;
}

static char upper(char c)
{
	return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

/* Optimal-string-alignment distance (edits and swaps of neighbours) between a[0..la), folded to
 * upper case, and b; anything above MAX_SUGGEST is reported as MAX_SUGGEST + 1. */
static size_t distance(const char *a, size_t la, const char *b)
{
	size_t lb = strlen(b), d[3][NAME_MAX_LEN + 1], i, j, v;

	if (la > lb + MAX_SUGGEST || lb > la + MAX_SUGGEST || lb > NAME_MAX_LEN)
		return MAX_SUGGEST + 1;
	for (j = 0; j <= lb; j++)
		d[0][j] = j;
	for (i = 1; i <= la; i++) {
		size_t *cur = d[i % 3], *prev = d[(i + 2) % 3], *prev2 = d[(i + 1) % 3];

		cur[0] = i;
		for (j = 1; j <= lb; j++) {
			v = prev[j - 1] + (upper(a[i - 1]) != b[j - 1]);
			if (prev[j] + 1 < v)
				v = prev[j] + 1;
			if (cur[j - 1] + 1 < v)
				v = cur[j - 1] + 1;
			if (i > 1 && j > 1 && upper(a[i - 1]) == b[j - 2] &&
			    upper(a[i - 2]) == b[j - 1] && prev2[j - 2] + 1 < v)
				v = prev2[j - 2] + 1;
			cur[j] = v;
		}
	}
	return d[la % 3][lb] > MAX_SUGGEST ? MAX_SUGGEST + 1 : d[la % 3][lb];
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

		d = distance(name, len, var_names[v]);
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
	char sv[SHOW_SIZE];

	if (best)
		say(p, "unknown variable %s (did you mean %s?)", show(sv, name, len), best);
	else
		say(p, "unknown variable %s", show(sv, name, len));
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

int tt_config_parse(char *const envp[], struct tt_config *cfg, tt_config_diag_fn diag, void *ctx)
{
	struct parser p = { .cfg = cfg, .diag = diag, .ctx = ctx };
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
			continue;	/* the first wins, as with getenv() */
		seen[v] = true;
		err = set_var(&p, (enum var)v, eq + 1);
		if (err) {
			tt_config_free(cfg);
			return err;
		}
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
	free(cfg->output);
	set_defaults(cfg);
}

const char *tt_config_serialize_name(enum tt_serialize s)
{
	return (unsigned int)s < TT_SER_COUNT ? serialize_names[s] : "unknown";
}

bool tt_config_pin_has(const struct tt_config *cfg, unsigned int cpu)
{
	return cfg->pin == TT_PIN_LIST && cpu < TT_CONFIG_MAX_CPUS &&
	       ((cfg->pin_cpus[cpu / 64] >> (cpu % 64)) & 1);
}
