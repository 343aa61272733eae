/*
 * t_notsc.c PROGRAM [ARG...] - forbid rdtsc (prctl PR_SET_TSC, PR_TSC_SIGSEGV, which Linux
 * keeps across execve), then exec PROGRAM: the shim in PROGRAM finds the TSC unusable.
 *
 * When TP_PRELOAD is set, it becomes LD_PRELOAD of PROGRAM (and is removed): run.sh uses it to
 * trace only PROGRAM and not this launcher. Exits 126 when prctl or exec fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *pre = getenv("TP_PRELOAD");

	if (argc < 2) {
		fprintf(stderr, "usage: %s PROGRAM [ARG...]\n", argv[0]);
		return 2;
	}
	if (pre) {
		if (setenv("LD_PRELOAD", pre, 1) != 0 || unsetenv("TP_PRELOAD") != 0) {
			perror("setenv");
			return 126;
		}
	}
	if (prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0) != 0) {
		perror("prctl(PR_SET_TSC)");
		return 126;
	}
	fflush(stdout);
	execv(argv[1], argv + 1);
	perror(argv[1]);
	return 126;
}
