/*
 * stopfloor.c - the floor of holding a running process's threads still: `stopfloor PID`
 * seizes every thread of PID with PTRACE_SEIZE + PTRACE_INTERRUPT (all asked first, then all
 * waited for), lets them all go (PTRACE_DETACH), and prints the milliseconds from the first
 * seize to the last detach. Nothing else is done: what the kernel and the scheduler take to
 * get CPU-bound threads to a stop on this machine, which any stop of the world pays (the
 * attach row compares the time tsctrace attach held the threads with it).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>

#define MAX_THREADS 256

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	int tids[MAX_THREADS], sigs[MAX_THREADS] = { 0 }, n = 0, i, status;
	char path[64];
	struct dirent *e;
	double t0;
	DIR *d;

	if (argc != 2) {
		fprintf(stderr, "usage: stopfloor PID\n");
		return 2;
	}
	snprintf(path, sizeof(path), "/proc/%s/task", argv[1]);
	d = opendir(path);
	while (d && (e = readdir(d)) != NULL && n < MAX_THREADS)
		if (atoi(e->d_name) > 0)
			tids[n++] = atoi(e->d_name);
	if (d)
		closedir(d);
	if (!n) {
		fprintf(stderr, "stopfloor: no process %s\n", argv[1]);
		return 1;
	}
	t0 = now_ms();
	for (i = 0; i < n; i++)
		if (ptrace(PTRACE_SEIZE, tids[i], 0, 0) < 0 ||
		    ptrace(PTRACE_INTERRUPT, tids[i], 0, 0) < 0) {
			perror("stopfloor: ptrace");
			tids[i] = 0;
		}
	for (i = 0; i < n; i++)
		if (tids[i] && waitpid(tids[i], &status, __WALL) != tids[i])
			tids[i] = 0;
		else if (tids[i] && (status >> 16) != PTRACE_EVENT_STOP)
			sigs[i] = WSTOPSIG(status); /* a signal on its way: handed back */
	for (i = 0; i < n; i++)
		if (tids[i])
			ptrace(PTRACE_DETACH, tids[i], 0, (void *)(long)sigs[i]);
	printf("%.2f\n", now_ms() - t0);
	return 0;
}
