/*
 * test_config.c - TSC_* parsing (src/config/config.c): every value form of libtsctrace(7), ENVIRONMENT, every
 * malformed case, checked on the resulting struct and on the exact diagnostic lines.
 *
 * Outside ASan builds, malloc/realloc/free are replaced in this executable (hidden, so only this
 * file and config.c use them) to fail the Nth allocation and count live blocks: every failure
 * must give -ENOMEM, the defaults and no leak.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "config/config.h"

#define MAX_LINES 64
#define ENV(...) ((char *const[]){ __VA_ARGS__, NULL })

struct diags {
	int n;
	char line[MAX_LINES][512];
};

/* TT_PIN_LIST's CPUs, as pin.c reads them. */
static bool pin_has(const struct tt_config *cfg, unsigned int cpu)
{
	return cfg->pin == TT_PIN_LIST && cpu < TT_CONFIG_MAX_CPUS &&
	       ((cfg->pin_cpus[cpu / 64] >> (cpu % 64)) & 1);
}

/* Lines collected by the callback; static storage so that collecting allocates nothing. */
static struct diags D;

static void collect(void *ctx, const char *line)
{
	struct diags *d = ctx;

	assert_true(d->n < MAX_LINES);
	assert_true(strlen(line) < sizeof(d->line[0]));
	strcpy(d->line[d->n++], line);
}

static int parse(struct tt_config *cfg, char *const envp[])
{
	memset(&D, 0, sizeof(D));
	return tt_config_parse(envp, cfg, collect, &D);
}

/* Expect exactly the lines given, in order, NULL-terminated. */
static void expect_lines(const char *const *want)
{
	int n = 0;

	while (want[n]) {
		assert_true(n < D.n);
		assert_string_equal(D.line[n], want[n]);
		n++;
	}
	if (D.n != n)
		fail_msg("%d lines, expected %d; extra: \"%s\"", D.n, n, D.line[n]);
}

#define EXPECT_LINES(...) expect_lines((const char *const[]){ __VA_ARGS__, NULL })

static void expect_no_lines(void)
{
	if (D.n)
		fail_msg("unexpected line \"%s\"", D.line[0]);
}

static void assert_defaults(const struct tt_config *cfg)
{
	unsigned int i;

	assert_null(cfg->funcs);
	assert_int_equal(cfg->nfuncs, 0);
	assert_null(cfg->output);
	assert_int_equal(cfg->format, TT_FMT_TEXT);
	assert_int_equal(cfg->serialize, TT_SER_RDTSCP);
	assert_false(cfg->serialize_set);
	assert_int_equal(cfg->clock, TT_CLK_AUTO);
	assert_int_equal(cfg->pin, TT_PIN_EXCLUSIVE);
	for (i = 0; i < TT_CONFIG_MAX_CPUS / 64; i++)
		assert_int_equal(cfg->pin_cpus[i], 0);
	assert_true(cfg->overhead_auto);
	assert_int_equal(cfg->overhead_ticks, 0);
	assert_int_equal(cfg->hook, TT_HOOK_AUTO);
	assert_int_equal(cfg->callers, 0);
	assert_int_equal(cfg->slowest, 8);
	assert_int_equal(cfg->slower_than, 0);
	assert_int_equal(cfg->nargs, 0);
	assert_int_equal(cfg->dump_signal, 0);
	assert_false(cfg->quiet);
	assert_true(cfg->follow);
	assert_int_equal(cfg->sample, 0);
	assert_int_equal(cfg->budget_ppm, 0);
	assert_null(cfg->export_path);
	assert_int_equal(cfg->export_ms, TT_CONFIG_EXPORT_MS);
}

/* One variable that must be refused with exactly `line`, leaving every default. */
static void check_bad(const char *assignment, const char *line)
{
	struct tt_config cfg;

	assert_int_equal(parse(&cfg, ENV((char *)assignment)), 0);
	if (D.n != 1 || strcmp(D.line[0], line))
		fail_msg("%s: got %d lines, first \"%s\", expected \"%s\"", assignment, D.n,
			 D.n ? D.line[0] : "", line);
	assert_defaults(&cfg);
	tt_config_free(&cfg);
}

/* One variable that must be accepted silently; cfg is left for the caller to check. */
static void parse_good(struct tt_config *cfg, const char *assignment)
{
	assert_int_equal(parse(cfg, ENV((char *)assignment)), 0);
	if (D.n)
		fail_msg("%s: unexpected line \"%s\"", assignment, D.line[0]);
}

static void assert_func(const struct tt_func_spec *f, const char *name, const char *version,
			const char *object, bool glob)
{
	assert_string_equal(f->name, name);
	if (version)
		assert_string_equal(f->version, version);
	else
		assert_null(f->version);
	if (object)
		assert_string_equal(f->object, object);
	else
		assert_null(f->object);
	assert_int_equal(f->glob, glob);
}

/* ---- defaults and envp handling ------------------------------------------------------------ */

static void test_defaults_null_envp(void **state)
{
	struct tt_config cfg;

	(void)state;
	assert_int_equal(parse(&cfg, NULL), 0);
	expect_no_lines();
	assert_defaults(&cfg);
	tt_config_free(&cfg);
}

static void test_defaults_empty_envp(void **state)
{
	struct tt_config cfg;
	char *env[] = { NULL };

	(void)state;
	assert_int_equal(parse(&cfg, env), 0);
	expect_no_lines();
	assert_defaults(&cfg);
	tt_config_free(&cfg);
}

static void test_other_variables_ignored(void **state)
{
	struct tt_config cfg;

	(void)state;
	assert_int_equal(parse(&cfg, ENV("PATH=/bin", "tsc_funcs=strlen", "TSC_FUNCS", "XTSC_FOO=1",
					 "TSC", "TSC=1", "HOME=/", "LD_PRELOAD=x.so")),
			 0);
	expect_no_lines();
	assert_defaults(&cfg);
	tt_config_free(&cfg);
}

static void test_null_diag_callback(void **state)
{
	struct tt_config cfg;

	(void)state;
	assert_int_equal(tt_config_parse(ENV("TSC_FORMAT=xml", "TSC_FOO=1", "TSC_FUNCS=a@,b"), &cfg,
					 NULL, NULL),
			 0);
	assert_int_equal(cfg.nfuncs, 1);
	assert_string_equal(cfg.funcs[0].name, "b");
	assert_int_equal(cfg.format, TT_FMT_TEXT);
	tt_config_free(&cfg);
}

static void test_all_valid_together(void **state)
{
	struct tt_config cfg;

	(void)state;
	assert_int_equal(parse(&cfg,
			       ENV("TSC_FUNCS=strlen libz.so.1:deflate", "TSC_OUTPUT=/tmp/r.%p",
				   "TSC_FORMAT=json", "TSC_SERIALIZE=lfence", "TSC_CLOCK=tsc",
				   "TSC_PIN=2-3", "TSC_OVERHEAD=40", "TSC_HOOK=got",
				   "TSC_CALLERS=4", "TSC_DUMP_SIGNAL=USR2", "TSC_QUIET=1")),
			 0);
	expect_no_lines();
	assert_int_equal(cfg.nfuncs, 2);
	assert_func(&cfg.funcs[0], "strlen", NULL, NULL, false);
	assert_func(&cfg.funcs[1], "deflate", NULL, "libz.so.1", false);
	assert_string_equal(cfg.output, "/tmp/r.%p");
	assert_int_equal(cfg.format, TT_FMT_JSON);
	assert_int_equal(cfg.serialize, TT_SER_LFENCE);
	assert_true(cfg.serialize_set);
	assert_int_equal(cfg.clock, TT_CLK_TSC);
	assert_int_equal(cfg.pin, TT_PIN_LIST);
	assert_false(pin_has(&cfg, 1));
	assert_true(pin_has(&cfg, 2));
	assert_true(pin_has(&cfg, 3));
	assert_false(cfg.overhead_auto);
	assert_int_equal(cfg.overhead_ticks, 40);
	assert_int_equal(cfg.hook, TT_HOOK_GOT);
	assert_int_equal(cfg.callers, 4);
	assert_int_equal(cfg.dump_signal, SIGUSR2);
	assert_true(cfg.quiet);
	tt_config_free(&cfg);
}

static void test_first_wins(void **state)
{
	struct tt_config cfg;

	(void)state;
	assert_int_equal(parse(&cfg, ENV("TSC_FORMAT=json", "TSC_FORMAT=text", "TSC_FUNCS=a",
					 "TSC_FUNCS=b", "TSC_OUTPUT=one", "TSC_OUTPUT=")),
			 0);
	expect_no_lines();
	assert_int_equal(cfg.format, TT_FMT_JSON);
	assert_int_equal(cfg.nfuncs, 1);
	assert_string_equal(cfg.funcs[0].name, "a");
	assert_string_equal(cfg.output, "one");
	tt_config_free(&cfg);

	/* a bad first value still wins over a good second one, as getenv() would see it */
	assert_int_equal(parse(&cfg, ENV("TSC_CLOCK=fast", "TSC_CLOCK=tsc")), 0);
	EXPECT_LINES("TSC_CLOCK=fast not understood, using auto");
	assert_int_equal(cfg.clock, TT_CLK_AUTO);
	tt_config_free(&cfg);
}

static void test_lines_in_envp_order(void **state)
{
	struct tt_config cfg;

	(void)state;
	assert_int_equal(parse(&cfg, ENV("TSC_QUIET=2", "TSC_FUNC=x", "TSC_FUNCS=a@ b",
					 "TSC_FORMAT=JSON")),
			 0);
	EXPECT_LINES("TSC_QUIET=2 not understood, using 0",
		     "unknown variable TSC_FUNC (did you mean TSC_FUNCS?)",
		     "TSC_FUNCS entry \"a@\" malformed (empty version), skipped",
		     "TSC_FORMAT=JSON not understood, using text");
	assert_int_equal(cfg.nfuncs, 1);
	tt_config_free(&cfg);
}

static void test_value_shown_safely(void **state)
{
	char big[200], line[300];

	(void)state;
	check_bad("TSC_FORMAT=a\nb\x7f", "TSC_FORMAT=a?b? not understood, using text");
	/* bytes that are not UTF-8, and C1 controls, are not echoed raw either; text is */
	check_bad("TSC_FORMAT=\xff\xfe\xc2\x9b[2J\xc3\xa9t\xe9",
		  "TSC_FORMAT=???[2J\xc3\xa9t? not understood, using text");
	memset(big, 'x', sizeof(big));
	memcpy(big, "TSC_HOOK=", 9);
	big[sizeof(big) - 1] = '\0';
	snprintf(line, sizeof(line), "TSC_HOOK=%.64s... not understood, using auto", big + 9);
	check_bad(big, line);
	/* a cut never splits a UTF-8 character: 63 x then a 2-byte character at bytes 63-64 */
	memset(big, 'x', sizeof(big));
	memcpy(big, "TSC_HOOK=", 9);
	memcpy(big + 9 + 63, "\xc3\xa9", 2);
	big[sizeof(big) - 1] = '\0';
	snprintf(line, sizeof(line), "TSC_HOOK=%.63s... not understood, using auto", big + 9);
	check_bad(big, line);
}

/* ---- TSC_FUNCS ------------------------------------------------------------------------------ */

static void test_funcs_plain(void **state)
{
	struct tt_config cfg;

	(void)state;
	parse_good(&cfg, "TSC_FUNCS=strlen,compress_block");
	assert_int_equal(cfg.nfuncs, 2);
	assert_func(&cfg.funcs[0], "strlen", NULL, NULL, false);
	assert_func(&cfg.funcs[1], "compress_block", NULL, NULL, false);
	tt_config_free(&cfg);
}

static void test_funcs_separators(void **state)
{
	struct tt_config cfg;

	(void)state;
	parse_good(&cfg, "TSC_FUNCS= ,strlen ,, memcpy\tfoo\n bar,\r\v\fbaz,, ");
	assert_int_equal(cfg.nfuncs, 5);
	assert_string_equal(cfg.funcs[0].name, "strlen");
	assert_string_equal(cfg.funcs[1].name, "memcpy");
	assert_string_equal(cfg.funcs[2].name, "foo");
	assert_string_equal(cfg.funcs[3].name, "bar");
	assert_string_equal(cfg.funcs[4].name, "baz");
	tt_config_free(&cfg);
}

static void test_funcs_forms(void **state)
{
	struct tt_config cfg;

	(void)state;
	parse_good(&cfg, "TSC_FUNCS=memcpy@GLIBC_2.14 libz.so.1:deflate "
			 "libc.so.6:memcpy@GLIBC_2.2.5 /usr/lib/libfoo-1.2+x.so:foo "
			 "_ZN3foo3barEv a.b$c x123 f@LIB-1.0");
	assert_int_equal(cfg.nfuncs, 8);
	assert_func(&cfg.funcs[0], "memcpy", "GLIBC_2.14", NULL, false);
	assert_func(&cfg.funcs[1], "deflate", NULL, "libz.so.1", false);
	assert_func(&cfg.funcs[2], "memcpy", "GLIBC_2.2.5", "libc.so.6", false);
	assert_func(&cfg.funcs[3], "foo", NULL, "/usr/lib/libfoo-1.2+x.so", false);
	assert_func(&cfg.funcs[4], "_ZN3foo3barEv", NULL, NULL, false);
	assert_func(&cfg.funcs[5], "a.b$c", NULL, NULL, false);
	assert_func(&cfg.funcs[6], "x123", NULL, NULL, false);
	assert_func(&cfg.funcs[7], "f", "LIB-1.0", NULL, false);
	tt_config_free(&cfg);
}

static void test_funcs_globs(void **state)
{
	struct tt_config cfg;

	(void)state;
	parse_good(&cfg, "TSC_FUNCS=str* mem?py [a-c]x [!a]b [^_]z libc.so.6:f*@V * ?");
	assert_int_equal(cfg.nfuncs, 8);
	assert_func(&cfg.funcs[0], "str*", NULL, NULL, true);
	assert_func(&cfg.funcs[1], "mem?py", NULL, NULL, true);
	assert_func(&cfg.funcs[2], "[a-c]x", NULL, NULL, true);
	assert_func(&cfg.funcs[3], "[!a]b", NULL, NULL, true);
	assert_func(&cfg.funcs[4], "[^_]z", NULL, NULL, true);
	assert_func(&cfg.funcs[5], "f*", "V", "libc.so.6", true);
	assert_func(&cfg.funcs[6], "*", NULL, NULL, true);
	assert_func(&cfg.funcs[7], "?", NULL, NULL, true);
	tt_config_free(&cfg);
}

/* C++ names: "::" is no object separator, the spaces and commas of a parameter or template
 * argument list do not end the entry, '*' in a parameter list is a pointer, not a glob. */
static void test_funcs_cxx(void **state)
{
	struct tt_config cfg;
	size_t i;

	(void)state;
	parse_good(&cfg, "TSC_FUNCS=ns::foo, ns::Klass::method ns::foo(std::string const&),"
			 "ns::bar(int, char const*) libx.so:ns::baz ns::* ns::f(char*)\t"
			 "(anonymous namespace)::h ns::operator<<(std::ostream&, int) "
			 "ns::max<int, long> ns::g@V1 strlen");
	assert_int_equal(cfg.nfuncs, 12);
	assert_func(&cfg.funcs[0], "ns::foo", NULL, NULL, false);
	assert_func(&cfg.funcs[1], "ns::Klass::method", NULL, NULL, false);
	assert_func(&cfg.funcs[2], "ns::foo(std::string const&)", NULL, NULL, false);
	assert_func(&cfg.funcs[3], "ns::bar(int, char const*)", NULL, NULL, false);
	assert_func(&cfg.funcs[4], "ns::baz", NULL, "libx.so", false);
	assert_func(&cfg.funcs[5], "ns::*", NULL, NULL, true);
	assert_func(&cfg.funcs[6], "ns::f(char*)", NULL, NULL, false);
	assert_func(&cfg.funcs[7], "(anonymous namespace)::h", NULL, NULL, false);
	assert_func(&cfg.funcs[8], "ns::operator<<(std::ostream&, int)", NULL, NULL, false);
	assert_func(&cfg.funcs[9], "ns::max<int, long>", NULL, NULL, false);
	assert_func(&cfg.funcs[10], "ns::g", "V1", NULL, false);
	assert_func(&cfg.funcs[11], "strlen", NULL, NULL, false);
	for (i = 0; i < 11; i++)
		assert_true(cfg.funcs[i].cxx);
	assert_false(cfg.funcs[11].cxx);
	tt_config_free(&cfg);
}

/* Operators as c++filt prints them: the space after the keyword operator ends no entry, and
 * an operator without a parameter list is a C++ name too; "operators" is a plain name. */
static void test_funcs_cxx_operators(void **state)
{
	struct tt_config cfg;

	(void)state;
	parse_good(&cfg, "TSC_FUNCS=operator new(unsigned long),operator delete(void*, unsigned "
			 "long) operator delete[] ns::K::operator bool() operators");
	assert_int_equal(cfg.nfuncs, 5);
	assert_func(&cfg.funcs[0], "operator new(unsigned long)", NULL, NULL, false);
	assert_func(&cfg.funcs[1], "operator delete(void*, unsigned long)", NULL, NULL, false);
	assert_func(&cfg.funcs[2], "operator delete[]", NULL, NULL, false);
	assert_func(&cfg.funcs[3], "ns::K::operator bool()", NULL, NULL, false);
	assert_func(&cfg.funcs[4], "operators", NULL, NULL, false);
	assert_true(cfg.funcs[0].cxx && cfg.funcs[1].cxx && cfg.funcs[2].cxx && cfg.funcs[3].cxx);
	assert_false(cfg.funcs[4].cxx);
	tt_config_free(&cfg);
}

static void check_bad_entry(const char *entry, const char *why)
{
	char assignment[128], line[256];

	snprintf(assignment, sizeof(assignment), "TSC_FUNCS=%s", entry);
	snprintf(line, sizeof(line), "TSC_FUNCS entry \"%s\" malformed (%s), skipped", entry, why);
	check_bad(assignment, line);
}

static void test_funcs_malformed(void **state)
{
	(void)state;
	check_bad_entry("foo@", "empty version");
	check_bad_entry("@GLIBC_2.2.5", "empty name");
	check_bad_entry("@", "empty name");
	check_bad_entry(":foo", "empty object");
	check_bad_entry(":", "empty object");
	check_bad_entry("libz.so:", "empty name");
	check_bad_entry("libz.so:@V", "empty name");
	check_bad_entry("lib:foo@", "empty version");
	check_bad_entry("fo-o", "bad character '-' in name");
	check_bad_entry("a:b:c", "bad character ':' in name");
	check_bad_entry("f)x(", "unbalanced ) in name");
	check_bad_entry("ns::f(x", "unclosed ( in name");
	check_bad("TSC_FUNCS=ns::f\x7f",
		  "TSC_FUNCS entry \"ns::f?\" malformed (bad character 0x7f in name), skipped");
	check_bad_entry("foo@@GLIBC_2.2.5", "bad character '@' in version");
	check_bad_entry("foo@V*", "bad character '*' in version");
	check_bad_entry("foo@V:1", "bad character ':' in version");
	check_bad_entry("lib@2.so:foo", "bad character ':' in version");
	check_bad_entry("[abc", "unclosed [ in name");
	check_bad_entry("x[!", "unclosed [ in name");
	check_bad_entry("[]x", "empty [] in name");
	check_bad_entry("[!]x", "empty [] in name");
	check_bad_entry("[a*]x", "bad character '*' in name");
	check_bad_entry("a]b", "bad character ']' in name");
	check_bad_entry("caf\xc3\xa9", "bad character 0xc3 in name");
	check_bad("TSC_FUNCS=fo\x01o",
		  "TSC_FUNCS entry \"fo?o\" malformed (bad character 0x01 in name), skipped");
}

static void test_funcs_malformed_others_kept(void **state)
{
	struct tt_config cfg;

	(void)state;
	assert_int_equal(parse(&cfg, ENV("TSC_FUNCS=a,b@,c,:d,e@V,[x")), 0);
	EXPECT_LINES("TSC_FUNCS entry \"b@\" malformed (empty version), skipped",
		     "TSC_FUNCS entry \":d\" malformed (empty object), skipped",
		     "TSC_FUNCS entry \"[x\" malformed (unclosed [ in name), skipped");
	assert_int_equal(cfg.nfuncs, 3);
	assert_func(&cfg.funcs[0], "a", NULL, NULL, false);
	assert_func(&cfg.funcs[1], "c", NULL, NULL, false);
	assert_func(&cfg.funcs[2], "e", "V", NULL, false);
	tt_config_free(&cfg);
}

static void test_funcs_duplicates_merged(void **state)
{
	struct tt_config cfg;

	(void)state;
	parse_good(&cfg, "TSC_FUNCS=a,a b@V b@V,b x:b x:b@V a x:b@V str* str* b@W");
	assert_int_equal(cfg.nfuncs, 7);
	assert_func(&cfg.funcs[0], "a", NULL, NULL, false);
	assert_func(&cfg.funcs[1], "b", "V", NULL, false);
	assert_func(&cfg.funcs[2], "b", NULL, NULL, false);
	assert_func(&cfg.funcs[3], "b", NULL, "x", false);
	assert_func(&cfg.funcs[4], "b", "V", "x", false);
	assert_func(&cfg.funcs[5], "str*", NULL, NULL, true);
	assert_func(&cfg.funcs[6], "b", "W", NULL, false);
	tt_config_free(&cfg);
}

static char big_funcs[1 << 20];

static void fill_funcs(unsigned int n, const char *tail)
{
	size_t len = (size_t)snprintf(big_funcs, sizeof(big_funcs), "TSC_FUNCS=");
	unsigned int i;

	for (i = 0; i < n; i++)
		len += (size_t)snprintf(big_funcs + len, sizeof(big_funcs) - len, "f%u,", i);
	snprintf(big_funcs + len, sizeof(big_funcs) - len, "%s", tail);
}

/* No cap below the 32-bit index: 70,000 entries (more than 16 bits count) are all kept. */
static void test_funcs_no_cap(void **state)
{
	struct tt_config cfg;

	(void)state;
	fill_funcs(70000, "f0 f69999 f5,g@");
	assert_int_equal(parse(&cfg, ENV(big_funcs)), 0);
	EXPECT_LINES("TSC_FUNCS entry \"g@\" malformed (empty version), skipped");
	assert_int_equal(cfg.nfuncs, 70000);
	assert_string_equal(cfg.funcs[0].name, "f0");
	assert_string_equal(cfg.funcs[65535].name, "f65535");
	assert_string_equal(cfg.funcs[69999].name, "f69999");
	tt_config_free(&cfg);
}

static void test_funcs_empty(void **state)
{
	struct tt_config cfg;

	(void)state;
	parse_good(&cfg, "TSC_FUNCS=");
	assert_defaults(&cfg);
	tt_config_free(&cfg);
	parse_good(&cfg, "TSC_FUNCS= , ,\t");
	assert_defaults(&cfg);
	tt_config_free(&cfg);
}

/* ---- TSC_OUTPUT, TSC_FORMAT, TSC_SERIALIZE, TSC_CLOCK, TSC_HOOK, TSC_QUIET ------------------ */

static void test_output(void **state)
{
	struct tt_config cfg;

	(void)state;
	parse_good(&cfg, "TSC_OUTPUT=/tmp/x.%p.%e.%t.%q%");
	assert_string_equal(cfg.output, "/tmp/x.%p.%e.%t.%q%");
	tt_config_free(&cfg);
	assert_null(cfg.output);
	parse_good(&cfg, "TSC_OUTPUT=-");
	assert_string_equal(cfg.output, "-");
	tt_config_free(&cfg);
	parse_good(&cfg, "TSC_OUTPUT= spaced name ");
	assert_string_equal(cfg.output, " spaced name ");
	tt_config_free(&cfg);
	check_bad("TSC_OUTPUT=", "TSC_OUTPUT is empty, using the default");
}

static void test_export(void **state)
{
	struct tt_config cfg;

	(void)state;
	parse_good(&cfg, "TSC_EXPORT=/var/lib/node/%e.prom");
	assert_string_equal(cfg.export_path, "/var/lib/node/%e.prom");
	assert_int_equal(cfg.export_ms, 10000);
	tt_config_free(&cfg);
	assert_null(cfg.export_path);
	check_bad("TSC_EXPORT=", "TSC_EXPORT is empty, no live export");
	parse_good(&cfg, "TSC_EXPORT_INTERVAL=1s");
	assert_int_equal(cfg.export_ms, 1000);
	parse_good(&cfg, "TSC_EXPORT_INTERVAL=250ms");
	assert_int_equal(cfg.export_ms, 250);
	parse_good(&cfg, "TSC_EXPORT_INTERVAL=100ms");
	assert_int_equal(cfg.export_ms, 100);
	parse_good(&cfg, "TSC_EXPORT_INTERVAL=3600s");
	assert_int_equal(cfg.export_ms, 3600000);
	check_bad("TSC_EXPORT_INTERVAL=10",
		  "TSC_EXPORT_INTERVAL=10 not understood (a number of s or ms, as 10s or 500ms), "
		  "using 10s");
	check_bad("TSC_EXPORT_INTERVAL=1m",
		  "TSC_EXPORT_INTERVAL=1m not understood (a number of s or ms, as 10s or 500ms), "
		  "using 10s");
	check_bad("TSC_EXPORT_INTERVAL=-1s",
		  "TSC_EXPORT_INTERVAL=-1s not understood (a number of s or ms, as 10s or 500ms), "
		  "using 10s");
	check_bad("TSC_EXPORT_INTERVAL=s",
		  "TSC_EXPORT_INTERVAL=s not understood (a number of s or ms, as 10s or 500ms), "
		  "using 10s");
	check_bad("TSC_EXPORT_INTERVAL=99ms",
		  "TSC_EXPORT_INTERVAL=99ms not understood (out of range 100ms-3600s), using 10s");
	check_bad("TSC_EXPORT_INTERVAL=3601s",
		  "TSC_EXPORT_INTERVAL=3601s not understood (out of range 100ms-3600s), using 10s");
	check_bad("TSC_EXPORT_INTERVAL=99999999999999999999s",
		  "TSC_EXPORT_INTERVAL=99999999999999999999s not understood (out of range "
		  "100ms-3600s), using 10s");
	check_bad("TSC_EXPORT_INTERVAL=", "TSC_EXPORT_INTERVAL is empty, using 10s");
	check_bad("TSC_EXPORTS=x", "unknown variable TSC_EXPORTS (did you mean TSC_EXPORT?)");
	check_bad("TSC_EXPORT_INTERVALL=1s",
		  "unknown variable TSC_EXPORT_INTERVALL (did you mean TSC_EXPORT_INTERVAL?)");
}

static void test_format(void **state)
{
	struct tt_config cfg;

	(void)state;
	parse_good(&cfg, "TSC_FORMAT=text");
	assert_int_equal(cfg.format, TT_FMT_TEXT);
	parse_good(&cfg, "TSC_FORMAT=json");
	assert_int_equal(cfg.format, TT_FMT_JSON);
	check_bad("TSC_FORMAT=JSON", "TSC_FORMAT=JSON not understood, using text");
	check_bad("TSC_FORMAT= json", "TSC_FORMAT= json not understood, using text");
	check_bad("TSC_FORMAT=json ", "TSC_FORMAT=json  not understood, using text");
	check_bad("TSC_FORMAT=xml", "TSC_FORMAT=xml not understood, using text");
	check_bad("TSC_FORMAT=", "TSC_FORMAT is empty, using text");
}

/* A TSC_OUTPUT name ending .json gets JSON, unless TSC_FORMAT says otherwise. */
static void test_format_follows_output(void **state)
{
	struct tt_config cfg;

	(void)state;
	assert_int_equal(parse(&cfg, ENV("TSC_OUTPUT=r.json")), 0);
	assert_int_equal(cfg.format, TT_FMT_JSON);
	tt_config_free(&cfg);
	assert_int_equal(parse(&cfg, ENV("TSC_OUTPUT=out/r.%p.json")), 0);
	assert_int_equal(cfg.format, TT_FMT_JSON);
	tt_config_free(&cfg);
	assert_int_equal(parse(&cfg, ENV("TSC_OUTPUT=r.json", "TSC_FORMAT=text")), 0);
	assert_int_equal(cfg.format, TT_FMT_TEXT);
	tt_config_free(&cfg);
	assert_int_equal(parse(&cfg, ENV("TSC_OUTPUT=r.json.txt")), 0);
	assert_int_equal(cfg.format, TT_FMT_TEXT);
	tt_config_free(&cfg);
	assert_int_equal(parse(&cfg, ENV("TSC_OUTPUT=.json")), 0);
	assert_int_equal(cfg.format, TT_FMT_TEXT);
	tt_config_free(&cfg);
}

static void test_serialize(void **state)
{
	static const struct {
		const char *assignment;
		enum tt_serialize want;
	} good[] = {
		{ "TSC_SERIALIZE=rdtscp", TT_SER_RDTSCP },
		{ "TSC_SERIALIZE=lfence", TT_SER_LFENCE },
		{ "TSC_SERIALIZE=mfence", TT_SER_MFENCE },
		{ "TSC_SERIALIZE=cpuid", TT_SER_CPUID },
		{ "TSC_SERIALIZE=none", TT_SER_NONE },
	};
	struct tt_config cfg;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		parse_good(&cfg, good[i].assignment);
		assert_int_equal(cfg.serialize, good[i].want);
		assert_true(cfg.serialize_set);
	}
	check_bad("TSC_SERIALIZE=foo", "TSC_SERIALIZE=foo not understood, using rdtscp");
	check_bad("TSC_SERIALIZE=RDTSCP", "TSC_SERIALIZE=RDTSCP not understood, using rdtscp");
	check_bad("TSC_SERIALIZE=", "TSC_SERIALIZE is empty, using rdtscp");
}

static void test_clock(void **state)
{
	struct tt_config cfg;

	(void)state;
	parse_good(&cfg, "TSC_CLOCK=auto");
	assert_int_equal(cfg.clock, TT_CLK_AUTO);
	parse_good(&cfg, "TSC_CLOCK=tsc");
	assert_int_equal(cfg.clock, TT_CLK_TSC);
	parse_good(&cfg, "TSC_CLOCK=monotonic");
	assert_int_equal(cfg.clock, TT_CLK_MONOTONIC);
	check_bad("TSC_CLOCK=realtime", "TSC_CLOCK=realtime not understood, using auto");
	check_bad("TSC_CLOCK=TSC", "TSC_CLOCK=TSC not understood, using auto");
	check_bad("TSC_CLOCK=", "TSC_CLOCK is empty, using auto");
}

static void test_hook(void **state)
{
	struct tt_config cfg;

	(void)state;
	parse_good(&cfg, "TSC_HOOK=auto");
	assert_int_equal(cfg.hook, TT_HOOK_AUTO);
	parse_good(&cfg, "TSC_HOOK=inline");
	assert_int_equal(cfg.hook, TT_HOOK_INLINE);
	parse_good(&cfg, "TSC_HOOK=got");
	assert_int_equal(cfg.hook, TT_HOOK_GOT);
	check_bad("TSC_HOOK=plt", "TSC_HOOK=plt not understood, using auto");
	check_bad("TSC_HOOK=", "TSC_HOOK is empty, using auto");
}

static void test_quiet(void **state)
{
	struct tt_config cfg;

	(void)state;
	parse_good(&cfg, "TSC_QUIET=0");
	assert_false(cfg.quiet);
	parse_good(&cfg, "TSC_QUIET=1");
	assert_true(cfg.quiet);
	check_bad("TSC_QUIET=yes", "TSC_QUIET=yes not understood, using 0");
	check_bad("TSC_QUIET=2", "TSC_QUIET=2 not understood, using 0");
	check_bad("TSC_QUIET=01", "TSC_QUIET=01 not understood, using 0");
	check_bad("TSC_QUIET=", "TSC_QUIET is empty, using 0");
}

static void test_empty(void **state)
{
	struct tt_config cfg;

	(void)state;
	parse_good(&cfg, "TSC_FUNCS=a");
	assert_false(cfg.empty);
	assert_null(cfg.run_dir);
	tt_config_free(&cfg);
	parse_good(&cfg, "TSC_EMPTY=1");
	assert_true(cfg.empty);
	check_bad("TSC_EMPTY=yes", "TSC_EMPTY=yes not understood, using 0");
	check_bad("TSC_EMPTY=", "TSC_EMPTY is empty, using 0");
}

/* TSC_RUN_DIR: absolute only, so that a program's chdir cannot move the reports. */
static void test_run_dir(void **state)
{
	struct tt_config cfg;

	(void)state;
	parse_good(&cfg, "TSC_RUN_DIR=/tmp/tsctrace-run.20260101-000000.1");
	assert_string_equal(cfg.run_dir, "/tmp/tsctrace-run.20260101-000000.1");
	tt_config_free(&cfg);
	assert_null(cfg.run_dir);
	check_bad(
		"TSC_RUN_DIR=runs/x",
		"TSC_RUN_DIR=runs/x not understood (not an absolute directory), using TSC_OUTPUT");
	check_bad("TSC_RUN_DIR=", "TSC_RUN_DIR is empty, using TSC_OUTPUT");
}

static void test_follow(void **state)
{
	struct tt_config cfg;

	(void)state;
	parse_good(&cfg, "TSC_FOLLOW=0");
	assert_false(cfg.follow);
	parse_good(&cfg, "TSC_FOLLOW=1");
	assert_true(cfg.follow);
	check_bad("TSC_FOLLOW=no", "TSC_FOLLOW=no not understood, using 1");
	check_bad("TSC_FOLLOW=2", "TSC_FOLLOW=2 not understood, using 1");
	check_bad("TSC_FOLLOW= 0", "TSC_FOLLOW= 0 not understood, using 1");
	check_bad("TSC_FOLLOW=", "TSC_FOLLOW is empty, using 1");
	check_bad("TSC_FOLOW=0", "unknown variable TSC_FOLOW (did you mean TSC_FOLLOW?)");
}

static void test_debug(void **state)
{
	struct tt_config cfg;

	(void)state;
	parse_good(&cfg, "TSC_DEBUG=startup");
	assert_true(cfg.debug_startup);
	parse_good(&cfg, "TSC_DEBUG=0");
	assert_false(cfg.debug_startup);
	check_bad("TSC_DEBUG=1", "TSC_DEBUG=1 not understood, using 0");
	check_bad("TSC_DEBUG=", "TSC_DEBUG is empty, using 0");
	check_bad("TSC_DEBUGS=startup", "unknown variable TSC_DEBUGS (did you mean TSC_DEBUG?)");
}

static void test_cache(void **state)
{
	struct tt_config cfg;

	(void)state;
	parse_good(&cfg, "TSC_QUIET=0");
	assert_true(cfg.cache);
	parse_good(&cfg, "TSC_CACHE=0");
	assert_false(cfg.cache);
	parse_good(&cfg, "TSC_CACHE=1");
	assert_true(cfg.cache);
	check_bad("TSC_CACHE=no", "TSC_CACHE=no not understood, using 1");
	check_bad("TSC_CACHE=", "TSC_CACHE is empty, using 1");
}

/* ---- TSC_PIN ------------------------------------------------------------------------------- */

static void test_pin_modes(void **state)
{
	struct tt_config cfg;

	(void)state;
	parse_good(&cfg, "TSC_PIN=exclusive");
	assert_int_equal(cfg.pin, TT_PIN_EXCLUSIVE);
	parse_good(&cfg, "TSC_PIN=first");
	assert_int_equal(cfg.pin, TT_PIN_FIRST);
	parse_good(&cfg, "TSC_PIN=spread");
	assert_int_equal(cfg.pin, TT_PIN_SPREAD);
	assert_false(pin_has(&cfg, 0));
	parse_good(&cfg, "TSC_PIN=none");
	assert_int_equal(cfg.pin, TT_PIN_NONE);
}

/* The CPUs set in a TT_PIN_LIST config, compared with want[0..n). */
static void assert_cpus(const struct tt_config *cfg, const unsigned int *want, size_t n)
{
	unsigned int cpu;
	size_t k = 0;

	assert_int_equal(cfg->pin, TT_PIN_LIST);
	for (cpu = 0; cpu < TT_CONFIG_MAX_CPUS + 8; cpu++) {
		bool expected = k < n && want[k] == cpu;

		if (pin_has(cfg, cpu) != expected)
			fail_msg("CPU %u: %s", cpu, expected ? "missing" : "unexpected");
		k += expected;
	}
	assert_int_equal(k, n);
}

static void test_pin_list(void **state)
{
	static const unsigned int a[] = { 0, 2, 3 }, b[] = { 1023 }, c[] = { 5 },
				  d[] = { 1, 63, 64, 65, 127, 128 };
	struct tt_config cfg;
	unsigned int all[TT_CONFIG_MAX_CPUS], i;

	(void)state;
	parse_good(&cfg, "TSC_PIN=0,2-3");
	assert_cpus(&cfg, a, 3);
	parse_good(&cfg, "TSC_PIN=1023");
	assert_cpus(&cfg, b, 1);
	parse_good(&cfg, "TSC_PIN=5-5,005");
	assert_cpus(&cfg, c, 1);
	parse_good(&cfg, "TSC_PIN=128,63-65,1,127");
	assert_cpus(&cfg, d, 6);
	for (i = 0; i < TT_CONFIG_MAX_CPUS; i++)
		all[i] = i;
	parse_good(&cfg, "TSC_PIN=0-1023");
	assert_cpus(&cfg, all, TT_CONFIG_MAX_CPUS);
	assert_false(pin_has(&cfg, 1024));
	assert_false(pin_has(&cfg, UINT32_MAX));
}

static void test_pin_bad(void **state)
{
	(void)state;
	check_bad("TSC_PIN=3-1", "TSC_PIN=3-1 not understood (reversed range), using exclusive");
	check_bad("TSC_PIN=0,9-8",
		  "TSC_PIN=0,9-8 not understood (reversed range), using exclusive");
	check_bad("TSC_PIN=1024", "TSC_PIN=1024 not understood (CPU above 1023), using exclusive");
	check_bad("TSC_PIN=0-1024",
		  "TSC_PIN=0-1024 not understood (CPU above 1023), using exclusive");
	check_bad(
		"TSC_PIN=99999999999999999999999",
		"TSC_PIN=99999999999999999999999 not understood (CPU above 1023), using exclusive");
	check_bad("TSC_PIN=a", "TSC_PIN=a not understood, using exclusive");
	check_bad("TSC_PIN=First", "TSC_PIN=First not understood, using exclusive");
	check_bad("TSC_PIN=1,", "TSC_PIN=1, not understood, using exclusive");
	check_bad("TSC_PIN=,1", "TSC_PIN=,1 not understood, using exclusive");
	check_bad("TSC_PIN=1,,2", "TSC_PIN=1,,2 not understood, using exclusive");
	check_bad("TSC_PIN=1-", "TSC_PIN=1- not understood, using exclusive");
	check_bad("TSC_PIN=-1", "TSC_PIN=-1 not understood, using exclusive");
	check_bad("TSC_PIN=1-2-3", "TSC_PIN=1-2-3 not understood, using exclusive");
	check_bad("TSC_PIN= 1", "TSC_PIN= 1 not understood, using exclusive");
	check_bad("TSC_PIN=1 2", "TSC_PIN=1 2 not understood, using exclusive");
	check_bad("TSC_PIN=0x1", "TSC_PIN=0x1 not understood, using exclusive");
	check_bad("TSC_PIN=", "TSC_PIN is empty, using exclusive");
}

/* ---- TSC_OVERHEAD, TSC_CALLERS --------------------------------------------------------------- */

static void test_overhead(void **state)
{
	struct tt_config cfg;

	(void)state;
	parse_good(&cfg, "TSC_OVERHEAD=auto");
	assert_true(cfg.overhead_auto);
	assert_int_equal(cfg.overhead_ticks, 0);
	parse_good(&cfg, "TSC_OVERHEAD=0");
	assert_false(cfg.overhead_auto);
	assert_int_equal(cfg.overhead_ticks, 0);
	parse_good(&cfg, "TSC_OVERHEAD=38");
	assert_false(cfg.overhead_auto);
	assert_int_equal(cfg.overhead_ticks, 38);
	parse_good(&cfg, "TSC_OVERHEAD=18446744073709551615");
	assert_false(cfg.overhead_auto);
	assert_true(cfg.overhead_ticks == UINT64_MAX);
	check_bad("TSC_OVERHEAD=-1", "TSC_OVERHEAD=-1 not understood (negative), using auto");
	check_bad("TSC_OVERHEAD=18446744073709551616",
		  "TSC_OVERHEAD=18446744073709551616 not understood (too large), using auto");
	check_bad("TSC_OVERHEAD=99999999999999999999999",
		  "TSC_OVERHEAD=99999999999999999999999 not understood (too large), using auto");
	check_bad("TSC_OVERHEAD=12x", "TSC_OVERHEAD=12x not understood, using auto");
	check_bad("TSC_OVERHEAD=0x10", "TSC_OVERHEAD=0x10 not understood, using auto");
	check_bad("TSC_OVERHEAD=+5", "TSC_OVERHEAD=+5 not understood, using auto");
	check_bad("TSC_OVERHEAD= 5", "TSC_OVERHEAD= 5 not understood, using auto");
	check_bad("TSC_OVERHEAD=1.5", "TSC_OVERHEAD=1.5 not understood, using auto");
	check_bad("TSC_OVERHEAD=AUTO", "TSC_OVERHEAD=AUTO not understood, using auto");
	check_bad("TSC_OVERHEAD=-", "TSC_OVERHEAD=- not understood, using auto");
	check_bad("TSC_OVERHEAD=", "TSC_OVERHEAD is empty, using auto");
}

static void test_callers(void **state)
{
	struct tt_config cfg;

	(void)state;
	parse_good(&cfg, "TSC_CALLERS=0");
	assert_int_equal(cfg.callers, 0);
	parse_good(&cfg, "TSC_CALLERS=1");
	assert_int_equal(cfg.callers, 1);
	parse_good(&cfg, "TSC_CALLERS=32");
	assert_int_equal(cfg.callers, 32);
	parse_good(&cfg, "TSC_CALLERS=007");
	assert_int_equal(cfg.callers, 7);
	check_bad("TSC_CALLERS=33", "TSC_CALLERS=33 not understood (out of range 0-32), using 0");
	check_bad("TSC_CALLERS=4294967297",
		  "TSC_CALLERS=4294967297 not understood (out of range 0-32), using 0");
	check_bad("TSC_CALLERS=99999999999999999999999",
		  "TSC_CALLERS=99999999999999999999999 not understood (out of range 0-32), "
		  "using 0");
	check_bad("TSC_CALLERS=-1", "TSC_CALLERS=-1 not understood (negative), using 0");
	check_bad("TSC_CALLERS=x", "TSC_CALLERS=x not understood, using 0");
	check_bad("TSC_CALLERS=1 ", "TSC_CALLERS=1  not understood, using 0");
	check_bad("TSC_CALLERS=", "TSC_CALLERS is empty, using 0");
}

static void test_callers_unwind(void **state)
{
	struct tt_config cfg;

	(void)state;
	parse_good(&cfg, "TSC_CALLERS=4");
	assert_false(cfg.callers_libunwind);
	parse_good(&cfg, "TSC_CALLERS_UNWIND=libunwind");
	assert_true(cfg.callers_libunwind);
	parse_good(&cfg, "TSC_CALLERS_UNWIND=cached");
	assert_false(cfg.callers_libunwind);
	check_bad("TSC_CALLERS_UNWIND=fast",
		  "TSC_CALLERS_UNWIND=fast not understood, using cached");
}

/* ---- TSC_SLOWEST, TSC_SLOWER_THAN, TSC_ARGS -------------------------------------------------- */

static void test_slowest(void **state)
{
	struct tt_config cfg;

	(void)state;
	parse_good(&cfg, "TSC_SLOWEST=0");
	assert_int_equal(cfg.slowest, 0);
	tt_config_free(&cfg);
	parse_good(&cfg, "TSC_SLOWEST=64");
	assert_int_equal(cfg.slowest, 64);
	tt_config_free(&cfg);
	check_bad("TSC_SLOWEST=65", "TSC_SLOWEST=65 not understood (out of range 0-64), using 8");
	check_bad("TSC_SLOWEST=-1", "TSC_SLOWEST=-1 not understood (negative), using 8");
	parse_good(&cfg, "TSC_SLOWER_THAN=5000");
	assert_int_equal(cfg.slower_than, 5000);
	assert_false(cfg.slower_than_us);
	tt_config_free(&cfg);
	parse_good(&cfg, "TSC_SLOWER_THAN=20us");
	assert_int_equal(cfg.slower_than, 20);
	assert_true(cfg.slower_than_us);
	tt_config_free(&cfg);
	check_bad("TSC_SLOWER_THAN=0",
		  "TSC_SLOWER_THAN=0 not understood (must be above 0), keeping no calls by "
		  "threshold");
	check_bad("TSC_SLOWER_THAN=5ms",
		  "TSC_SLOWER_THAN=5ms not understood, keeping no calls by threshold");
	check_bad("TSC_SLOWER_THAN=us",
		  "TSC_SLOWER_THAN=us not understood, keeping no calls by threshold");
}

static void test_args(void **state)
{
	struct tt_config cfg;

	(void)state;
	parse_good(&cfg, "TSC_ARGS=memcpy:3,libc.so.6:read:3>=4096,f:1==0");
	assert_int_equal(cfg.nargs, 3);
	assert_string_equal(cfg.args[0].name, "memcpy");
	assert_int_equal(cfg.args[0].k, 3);
	assert_int_equal(cfg.args[0].op, 0);
	assert_string_equal(cfg.args[1].name, "libc.so.6:read");
	assert_int_equal(cfg.args[1].op, 1);
	assert_int_equal(cfg.args[1].n, 4096);
	assert_int_equal(cfg.args[2].op, 2);
	assert_int_equal(cfg.args[2].n, 0);
	tt_config_free(&cfg);
	check_bad("TSC_ARGS=memcpy:7", "TSC_ARGS entry memcpy:7 not understood (func:K, func:K>=N "
				       "or func:K==N, K 1-6, each function once), skipped");
	check_bad("TSC_ARGS=memcpy:3<4", "TSC_ARGS entry memcpy:3<4 not understood (func:K, "
					 "func:K>=N or func:K==N, K 1-6, each function once), "
					 "skipped");
	check_bad("TSC_ARGS=memcpy", "TSC_ARGS entry memcpy not understood (func:K, func:K>=N or "
				     "func:K==N, K 1-6, each function once), skipped");
}

/* ---- TSC_SAMPLE, TSC_BUDGET ------------------------------------------------------------------ */

static void test_sample(void **state)
{
	struct tt_config cfg;

	(void)state;
	parse_good(&cfg, "TSC_SAMPLE=16");
	assert_int_equal(cfg.sample, 16);
	parse_good(&cfg, "TSC_SAMPLE=1");
	assert_int_equal(cfg.sample, 0); /* every call timed */
	parse_good(&cfg, "TSC_SAMPLE=4294967296");
	assert_int_equal(cfg.sample, 4294967296ull);
	check_bad("TSC_SAMPLE=0",
		  "TSC_SAMPLE=0 not understood (out of range 1-4294967296), timing every call");
	check_bad("TSC_SAMPLE=4294967297",
		  "TSC_SAMPLE=4294967297 not understood (out of range 1-4294967296), timing every "
		  "call");
	check_bad("TSC_SAMPLE=-2", "TSC_SAMPLE=-2 not understood (negative), timing every call");
	check_bad("TSC_SAMPLE=x", "TSC_SAMPLE=x not understood, timing every call");
	check_bad("TSC_SAMPLE=", "TSC_SAMPLE is empty, timing every call");
}

static void test_budget(void **state)
{
	struct tt_config cfg;

	(void)state;
	parse_good(&cfg, "TSC_BUDGET=2%");
	assert_int_equal(cfg.budget_ppm, 20000);
	parse_good(&cfg, "TSC_BUDGET=2");
	assert_int_equal(cfg.budget_ppm, 20000);
	parse_good(&cfg, "TSC_BUDGET=0.5%");
	assert_int_equal(cfg.budget_ppm, 5000);
	parse_good(&cfg, "TSC_BUDGET=0.0001%");
	assert_int_equal(cfg.budget_ppm, 1);
	parse_good(&cfg, "TSC_BUDGET=100%");
	assert_int_equal(cfg.budget_ppm, 1000000);
	check_bad("TSC_BUDGET=0%", "TSC_BUDGET=0% not understood (out of range 0.0001%-100%), "
				   "no budget");
	check_bad("TSC_BUDGET=200%", "TSC_BUDGET=200% not understood (out of range "
				     "0.0001%-100%), no budget");
	check_bad("TSC_BUDGET=99999999999%", "TSC_BUDGET=99999999999% not understood (out of "
					     "range 0.0001%-100%), no budget");
	check_bad("TSC_BUDGET=2x", "TSC_BUDGET=2x not understood, no budget");
	check_bad("TSC_BUDGET=-1%", "TSC_BUDGET=-1% not understood (negative), no budget");
	check_bad("TSC_BUDGET=%", "TSC_BUDGET=% not understood, no budget");
	check_bad("TSC_BUDGET=", "TSC_BUDGET is empty, no budget");
	assert_int_equal(parse(&cfg, ENV("TSC_SAMPLE=8", "TSC_BUDGET=1%")), 0);
	EXPECT_LINES("TSC_SAMPLE and TSC_BUDGET both set: using TSC_BUDGET");
	assert_int_equal(cfg.sample, 0);
	assert_int_equal(cfg.budget_ppm, 10000);
	tt_config_free(&cfg);
}

/* ---- TSC_DUMP_SIGNAL ------------------------------------------------------------------------- */

static void check_signal(const char *assignment, int want)
{
	struct tt_config cfg;

	parse_good(&cfg, assignment);
	if (cfg.dump_signal != want)
		fail_msg("%s: signal %d, expected %d", assignment, cfg.dump_signal, want);
}

static void test_dump_signal_names(void **state)
{
	static const struct {
		const char *name;
		int num;
	} sigs[] = {
		{ "USR1", SIGUSR1 },   { "USR2", SIGUSR2 }, { "HUP", SIGHUP },
		{ "TERM", SIGTERM },   { "INT", SIGINT },   { "QUIT", SIGQUIT },
		{ "ALRM", SIGALRM },   { "PROF", SIGPROF }, { "VTALRM", SIGVTALRM },
		{ "WINCH", SIGWINCH }, { "CHLD", SIGCHLD }, { "CONT", SIGCONT },
		{ "TSTP", SIGTSTP },   { "TTIN", SIGTTIN }, { "TTOU", SIGTTOU },
		{ "URG", SIGURG },     { "XCPU", SIGXCPU }, { "XFSZ", SIGXFSZ },
		{ "IO", SIGIO },       { "PWR", SIGPWR },   { "SYS", SIGSYS },
		{ "PIPE", SIGPIPE },
	};
	char assignment[64];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		snprintf(assignment, sizeof(assignment), "TSC_DUMP_SIGNAL=%s", sigs[i].name);
		check_signal(assignment, sigs[i].num);
		snprintf(assignment, sizeof(assignment), "TSC_DUMP_SIGNAL=SIG%s", sigs[i].name);
		check_signal(assignment, sigs[i].num);
	}
}

static void test_dump_signal_realtime(void **state)
{
	(void)state;
	check_signal("TSC_DUMP_SIGNAL=RTMIN", SIGRTMIN);
	check_signal("TSC_DUMP_SIGNAL=SIGRTMIN", SIGRTMIN);
	check_signal("TSC_DUMP_SIGNAL=RTMIN+1", SIGRTMIN + 1);
	check_signal("TSC_DUMP_SIGNAL=SIGRTMIN+3", SIGRTMIN + 3);
	check_signal("TSC_DUMP_SIGNAL=RTMAX", SIGRTMAX);
	check_signal("TSC_DUMP_SIGNAL=SIGRTMAX-2", SIGRTMAX - 2);
	check_signal("TSC_DUMP_SIGNAL=RTMAX-0", SIGRTMAX);
	assert_true(SIGRTMAX - SIGRTMIN == 30); /* glibc on x86-64: 34..64 */
	check_signal("TSC_DUMP_SIGNAL=RTMIN+30", SIGRTMAX);
	check_signal("TSC_DUMP_SIGNAL=RTMAX-30", SIGRTMIN);
	check_bad("TSC_DUMP_SIGNAL=RTMIN+31",
		  "TSC_DUMP_SIGNAL=RTMIN+31 not understood (beyond the real-time signals), "
		  "no dump signal");
	check_bad("TSC_DUMP_SIGNAL=SIGRTMAX-31",
		  "TSC_DUMP_SIGNAL=SIGRTMAX-31 not understood (beyond the real-time signals), "
		  "no dump signal");
	check_bad("TSC_DUMP_SIGNAL=RTMIN+99999999999999999999",
		  "TSC_DUMP_SIGNAL=RTMIN+99999999999999999999 not understood "
		  "(beyond the real-time signals), no dump signal");
	check_bad("TSC_DUMP_SIGNAL=RTMIN-1",
		  "TSC_DUMP_SIGNAL=RTMIN-1 not understood, no dump signal");
	check_bad("TSC_DUMP_SIGNAL=RTMAX+1",
		  "TSC_DUMP_SIGNAL=RTMAX+1 not understood, no dump signal");
	check_bad("TSC_DUMP_SIGNAL=RTMIN+",
		  "TSC_DUMP_SIGNAL=RTMIN+ not understood, no dump signal");
	check_bad("TSC_DUMP_SIGNAL=RTMIN1",
		  "TSC_DUMP_SIGNAL=RTMIN1 not understood, no dump signal");
}

static void test_dump_signal_numbers(void **state)
{
	(void)state;
	check_signal("TSC_DUMP_SIGNAL=1", 1);
	check_signal("TSC_DUMP_SIGNAL=10", 10);
	check_signal("TSC_DUMP_SIGNAL=012", 12);
	check_signal("TSC_DUMP_SIGNAL=31", 31);
	check_signal("TSC_DUMP_SIGNAL=34", 34);
	check_signal("TSC_DUMP_SIGNAL=64", 64);
	check_bad("TSC_DUMP_SIGNAL=0",
		  "TSC_DUMP_SIGNAL=0 not understood (out of range 1-64), no dump signal");
	check_bad("TSC_DUMP_SIGNAL=65",
		  "TSC_DUMP_SIGNAL=65 not understood (out of range 1-64), no dump signal");
	check_bad("TSC_DUMP_SIGNAL=99999999999999999999999",
		  "TSC_DUMP_SIGNAL=99999999999999999999999 not understood (out of range 1-64), "
		  "no dump signal");
	check_bad("TSC_DUMP_SIGNAL=-10", "TSC_DUMP_SIGNAL=-10 not understood, no dump signal");
	check_bad("TSC_DUMP_SIGNAL=10x", "TSC_DUMP_SIGNAL=10x not understood, no dump signal");
	check_bad("TSC_DUMP_SIGNAL=SIG10", "TSC_DUMP_SIGNAL=SIG10 not understood, no dump signal");
}

#define CRASH_TAIL "refused (reports a crash), no dump signal"

static void test_dump_signal_refused(void **state)
{
	static const char *const crash[] = { "SEGV", "BUS", "ILL", "FPE", "ABRT", "TRAP" };
	static const int crash_num[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP };
	char assignment[64], line[160];
	size_t i;

	(void)state;
	check_bad("TSC_DUMP_SIGNAL=KILL", "TSC_DUMP_SIGNAL=KILL refused (cannot be caught), "
					  "no dump signal");
	check_bad("TSC_DUMP_SIGNAL=SIGSTOP", "TSC_DUMP_SIGNAL=SIGSTOP refused (cannot be caught), "
					     "no dump signal");
	check_bad("TSC_DUMP_SIGNAL=9",
		  "TSC_DUMP_SIGNAL=9 refused (cannot be caught), no dump signal");
	check_bad("TSC_DUMP_SIGNAL=19",
		  "TSC_DUMP_SIGNAL=19 refused (cannot be caught), no dump signal");
	for (i = 0; i < sizeof(crash) / sizeof(crash[0]); i++) {
		snprintf(assignment, sizeof(assignment), "TSC_DUMP_SIGNAL=%s", crash[i]);
		snprintf(line, sizeof(line), "%s %s", assignment, CRASH_TAIL);
		check_bad(assignment, line);
		snprintf(assignment, sizeof(assignment), "TSC_DUMP_SIGNAL=SIG%s", crash[i]);
		snprintf(line, sizeof(line), "%s %s", assignment, CRASH_TAIL);
		check_bad(assignment, line);
		snprintf(assignment, sizeof(assignment), "TSC_DUMP_SIGNAL=%d", crash_num[i]);
		snprintf(line, sizeof(line), "%s %s", assignment, CRASH_TAIL);
		check_bad(assignment, line);
	}
	assert_true(SIGRTMIN > 33); /* glibc keeps 32 and 33 for its threads */
	check_bad("TSC_DUMP_SIGNAL=32",
		  "TSC_DUMP_SIGNAL=32 refused (reserved by the C library), no dump signal");
	check_bad("TSC_DUMP_SIGNAL=33",
		  "TSC_DUMP_SIGNAL=33 refused (reserved by the C library), no dump signal");
}

static void test_dump_signal_bad(void **state)
{
	(void)state;
	check_bad("TSC_DUMP_SIGNAL=usr1", "TSC_DUMP_SIGNAL=usr1 not understood, no dump signal");
	check_bad("TSC_DUMP_SIGNAL=sigUSR1",
		  "TSC_DUMP_SIGNAL=sigUSR1 not understood, no dump signal");
	check_bad("TSC_DUMP_SIGNAL=FOO", "TSC_DUMP_SIGNAL=FOO not understood, no dump signal");
	check_bad("TSC_DUMP_SIGNAL=SIG", "TSC_DUMP_SIGNAL=SIG not understood, no dump signal");
	check_bad("TSC_DUMP_SIGNAL=SIGSIGUSR1",
		  "TSC_DUMP_SIGNAL=SIGSIGUSR1 not understood, no dump signal");
	check_bad("TSC_DUMP_SIGNAL=USR1 ", "TSC_DUMP_SIGNAL=USR1  not understood, no dump signal");
	check_bad("TSC_DUMP_SIGNAL=USR", "TSC_DUMP_SIGNAL=USR not understood, no dump signal");
	check_bad("TSC_DUMP_SIGNAL=", "TSC_DUMP_SIGNAL is empty, no dump signal");
}

/* ---- unknown variables --------------------------------------------------------------------- */

static void test_unknown_variables(void **state)
{
	(void)state;
	check_bad("TSC_FUNC=strlen", "unknown variable TSC_FUNC (did you mean TSC_FUNCS?)");
	check_bad("TSC_FUNCTIONS=strlen", "unknown variable TSC_FUNCTIONS");
	check_bad("TSC_FOO=1", "unknown variable TSC_FOO");
	check_bad("TSC_=1", "unknown variable TSC_");
	check_bad("TSC_Format=json", "unknown variable TSC_Format (did you mean TSC_FORMAT?)");
	check_bad("TSC_SERIALISE=none",
		  "unknown variable TSC_SERIALISE (did you mean TSC_SERIALIZE?)");
	check_bad("TSC_QUITE=1", "unknown variable TSC_QUITE (did you mean TSC_QUIET?)");
	/* short names allow one edit, and a swap of neighbours is one edit */
	check_bad("TSC_PNI=1", "unknown variable TSC_PNI (did you mean TSC_PIN?)");
	check_bad("TSC_HOKO=got", "unknown variable TSC_HOKO (did you mean TSC_HOOK?)");
	check_bad("TSC_HOOC=got", "unknown variable TSC_HOOC (did you mean TSC_HOOK?)");
	check_bad("TSC_HOKE=got", "unknown variable TSC_HOKE");
	check_bad("TSC_HIKE=got", "unknown variable TSC_HIKE");
	check_bad("TSC_FOOD=1", "unknown variable TSC_FOOD");
	check_bad("TSC_CALLER=1", "unknown variable TSC_CALLER (did you mean TSC_CALLERS?)");
	check_bad("TSC_PINS=1", "unknown variable TSC_PINS (did you mean TSC_PIN?)");
	check_bad("TSC_CLK=tsc", "unknown variable TSC_CLK (did you mean TSC_CLOCK?)");
	check_bad("TSC_OUT=x", "unknown variable TSC_OUT (did you mean TSC_OUTPUT?)");
	check_bad("TSC_DUMP=USR1", "unknown variable TSC_DUMP (did you mean TSC_DUMP_SIGNAL?)");
	check_bad("TSC_DUMPSIGNAL=USR1",
		  "unknown variable TSC_DUMPSIGNAL (did you mean TSC_DUMP_SIGNAL?)");
	check_bad("TSC_OVERHEADS=1", "unknown variable TSC_OVERHEADS (did you mean TSC_OVERHEAD?)");
	check_bad("TSC_HOOKS=got", "unknown variable TSC_HOOKS (did you mean TSC_HOOK?)");
	check_bad("TSC_OUTPUTS=x", "unknown variable TSC_OUTPUTS (did you mean TSC_OUTPUT?)");
	check_bad("TSC_SIGNAL=USR1", "unknown variable TSC_SIGNAL");
	check_bad("TSC_F\nX=1", "unknown variable TSC_F?X");
	/* the name is cut to 64 bytes in the message */
	check_bad("TSC_ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		  "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		  "ABCDEFGHIJKLMNOPQRSTUVWXYZ=1",
		  "unknown variable TSC_ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		  "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		  "ABCDEFGH...");
}

static void test_unknown_variable_once(void **state)
{
	struct tt_config cfg;

	(void)state;
	assert_int_equal(parse(&cfg, ENV("TSC_FOO=1", "TSC_FORMAT=json", "TSC_FOO=2", "TSC_FOOD=3",
					 "TSC_FOO=")),
			 0);
	EXPECT_LINES("unknown variable TSC_FOO", "unknown variable TSC_FOOD");
	assert_int_equal(cfg.format, TT_FMT_JSON);
	tt_config_free(&cfg);
}

/* ---- memory ---------------------------------------------------------------------------------- */

static void test_free_resets(void **state)
{
	struct tt_config cfg;

	(void)state;
	parse_good(&cfg, "TSC_FUNCS=a b@V c:d");
	assert_int_equal(cfg.nfuncs, 3);
	tt_config_free(&cfg);
	assert_defaults(&cfg);
	tt_config_free(&cfg); /* twice is harmless */
	assert_defaults(&cfg);
	tt_config_free(NULL);
}

#if defined(__SANITIZE_ADDRESS__)
#define ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASAN 1
#endif
#endif

/* ASan owns malloc: there the test is left out (a cmocka skip would read as "not ok" in TAP) */
#ifndef ASAN
extern void *__libc_malloc(size_t size);
extern void *__libc_realloc(void *ptr, size_t size);
extern void __libc_free(void *ptr);

static bool armed;	  /* count and fail only inside the window under test */
static long fail_at = -1; /* index of the allocation that fails, -1 for none */
static long nallocs;	  /* allocations attempted while armed */
static long live;	  /* blocks allocated while armed and not yet freed */

__attribute__((visibility("hidden"))) void *malloc(size_t size)
{
	void *p;

	if (!armed)
		return __libc_malloc(size);
	if (nallocs++ == fail_at)
		return NULL;
	p = __libc_malloc(size);
	live += p != NULL;
	return p;
}

__attribute__((visibility("hidden"))) void *realloc(void *ptr, size_t size)
{
	void *p;

	if (!armed)
		return __libc_realloc(ptr, size);
	if (nallocs++ == fail_at)
		return NULL;
	p = __libc_realloc(ptr, size);
	live += p != NULL && ptr == NULL;
	return p;
}

__attribute__((visibility("hidden"))) void free(void *ptr)
{
	if (armed && ptr)
		live--;
	__libc_free(ptr);
}

static void test_enomem(void **state)
{
	struct tt_config cfg;
	long k;
	int rc;

	(void)state;
	fill_funcs(40, "x@V lib:y lib:z@W");
	for (k = 0;; k++) {
		fail_at = k;
		nallocs = live = 0;
		memset(&D, 0, sizeof(D));
		armed = true;
		rc = tt_config_parse(ENV("TSC_FORMAT=json", big_funcs, "TSC_OUTPUT=r.%p"), &cfg,
				     collect, &D);
		armed = false;
		if (rc == 0)
			break;
		assert_int_equal(rc, -ENOMEM);
		assert_defaults(&cfg);
		if (live)
			fail_msg("allocation %ld failed: %ld blocks leaked", k, live);
	}
	/* 43 entries x 1-3 strings, a few array growths, the output: all were made to fail */
	assert_true(k > 50);
	assert_int_equal(nallocs, k);
	assert_int_equal(cfg.nfuncs, 43);
	assert_int_equal(cfg.format, TT_FMT_JSON);
	armed = true;
	tt_config_free(&cfg);
	armed = false;
	assert_int_equal(live, 0);
	fail_at = -1;
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults_null_envp),
		cmocka_unit_test(test_defaults_empty_envp),
		cmocka_unit_test(test_other_variables_ignored),
		cmocka_unit_test(test_null_diag_callback),
		cmocka_unit_test(test_all_valid_together),
		cmocka_unit_test(test_first_wins),
		cmocka_unit_test(test_lines_in_envp_order),
		cmocka_unit_test(test_value_shown_safely),
		cmocka_unit_test(test_funcs_plain),
		cmocka_unit_test(test_funcs_separators),
		cmocka_unit_test(test_funcs_forms),
		cmocka_unit_test(test_funcs_globs),
		cmocka_unit_test(test_funcs_cxx),
		cmocka_unit_test(test_funcs_cxx_operators),
		cmocka_unit_test(test_funcs_malformed),
		cmocka_unit_test(test_funcs_malformed_others_kept),
		cmocka_unit_test(test_funcs_duplicates_merged),
		cmocka_unit_test(test_funcs_no_cap),
		cmocka_unit_test(test_funcs_empty),
		cmocka_unit_test(test_output),
		cmocka_unit_test(test_export),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_format_follows_output),
		cmocka_unit_test(test_serialize),
		cmocka_unit_test(test_clock),
		cmocka_unit_test(test_hook),
		cmocka_unit_test(test_quiet),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_run_dir),
		cmocka_unit_test(test_follow),
		cmocka_unit_test(test_debug),
		cmocka_unit_test(test_cache),
		cmocka_unit_test(test_pin_modes),
		cmocka_unit_test(test_pin_list),
		cmocka_unit_test(test_pin_bad),
		cmocka_unit_test(test_overhead),
		cmocka_unit_test(test_callers),
		cmocka_unit_test(test_callers_unwind),
		cmocka_unit_test(test_slowest),
		cmocka_unit_test(test_args),
		cmocka_unit_test(test_dump_signal_names),
		cmocka_unit_test(test_dump_signal_realtime),
		cmocka_unit_test(test_dump_signal_numbers),
		cmocka_unit_test(test_dump_signal_refused),
		cmocka_unit_test(test_sample),
		cmocka_unit_test(test_budget),
		cmocka_unit_test(test_dump_signal_bad),
		cmocka_unit_test(test_unknown_variables),
		cmocka_unit_test(test_unknown_variable_once),
		cmocka_unit_test(test_free_resets),
#ifndef ASAN
		cmocka_unit_test(test_enomem),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
