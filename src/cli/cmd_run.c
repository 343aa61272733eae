/*
 * cmd_run.c - `tsctrace run`: set TSC_FUNCS, TSC_FORMAT, TSC_FOLLOW and LD_PRELOAD, run the
 * command and wait for it, then answer.
 *
 * One run, one result (docs/runs.md): every traced process of the command writes its JSON
 * report into one new run directory in the current directory (rundir.h), whose absolute path
 * the shim gets in TSC_RUN_DIR, so a wrapper's cd does not move a report. When the command
 * has ended the reports are merged into merged.json and the answer printed on stderr
 * (run_summary.h); the exit status is the command's, 128+N when signal N ended it.
 * SIGINT and SIGQUIT are left to the command (a terminal sends them to both: the run
 * still answers), SIGTERM and SIGHUP passed on to it.
 *
 * With -o the older way: TSC_OUTPUT=OUT for every process and the program exec'd, which so
 * keeps our pid; no directory, no answer. The format is then --json or --text, else what -o's
 * name says (.json, .txt), else TSC_FORMAT's.
 *
 * The shim is found as shim_path.h says.
 *
 * Ours goes after any LD_PRELOAD already set: a sanitizer runtime must come first, and that is
 * the order the shim is tested in (tests/prog/run.sh); its hooks are GOT patches, which do not
 * depend on the order. LD_PRELOAD separates entries with spaces and colons, so a path holding
 * either cannot be passed and is refused.
 *
 * A statically linked program (no PT_INTERP: static_exe.h) is run all the same, after one
 * line saying that nothing in it can be traced: no loader runs there to honour LD_PRELOAD.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/run_summary.h"
#include "cli/rundir.h"
#include "cli/shim_path.h"
#include "cli/static_exe.h"

#define TOP_DEFAULT 10

static const struct option run_opts[] = {
	{ "funcs", required_argument, NULL, 'f' },
	{ "output", required_argument, NULL, 'o' },
	{ "json", no_argument, NULL, 'j' },
	{ "text", no_argument, NULL, 't' },
	{ "no-follow", no_argument, NULL, 'F' },
	{ "top", required_argument, NULL, 'n' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* Whether the space- or colon-separated list has lib as one of its entries. */
static bool listed(const char *list, const char *lib)
{
	size_t len = strlen(lib), n;

	for (; *list; list += n + (list[n] != '\0')) {
		n = strcspn(list, " :");
		if (n == len && strncmp(list, lib, len) == 0)
			return true;
	}
	return false;
}

/* LD_PRELOAD with lib appended, unless it is there already. */
static int set_preload(const char *lib)
{
	const char *old = getenv("LD_PRELOAD");
	char *val = NULL;

	if (strpbrk(lib, " :\t\n")) {
		tt_cli_err("run: %s: LD_PRELOAD cannot carry a path with a space or a colon", lib);
		return -1;
	}
	if (old && listed(old, lib))
		return 0;
	if (old && *old && asprintf(&val, "%s:%s", old, lib) < 0)
		val = NULL; /* asprintf leaves it undefined */
	if ((old && *old && !val) || setenv("LD_PRELOAD", val ? val : lib, 1) < 0) {
		tt_cli_err("run: cannot set LD_PRELOAD: %s", strerror(errno));
		free(val);
		return -1;
	}
	free(val);
	return 0;
}

/* Whether name ends in ext ("name.json"), case aside. */
static bool ends_in(const char *name, const char *ext)
{
	size_t n = strlen(name), e = strlen(ext);

	return n > e && strcasecmp(name + n - e, ext) == 0;
}

/*
 * The format: --json or --text when given; else the one -o's extension names (x.json is JSON
 * whatever TSC_FORMAT says: `tsctrace report x.json` must be able to read it); else NULL,
 * TSC_FORMAT as set.
 */
static const char *format_of(const char *output, const char *asked)
{
	if (asked)
		return asked;
	if (output && ends_in(output, ".json"))
		return "json";
	if (output && ends_in(output, ".txt"))
		return "text";
	return NULL;
}

static int set_env(const char *funcs, const char *output, const char *format, bool no_follow)
{
	const char *cur = getenv("TSC_FUNCS");

	if (!funcs && (!cur || !*cur)) {
		tt_cli_err("run: no functions to trace: give -f NAMES (or set TSC_FUNCS)");
		return -1;
	}
	if ((funcs && setenv("TSC_FUNCS", funcs, 1) < 0) ||
	    (output && setenv("TSC_OUTPUT", output, 1) < 0) ||
	    (format && setenv("TSC_FORMAT", format, 1) < 0) ||
	    (no_follow && setenv("TSC_FOLLOW", "0", 1) < 0)) {
		tt_cli_err("run: cannot set the environment: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static volatile sig_atomic_t child_pid;

static void pass_on(int sig)
{
	if (child_pid > 0)
		kill((pid_t)child_pid, sig);
}

/*
 * Run argv in a child and wait for it: its status as a shell gives it (128+N for signal N),
 * or -1 after a line when it could not be started (the exec's errno comes back through a
 * close-on-exec pipe).
 */
static int run_child(char **argv)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, fwd = { .sa_handler = pass_on };
	int fds[2], err = 0, status;
	pid_t pid;
	ssize_t n;

	if (pipe2(fds, O_CLOEXEC) < 0) {
		tt_cli_err("run: cannot make a pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		tt_cli_err("run: cannot fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		close(fds[0]);
		execvp(argv[0], argv);
		err = errno;
		n = write(fds[1], &err, sizeof(err));
		_exit(n == sizeof(err) ? 127 : 126);
	}
	child_pid = pid;
	sigaction(SIGINT, &ign, NULL);
	sigaction(SIGQUIT, &ign, NULL);
	sigaction(SIGTERM, &fwd, NULL);
	sigaction(SIGHUP, &fwd, NULL);
	close(fds[1]);
	do
		n = read(fds[0], &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			tt_cli_err("run: cannot wait for %s: %s", argv[0], strerror(errno));
			return -1;
		}
	if (n == sizeof(err)) {
		tt_cli_err("run: cannot run %s: %s", argv[0], strerror(err));
		return -1;
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* The run directory's way: see the top of the file. */
static int run_in_dir(char **argv, size_t top, bool quiet)
{
	char name[NAME_MAX + 1], abs[PATH_MAX];
	int status;

	if (tt_rundir_make(name, sizeof(name), abs, sizeof(abs)) < 0)
		return CLI_EXIT_BAD;
	/* no informational line per process (warnings still come): the answer is at the end;
	 * a TSC_QUIET the user set is kept */
	if (setenv("TSC_RUN_DIR", abs, 1) < 0 || setenv("TSC_QUIET", "1", 0) < 0) {
		tt_cli_err("run: cannot set the environment: %s", strerror(errno));
		rmdir(abs);
		return CLI_EXIT_BAD;
	}
	status = run_child(argv);
	if (status < 0) {
		rmdir(abs); /* nothing ran: nothing to keep */
		return CLI_EXIT_BAD;
	}
	tt_run_summary(abs, name, getenv("TSC_FUNCS"), top, quiet);
	return status;
}

int tt_cli_run(int argc, char **argv)
{
	const char *funcs = NULL, *output = NULL, *format = NULL;
	char lib[PATH_MAX];
	bool no_follow = false, quiet = false;
	size_t top = TOP_DEFAULT;
	int c;

	opterr = 0;
	/* '+': options end at the program's name, whose own options are its business. */
	while ((c = getopt_long(argc, argv, "+:f:o:n:qh", run_opts, NULL)) != -1) {
		switch (c) {
		case 'f': funcs = optarg; break;
		case 'o': output = optarg; break;
		case 'j': format = "json"; break;
		case 't': format = "text"; break;
		case 'F': no_follow = true; break;
		case 'q': quiet = true; break;
		case 'n':
			if (!tt_cli_parse_count(optarg, &top)) {
				tt_cli_err("run: --top takes a positive count, not '%s'", optarg);
				return CLI_EXIT_BAD;
			}
			break;
		case 'h': tt_cli_help("run"); return CLI_EXIT_OK;
		default: return tt_cli_opt_error("run", c, argv);
		}
	}
	if (optind >= argc) {
		tt_cli_err("run: no program given (see tsctrace run --help)");
		return CLI_EXIT_BAD;
	}
	if (funcs && !*funcs) {
		tt_cli_err("run: -f needs at least one function name");
		return CLI_EXIT_BAD;
	}
	if (!output && format && strcmp(format, "json") != 0) {
		tt_cli_err("run: --text needs -o: a run directory holds JSON reports");
		return CLI_EXIT_BAD;
	}
	if (set_env(funcs, output, output ? format_of(output, format) : "json", no_follow) < 0 ||
	    tt_cli_find_shim("run", lib) < 0 || set_preload(lib) < 0)
		return CLI_EXIT_BAD;
	/* Run all the same: the program is the user's, only the tracing is lost. */
	if (tt_cli_is_static(argv[optind]))
		tt_cli_err("run: %s is statically linked (no dynamic loader: a Go program without "
			   "cgo is one): LD_PRELOAD cannot reach it, nothing is traced and no "
			   "report will be written",
			   argv[optind]);
	if (!output)
		return run_in_dir(argv + optind, top, quiet);
	/* an outer run's directory would take the reports -o names */
	if (unsetenv("TSC_RUN_DIR") < 0) {
		tt_cli_err("run: cannot set the environment: %s", strerror(errno));
		return CLI_EXIT_BAD;
	}
	execvp(argv[optind], argv + optind);
	tt_cli_err("run: cannot run %s: %s", argv[optind], strerror(errno));
	return CLI_EXIT_BAD;
}
