/*
 * t_fork.c parent SIDE-FILE - fork, _exit and exec under the shim:
 *   parent: 1000 work_add calls, then a child that calls work_add 300 times and exits, a child
 *   that calls it 200 times and leaves with _exit, then exec of t_fork_exec (a hard link to
 *   this program, so that %e differs) in mode "stage2", which calls it 700 times.
 * Each process image writes its own report (pre-exec image included) counting only its own
 * calls. Children and the exec'd image print how many CPUs they may run on, which must equal
 * the untraced run's: a pin taken by the shim in the parent must not leak into them.
 * SIDE-FILE receives the pids.
 */
#define _GNU_SOURCE
#include "tp.h"

#include <limits.h>
#include <sched.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

long work_add(long a, long b);

static long calls(int n)
{
	long sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += work_add(i, n);
	return sum;
}

static int cpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return -1;
	return CPU_COUNT(&set);
}

static pid_t child(int n, int use_exit)
{
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(1);
	}
	if (pid > 0) {
		int st;

		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
			printf("child %d: bad status %#x\n", n, st);
		return pid;
	}
	printf("child %d: %d cpus allowed\n", n, cpus());
	printf("child %d: sum %ld\n", n, calls(n));
	fflush(stdout);
	if (use_exit)
		exit(0);
	_exit(0);
}

int main(int argc, char **argv)
{
	char path[PATH_MAX], *slash;
	FILE *side;
	pid_t c1, c2;
	ssize_t len;

	if (argc > 1 && strcmp(argv[1], "stage2") == 0) {
		printf("stage2: %d cpus allowed\n", cpus());
		printf("stage2: sum %ld\n", calls(700));
		return 0;
	}
	side = tp_side_open(argc, argv, 2);
	printf("parent: sum %ld\n", calls(1000));
	c1 = child(300, 1);
	c2 = child(200, 0);
	fprintf(side, "pid %ld\nchild1 %ld\nchild2 %ld\n", (long)getpid(), (long)c1, (long)c2);
	fclose(side);

	len = readlink("/proc/self/exe", path, sizeof(path) - 32);
	if (len <= 0) {
		perror("readlink");
		return 1;
	}
	path[len] = '\0';
	slash = strrchr(path, '/');
	strcpy(slash + 1, "t_fork_exec");
	fflush(stdout);
	execl(path, "t_fork_exec", "stage2", (char *)NULL);
	perror(path);
	return 1;
}
