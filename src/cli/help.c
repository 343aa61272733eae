/*
 * help.c - the --help text of the command and of each subcommand, kept in one place so that
 * they read alike (and match docs/man/tsctrace.1, which says more).
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>

struct help {
	const char *cmd;
	const char *text;
};

static const struct help helps[] = {
	{ "run",
	  "usage: tsctrace run [-f NAMES] [-o FILE] [--json] [--no-follow] [--] PROGRAM [ARGS...]\n"
	  "\n"
	  "Run PROGRAM with the libtsctrace.so shim preloaded; its report is written at exit.\n"
	  "\n"
	  "  -f, --funcs NAMES   functions to trace (sets TSC_FUNCS; default: TSC_FUNCS as set)\n"
	  "  -o, --output FILE   report path template (sets TSC_OUTPUT: %p pid, %e program,\n"
	  "                      %t start time, %% a %, - stderr)\n"
	  "      --json          JSON report (sets TSC_FORMAT=json)\n"
	  "      --no-follow     trace PROGRAM only, not the processes it starts (sets\n"
	  "                      TSC_FOLLOW=0)\n"
	  "  -h, --help          this text\n"
	  "\n"
	  "The shim is $TSCTRACE_LIB, else libtsctrace.so beside this program, else in ../lib,\n"
	  "../lib64 or ../lib/x86_64-linux-gnu relative to it. Other TSC_* variables pass\n"
	  "through: see libtsctrace(7).\n" },
	{ "report",
	  "usage: tsctrace report [--sort KEY] [--top N] [--callers] [--self] [--threads]\n"
	  "                       FILE...\n"
	  "\n"
	  "Print JSON reports (TSC_FORMAT=json) as the shim's text report, one after another.\n"
	  "\n"
	  "  -s, --sort KEY   order functions by total, calls, median, p99, self (largest\n"
	  "                   first) or name; default: as in the file (by total)\n"
	  "  -n, --top N      only the first N functions\n"
	  "  -c, --callers    also the per-call-site tables (reports taken with TSC_CALLERS)\n"
	  "  -S, --self       order functions by self time (--sort self): their cycles less\n"
	  "                   those of the traced calls they made\n"
	  "  -T, --threads    also each function's per-thread rows (tid, name, calls, cycles)\n"
	  "  -h, --help       this text\n"
	  "\n"
	  "FILE may be - for standard input.\n" },
	{ "diff",
	  "usage: tsctrace diff BASE NEW\n"
	  "\n"
	  "Compare two JSON reports function by function: min, median and p99 cycles of both and\n"
	  "their change, and a verdict (faster, slower, no significant change) from a two-sided\n"
	  "Mann-Whitney U test on the histograms at p < 0.01. Functions with fewer than 20 timed\n"
	  "calls on either side get \"too few calls\". Functions are matched by any of their\n"
	  "names: memcpy|memmove in one report is memcpy in the other.\n"
	  "\n"
	  "  -h, --help   this text\n" },
	{ "merge",
	  "usage: tsctrace merge -o OUT FILE...\n"
	  "\n"
	  "Merge JSON reports (several processes, several runs) into one schema-1 report:\n"
	  "counts, totals and histograms added exactly, min and max exact, percentiles\n"
	  "recomputed from the merged histogram. The header is the first file's, with\n"
	  "\"merged_from\" saying how many reports went in. Functions that share any of their\n"
	  "names are one, listing them all.\n"
	  "\n"
	  "  -o, --output OUT   the merged report (written atomically; - for standard output)\n"
	  "  -h, --help         this text\n" },
	{ "plot",
	  "usage: tsctrace plot [-f NAME] -o OUT.svg FILE\n"
	  "\n"
	  "Draw an SVG image of a JSON report: per function its latency histogram (log-scale\n"
	  "cycles, bar heights in calls) and its percentile curve.\n"
	  "\n"
	  "  -f, --function NAME   only this function, by any of its names (default: every\n"
	  "                        function with timed calls)\n"
	  "  -o, --output OUT      the SVG file (written atomically; - for standard output)\n"
	  "  -h, --help            this text\n" },
	{ "export",
	  "usage: tsctrace export --openmetrics [-o OUT] FILE...\n"
	  "\n"
	  "Write JSON reports in the OpenMetrics text format: per function a histogram\n"
	  "tsctrace_call_cycles (tsctrace_call_seconds for monotonic-clock reports) and a counter\n"
	  "tsctrace_calls_total, labelled program, function and pid.\n"
	  "\n"
	  "      --openmetrics   the output format (the only one so far; required)\n"
	  "  -o, --output OUT    write to OUT atomically instead of standard output\n"
	  "  -h, --help          this text\n" },
};

static const char top_help[] =
	"usage: tsctrace COMMAND [OPTIONS] [ARGS...]\n"
	"\n"
	"Time each call of named functions in unmodified programs (libtsctrace.so), and read\n"
	"the reports.\n"
	"\n"
	"commands:\n"
	"  run       run a program under the shim\n"
	"  report    print JSON reports as text\n"
	"  diff      compare two reports, with a significance test\n"
	"  merge     merge reports into one\n"
	"  plot      draw a report as SVG\n"
	"  export    write reports as OpenMetrics\n"
	"\n"
	"Reports are read up to 256 MiB each (TSCTRACE_MAX_INPUT=SIZE, as 1G, changes that).\n"
	"\n"
	"tsctrace COMMAND --help says more; so do tsctrace(1) and libtsctrace(7).\n"
	"tsctrace --version prints the version.\n";

void tt_cli_help(const char *cmd)
{
	size_t i;

	for (i = 0; cmd && i < sizeof(helps) / sizeof(helps[0]); i++) {
		if (strcmp(helps[i].cmd, cmd) == 0) {
			fputs(helps[i].text, stdout);
			return;
		}
	}
	fputs(top_help, stdout);
}
