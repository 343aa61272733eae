/*
 * t_pinmask.c OUT LABEL [WANT] - print this process's CPU affinity mask as one line
 *     LABEL: <cpu list>                       without WANT
 *     LABEL: <cpu list> (original)            the mask equals WANT
 *     LABEL: <cpu list> (CHANGED, not WANT)   it does not
 * to OUT ("-" for stdout, else appended to the file). A helper of the pin_children test: run
 * through posix_spawn, system(), popen() and exec by a thread that the shim pinned, it shows
 * which mask a child really starts with. Also used by run.sh to list the allowed CPUs.
 */
#include "tp_cpu.h"

int main(int argc, char **argv)
{
	char list[TP_CPU_LIST_MAX];
	cpu_set_t set;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: %s OUT LABEL [WANT]\n", argv[0]);
		return 2;
	}
	tp_cpu_get(&set);
	tp_cpu_list(&set, list);
	f = strcmp(argv[1], "-") ? fopen(argv[1], "a") : stdout;
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	if (argc < 4)
		fprintf(f, "%s: %s\n", argv[2], list);
	else if (!strcmp(list, argv[3]))
		fprintf(f, "%s: %s (original)\n", argv[2], list);
	else
		fprintf(f, "%s: %s (CHANGED, not %s)\n", argv[2], list, argv[3]);
	return fclose(f) == 0 ? 0 : 2;
}
