/*
 * t_kids.c SIDE-FILE - starts t_basic (the program beside it) in every way a program starts
 * another, one after the other, each waited for: fork + execv, vfork + execve, posix_spawn,
 * posix_spawnp, system, popen; then a fork child that only calls work_add and exits; and
 * finally exec()s t_basic itself (the same process going on). stdout collects what the
 * children print. SIDE-FILE receives "pid P" (this process, and the last t_basic's).
 */
#define _GNU_SOURCE
#include "tp.h"

#include <limits.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

long work_add(long a, long b);

static char helper[PATH_MAX];

static void wait_ok(pid_t pid, const char *who)
{
	int st;

	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		printf("%s: failed\n", who);
}

/* Its own function: nothing of main's frame lives across the vfork. */
__attribute__((noinline)) static pid_t vfork_exec(char **kid_argv)
{
	pid_t pid = vfork();

	if (pid == 0) {
		execve(helper, kid_argv, environ);
		_exit(127);
	}
	return pid;
}

int main(int argc, char **argv)
{
	char *kid_argv[] = { "t_basic", "run", NULL };
	char cmd[PATH_MAX + 16], line[256];
	ssize_t len;
	FILE *side, *p;
	pid_t pid;
	long sum = 0;
	int i;

	side = tp_side_open(argc, argv, 1);
	fprintf(side, "pid %ld\n", (long)getpid());
	fclose(side);
	len = readlink("/proc/self/exe", helper, sizeof(helper) - 16);
	if (len <= 0)
		return 1;
	helper[len] = '\0';
	strcpy(strrchr(helper, '/') + 1, "t_basic");
	for (i = 0; i < 100; i++)
		sum += work_add(i, 1);
	printf("main: sum %ld\n", sum);

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		execv(helper, kid_argv);
		_exit(127);
	}
	wait_ok(pid, "fork + execv");

	fflush(stdout);
	wait_ok(vfork_exec(kid_argv), "vfork + execve");

	fflush(stdout);
	if (posix_spawn(&pid, helper, NULL, NULL, kid_argv, environ) != 0)
		pid = -1;
	wait_ok(pid, "posix_spawn");
	if (posix_spawnp(&pid, helper, NULL, NULL, kid_argv, environ) != 0)
		pid = -1;
	wait_ok(pid, "posix_spawnp");

	snprintf(cmd, sizeof(cmd), "'%s' run", helper);
	if (system(cmd) != 0)
		printf("system: failed\n");
	fflush(stdout);
	p = popen(cmd, "r");
	if (!p)
		return 1;
	while (fgets(line, sizeof(line), p))
		fputs(line, stdout);
	if (pclose(p) != 0)
		printf("popen: failed\n");

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		for (i = 0; i < 100; i++)
			sum += work_add(i, 2);
		printf("fork child: sum %ld\n", sum);
		exit(0);
	}
	wait_ok(pid, "fork child");

	fflush(stdout);
	execv(helper, kid_argv);
	perror("execv");
	return 1;
}
