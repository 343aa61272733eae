/*
 * t_vfork.c SIDE-FILE - vfork under the shim. The child borrows the parent's memory, stack
 * and thread state until it execs or exits: its traced calls must not land in the parent's
 * counts or shadow stack, and it must write no report of its own before exec.
 *   parent: 1000 px_add calls
 *   child 1: 50 px_add calls, then _exit(3)
 *   parent: 500 px_add calls
 *   child 2: execl /bin/true (traced too: it writes its own report under its pid)
 *   child 3: 20 px_add calls, execl of a path that does not exist, then _exit(126)
 *   parent: 200 px_add calls
 * The parent prints each child's status; its expectations go to stdout, the children's pids
 * and its own to SIDE-FILE ("pid <pid>", "true <pid>" for child 2, ...).
 */
#include "tp.h"

#include <sys/wait.h>
#include <unistd.h>

extern unsigned long px_add_count;
long px_add(long a, long b);

static long calls(int n, long k)
{
	long sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += px_add(i, k);
	return sum;
}

static void status(const char *name, pid_t pid)
{
	int st;

	if (pid < 0) {
		perror("vfork");
		exit(1);
	}
	if (waitpid(pid, &st, 0) != pid) {
		perror("waitpid");
		exit(1);
	}
	if (WIFEXITED(st))
		printf("%s: exited with status %d\n", name, WEXITSTATUS(st));
	else
		printf("%s: status %#x\n", name, st);
}

int main(int argc, char **argv)
{
	FILE *side = tp_side_open(argc, argv, 1);
	unsigned long before;
	pid_t pid;

	fprintf(side, "pid %ld\n", (long)getpid());
	printf("parent: sum %ld\n", calls(1000, 1));
	fflush(stdout);

	before = px_add_count;
	pid = vfork();
	if (pid == 0) {
		/* Only vfork-safe things: traced calls through the PLT, then _exit. */
		if (calls(50, 2) != 50 * 49 / 2 + 100)
			_exit(99);
		_exit(3);
	}
	status("child 1 (_exit)", pid);
	printf("child 1 made %lu calls\n", px_add_count - before);
	fprintf(side, "child1 %ld\n", (long)pid);

	printf("parent: sum %ld\n", calls(500, 3));
	fflush(stdout);
	pid = vfork();
	if (pid == 0) {
		execl("/bin/true", "true", (char *)NULL);
		_exit(127);
	}
	status("child 2 (exec /bin/true)", pid);
	fprintf(side, "true %ld\n", (long)pid);

	fflush(stdout);
	before = px_add_count;
	pid = vfork();
	if (pid == 0) {
		calls(20, 4);
		execl("/nonexistent/tsctrace-test", "x", (char *)NULL);
		_exit(126);
	}
	status("child 3 (failed exec)", pid);
	printf("child 3 made %lu calls\n", px_add_count - before);
	fprintf(side, "child3 %ld\n", (long)pid);
	fclose(side);

	printf("parent: sum %ld\n", calls(200, 5));
	/* The children's calls ran in this address space (px_add_count counts them): the
	 * parent's own are 1700. */
	tp_expect(stdout, "px_add", 1700);
	return 0;
}
