/*
 * t_pinkids.c SIDE-FILE - a pinned thread's children must start with its original mask.
 *
 * The main thread records its mask, calls sw_add (so that the shim pins it), then starts, one
 * after the other: a fork()ed child, t_pinmask through posix_spawn(), through system() and
 * through popen(), a pthread, and finally exec()s t_pinmask. Each prints its initial mask to
 * stdout with "(original)" or "(CHANGED, ...)": the untraced run prints the original mask
 * everywhere, so any pin leaking into a child makes stdout differ. The masks of the pinned
 * threads themselves differ between the runs and go to SIDE-FILE:
 *     orig L, ncpu N, pid P     main's mask at start, its CPU count, the process id
 *     main_pinned L             main's mask after its first traced calls
 *     thread_pinned L           the pthread's mask after its own traced calls
 *     main_end L                main's mask after starting all the children (still pinned)
 */
#define _GNU_SOURCE
#include "tp.h"
#include "tp_cpu.h"

#include <limits.h>
#include <pthread.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

long sw_add(long a, long b);

static char orig[TP_CPU_LIST_MAX], helper[PATH_MAX];
static char thread_first[TP_CPU_LIST_MAX], thread_pinned[TP_CPU_LIST_MAX];

static long calls(int n)
{
	long sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += sw_add(i, n);
	return sum;
}

static void print_mask(const char *who, const char *list)
{
	if (!strcmp(list, orig))
		printf("%s: %s (original)\n", who, list);
	else
		printf("%s: %s (CHANGED, not %s)\n", who, list, orig);
}

static void wait_ok(pid_t pid, const char *who)
{
	int st;

	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		printf("%s: bad status %#x\n", who, st);
}

static void *thread_main(void *arg)
{
	cpu_set_t set;

	(void)arg;
	tp_cpu_get(&set);
	tp_cpu_list(&set, thread_first);
	printf("pthread: sum %ld\n", calls(100));
	tp_cpu_get(&set);
	tp_cpu_list(&set, thread_pinned);
	return NULL;
}

int main(int argc, char **argv)
{
	char list[TP_CPU_LIST_MAX], cmd[2 * PATH_MAX + 2 * TP_CPU_LIST_MAX],
		line[2 * TP_CPU_LIST_MAX];
	char *spawn_argv[] = { "t_pinmask", "-", "posix_spawn child", orig, NULL };
	cpu_set_t set;
	pthread_t th;
	ssize_t len;
	FILE *side, *p;
	pid_t pid;
	int rc;

	side = tp_side_open(argc, argv, 1);
	len = readlink("/proc/self/exe", helper, sizeof(helper) - 32);
	if (len <= 0) {
		perror("readlink");
		return 1;
	}
	helper[len] = '\0';
	strcpy(strrchr(helper, '/') + 1, "t_pinmask");

	tp_cpu_get(&set);
	fprintf(side, "orig %s\nncpu %d\npid %ld\n", tp_cpu_list(&set, orig), CPU_COUNT(&set),
		(long)getpid());
	printf("main: sum %ld\n", calls(100));
	tp_cpu_get(&set);
	fprintf(side, "main_pinned %s\n", tp_cpu_list(&set, list));
	fflush(side);

	/* fork */
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		return 1;
	}
	if (pid == 0) {
		tp_cpu_get(&set);
		print_mask("fork child", tp_cpu_list(&set, list));
		fflush(stdout);
		_exit(0);
	}
	wait_ok(pid, "fork child");

	/* posix_spawn */
	fflush(stdout);
	rc = posix_spawn(&pid, helper, NULL, NULL, spawn_argv, environ);
	if (rc != 0) {
		printf("posix_spawn: error %d\n", rc);
		return 1;
	}
	wait_ok(pid, "posix_spawn child");

	/* system */
	snprintf(cmd, sizeof(cmd), "'%s' - 'system child' '%s'", helper, orig);
	fflush(stdout);
	rc = system(cmd);
	if (rc != 0)
		printf("system: status %#x\n", rc);

	/* popen */
	snprintf(cmd, sizeof(cmd), "'%s' - 'popen child' '%s'", helper, orig);
	p = popen(cmd, "r");
	if (!p) {
		perror("popen");
		return 1;
	}
	while (fgets(line, sizeof(line), p))
		fputs(line, stdout);
	rc = pclose(p);
	if (rc != 0)
		printf("pclose: status %#x\n", rc);

	/* pthread */
	if (pthread_create(&th, NULL, thread_main, NULL) != 0) {
		perror("pthread_create");
		return 1;
	}
	pthread_join(th, NULL);
	print_mask("pthread (at start)", thread_first);
	fprintf(side, "thread_pinned %s\n", thread_pinned);

	tp_cpu_get(&set);
	fprintf(side, "main_end %s\n", tp_cpu_list(&set, list));
	fclose(side);
	tp_expect(stdout, "sw_add", 200);

	/* exec: the new image must start with the original mask too */
	fflush(stdout);
	execl(helper, "t_pinmask", "-", "exec'd image", orig, (char *)NULL);
	perror(helper);
	return 1;
}
