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
	  "usage: tsctrace run [-f NAMES] [--top N] [--quiet] [--no-follow] [--] PROGRAM "
	  "[ARGS...]\n"
	  "       tsctrace run [-f NAMES] -o FILE [--json|--text] [--no-follow] [--] PROGRAM ...\n"
	  "\n"
	  "Run PROGRAM with the libtsctrace.so shim preloaded and answer when it ends: every\n"
	  "traced process writes its JSON report into one new directory here,\n"
	  "tsctrace-run.YYYYMMDD-HHMMSS.PID/ (UTC), the reports are merged into merged.json\n"
	  "there, and stderr gets per function calls, processes, min, median, p90, p99 and share\n"
	  "of the total (heaviest first), then where the data is. The exit status is PROGRAM's.\n"
	  "\n"
	  "  -f, --funcs NAMES   functions to trace (sets TSC_FUNCS; default: TSC_FUNCS as set)\n"
	  "  -n, --top N         at most N functions in the answer (default 10)\n"
	  "  -q, --quiet         only where the data is\n"
	  "  -o, --output FILE   no run directory and no answer: exec PROGRAM with TSC_OUTPUT\n"
	  "                      set (%p pid, %e program, %t start time, %% a %, - stderr)\n"
	  "      --json          with -o: JSON report (sets TSC_FORMAT=json)\n"
	  "      --text          with -o: text report (sets TSC_FORMAT=text); without either,\n"
	  "                      -o NAME.json writes JSON and -o NAME.txt text\n"
	  "      --no-follow     trace PROGRAM only, not the processes it starts (sets\n"
	  "                      TSC_FOLLOW=0)\n"
	  "  -h, --help          this text\n"
	  "\n"
	  "The shim is $TSCTRACE_LIB, else libtsctrace.so beside this program, else in ../lib,\n"
	  "../lib64 or ../lib/x86_64-linux-gnu relative to it. Other TSC_* variables pass\n"
	  "through: see libtsctrace(7).\n" },
	{ "attach",
	  "usage: tsctrace attach [-f NAMES] [-o FILE] [--duration SECS] [--interval SECS]\n"
	  "                       [--allow-seccomp] PID\n"
	  "\n"
	  "Load the shim into the running process PID (ptrace, then libc's dlopen), hook the\n"
	  "functions inline, and on --duration, Ctrl-C or SIGTERM write the report, give every\n"
	  "hooked entry its bytes back and print the report. PID runs on untraced; a second\n"
	  "attach works.\n"
	  "\n"
	  "  -f, --funcs NAMES     functions to trace (default: TSC_FUNCS as set)\n"
	  "  -o, --output FILE     JSON report (default tsctrace-attach.PID.json here)\n"
	  "  -d, --duration SECS   detach after SECS seconds (default: at Ctrl-C or SIGTERM)\n"
	  "  -i, --interval SECS   every SECS seconds, a table: each function's calls, median\n"
	  "                        and p99 in that interval (the process writes its report)\n"
	  "      --allow-seccomp   attach to a process with a seccomp filter all the same\n"
	  "  -h, --help            this text\n"
	  "\n"
	  "Needs ptrace rights over PID (same user, and Yama's ptrace_scope 0, or root), and a\n"
	  "dynamically linked PID with glibc 2.34 or later. See docs/attach.md.\n" },
	{ "report",
	  "usage: tsctrace report [--sort KEY] [--top N] [--callers [--debug-dir DIR]...]\n"
	  "                       [--self] [--threads] [--slowest] [--by-arg] [--all] [--wide]\n"
	  "                       [--per-process] [FILE...]\n"
	  "\n"
	  "Print JSON reports (TSC_FORMAT=json) as the shim's text report, one after another.\n"
	  "With no FILE: the latest tsctrace run directory here (its merged.json).\n"
	  "\n"
	  "  -s, --sort KEY   order functions by total, calls, median, p99, p999, self\n"
	  "                   (largest first) or name; default: as in the file (by total)\n"
	  "  -n, --top N      only the first N functions\n"
	  "  -c, --callers    also the per-call-site tables (reports taken with TSC_CALLERS),\n"
	  "                   each frame named function+offset at file:line from the\n"
	  "                   object's symbols and debug information\n"
	  "  -d, --debug-dir DIR\n"
	  "                   also look for debug files here (DIR/.build-id/xx/yyyy.debug, or\n"
	  "                   by .gnu_debuglink), before /usr/lib/debug; may be repeated\n"
	  "  -S, --self       order functions by self time (--sort self): their cycles less\n"
	  "                   those of the traced calls they made\n"
	  "  -T, --threads    also each function's per-thread rows (tid, name, calls, cycles)\n"
	  "      --slowest    also each function's slowest calls (TSC_SLOWEST): cycles, when,\n"
	  "                   thread, CPU, time off the CPU, result, arguments, call path\n"
	  "      --by-arg     also each function's latency by argument (TSC_ARGS): per\n"
	  "                   power-of-two bucket of the argument, calls, timed, min, median,\n"
	  "                   p99\n"
	  "  -a, --all        also the functions never called (left out by default)\n"
	  "  -W, --wide       C++ names whole (by default a name over 60 characters is\n"
	  "                   shortened: std::string for its long form, templates as <...>)\n"
	  "  -P, --per-process\n"
	  "                   with no FILE or a run directory: each process's report of the run\n"
	  "  -h, --help       this text\n"
	  "\n"
	  "FILE may be - for standard input. C++ names are shown demangled.\n" },
	{ "diff",
	  "usage: tsctrace diff [OPTIONS] BASE NEW\n"
	  "       tsctrace diff [OPTIONS] BASE... -- NEW...\n"
	  "\n"
	  "Compare JSON reports function by function: min, median, p90, p99, p99.9 and mean of\n"
	  "the base runs and of the new runs, and the change in percent. With two runs or more a "
	  "side,\n"
	  "each statistic is taken per run and the runs are the samples: the change gets a 95%\n"
	  "interval (Welch's t over runs, not calls) and a verdict on the median: slower or\n"
	  "faster when the interval excludes 0 and the change is at least the threshold, no\n"
	  "change when the whole interval lies within the threshold, not enough runs\n"
	  "otherwise. With one run a side there is no verdict: one run cannot tell a change\n"
	  "from run-to-run noise. Functions are matched by any of their names: memcpy|memmove\n"
	  "in one report is memcpy in another.\n"
	  "\n"
	  "  -t, --threshold PCT   smallest change that counts (default 5%)\n"
	  "  -s, --stat STAT       the statistic judged: min, median (default), p90, p99, p999,\n"
	  "                        mean\n"
	  "      --fail-on-slower  exit with status 1 when a function is slower\n"
	  "  -h, --help            this text\n" },
	{ "merge",
	  "usage: tsctrace merge [--allow-duplicates] -o OUT FILE...\n"
	  "\n"
	  "Merge JSON reports (several processes, several runs) into one schema-1 report:\n"
	  "counts, totals and histograms added exactly, min and max exact, percentiles\n"
	  "recomputed from the merged histogram. The header is the first file's; \"merged\"\n"
	  "lists the runs that went in (pid, argv, start time) and \"merged_from\" counts them.\n"
	  "Functions that share any of their names are one, listing them all. The same run\n"
	  "given twice (same pid and start time) is refused: its calls would count twice.\n"
	  "Call sites (TSC_CALLERS) are merged alike, a site known by its frames' object,\n"
	  "build ID and address, not by its run's addresses. The slowest calls kept\n"
	  "(TSC_SLOWEST) are the N slowest of all inputs' (N: the most an input kept), each\n"
	  "with its run's pid; latency by argument (TSC_ARGS) adds calls and timed exactly,\n"
	  "min is the least, and a bucket's median and p99 are one input's own where only one\n"
	  "timed it, else the means of the inputs' weighted by their timed calls (marked\n"
	  "\"estimated\": the true value lies between the inputs').\n"
	  "\n"
	  "  -o, --output OUT        the merged report (written atomically; - for standard "
	  "output)\n"
	  "      --allow-duplicates  merge a run given twice anyway\n"
	  "  -h, --help              this text\n" },
	{ "plot",
	  "usage: tsctrace plot [-f NAME] [--log-y] -o OUT.svg FILE\n"
	  "       tsctrace plot --flame [--weight W] [--title T] -o OUT.svg FILE...\n"
	  "       tsctrace plot --by-arg [-f NAME] -o OUT.svg FILE\n"
	  "\n"
	  "Draw an SVG image of a JSON report: per function its latency histogram (log-scale\n"
	  "cycles, bar heights in calls) and its percentile curve. With --flame, a flame graph\n"
	  "of the reports' call paths (TSC_CALLERS; without them one frame per function).\n"
	  "With --by-arg, per function with latency by argument (TSC_ARGS) its median and p99\n"
	  "against the argument's power-of-two bucket, both axes on a log scale.\n"
	  "\n"
	  "  -f, --function NAME   only this function, by any of its names (default: every\n"
	  "                        function with timed calls)\n"
	  "  -o, --output OUT      the SVG file (written atomically; - for standard output)\n"
	  "      --log-y           histogram counts on a log scale (shows a rare slow tail)\n"
	  "      --flame           draw a flame graph\n"
	  "      --by-arg          draw latency by argument\n"
	  "      --weight W        what a frame's width shows: cycles (total, default), calls,\n"
	  "                        or self (reports with self time)\n"
	  "      --title T         the flame graph's title\n"
	  "  -h, --help            this text\n" },
	{ "export",
	  "usage: tsctrace export --format FORMAT [--label NAME=VALUE]... [--label-pid]\n"
	  "                       [-o OUT] FILE...\n"
	  "\n"
	  "Write JSON reports as metrics: per function a histogram tsctrace_call_cycles\n"
	  "(tsctrace_call_seconds for monotonic-clock reports) with the fixed buckets\n"
	  "le = 2^k - 1 for k = 4..30 and +Inf, and a counter tsctrace_calls (samples\n"
	  "tsctrace_calls_total), labelled function, program and hook. Reports with the same\n"
	  "labels are added into one series. OpenMetrics carries each bucket's slowest kept\n"
	  "call (TSC_SLOWEST) as an exemplar: # {tid=\"..\",function=\"..\"} VALUE TIMESTAMP.\n"
	  "\n"
	  "  -f, --format FORMAT   prometheus (text format 0.0.4), openmetrics, or folded,\n"
	  "                        pprof and perfetto (below); required\n"
	  "      --openmetrics     the same as --format openmetrics\n"
	  "      --label NAME=VALUE  a constant label on every series (host, service...)\n"
	  "      --label-pid       a pid label: one series per process\n"
	  "  -o, --output OUT      write to OUT atomically instead of standard output\n"
	  "  -h, --help            this text\n"
	  "\n"
	  "usage: tsctrace export --folded (--format folded) [--weight W] [-o OUT] FILE...\n"
	  "       tsctrace export --format pprof -o OUT FILE...\n"
	  "\n"
	  "The reports' call paths (TSC_CALLERS; without them one frame per function) as folded\n"
	  "stacks, \"outer;caller;function weight\" a line (flamegraph.pl, inferno, speedscope),\n"
	  "or as a gzipped pprof profile with calls, cycles and ns per path (go tool pprof,\n"
	  "Pyroscope, Parca).\n"
	  "\n"
	  "      --weight W      folded stacks weighed by cycles (total, default), calls, or\n"
	  "                      self (reports with self time)\n"
	  "\n"
	  "usage: tsctrace export --format perfetto [-o OUT] FILE...\n"
	  "\n"
	  "The kept slow calls (TSC_SLOWEST) as a timeline in Chrome trace-event JSON\n"
	  "(Perfetto, chrome://tracing): one complete event per call on its thread's track,\n"
	  "ts and dur in microseconds from the earliest run's start (otherData.start_unix_ns),\n"
	  "its arguments, result, CPU, time off the CPU and call path in args.\n" },
};

static const char top_help[] =
	"usage: tsctrace COMMAND [OPTIONS] [ARGS...]\n"
	"\n"
	"Time each call of named functions in unmodified programs (libtsctrace.so), and read\n"
	"the reports.\n"
	"\n"
	"commands:\n"
	"  run       run a program under the shim\n"
	"  attach    trace a running process for a while, then leave it as it was\n"
	"  report    print JSON reports as text\n"
	"  diff      compare reports, or runs of each, with intervals over runs\n"
	"  merge     merge reports into one\n"
	"  plot      draw a report as SVG\n"
	"  export    write reports as Prometheus or OpenMetrics metrics, folded stacks, pprof\n"
	"            or a Perfetto timeline of the slowest calls\n"
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
