/*
 * t_export.c DIR SIDE-FILE exit|_exit - TSC_EXPORT: the metrics file rewritten while the
 * program runs, and once more at its end.
 *   3 threads make 20 batches of 1000 px_add calls each, 25 ms apart (about half a second);
 *   meanwhile the main thread copies DIR/m.prom each time it changes into DIR/snap.N (at
 *   most 200; only in the traced run, where TSC_EXPORT is set). Half way, a fork child makes
 *   777 calls and _exits (it must not write DIR/m.prom). Then px_add calls from the main
 *   thread, and the end: return from main, or _exit(0).
 * stdout is what both runs compute alike; the number of snapshots and the pids go to
 * SIDE-FILE.
 */
#define _GNU_SOURCE
#include "tp.h"

#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define THREADS 3
#define BATCHES 20
#define BATCH 1000
#define CHILD_CALLS 777
#define MAIN_CALLS 500
#define MAX_SNAPS 200

extern unsigned long px_add_count;
long px_add(long a, long b);

static const char *dir;
static int done;

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static void *worker(void *arg)
{
	long sum = 0;
	int b, i;

	for (b = 0; b < BATCHES; b++) {
		for (i = 0; i < BATCH; i++)
			sum += px_add(i, b);
		sleep_ms(25);
	}
	*(long *)arg = sum;
	return NULL;
}

/* The whole of a small file into buf (NUL-terminated); its length, or -1. */
static long slurp(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	long n = 0, r;

	if (fd < 0)
		return -1;
	while (n < (long)size - 1 && (r = read(fd, buf + n, size - 1 - (size_t)n)) > 0)
		n += r;
	close(fd);
	buf[n] = 0;
	return n;
}

/* Copies of DIR/m.prom each time it differs from the last one copied. */
static int snapshots(void)
{
	static char cur[1 << 16], last[1 << 16];
	char path[4096], snap[4096];
	int n = 0;

	snprintf(path, sizeof(path), "%s/m.prom", dir);
	last[0] = 0;
	while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE) && n < MAX_SNAPS) {
		long len = slurp(path, cur, sizeof(cur));

		if (len > 0 && strcmp(cur, last)) {
			FILE *f;

			snprintf(snap, sizeof(snap), "%s/snap.%03d", dir, n++);
			f = fopen(snap, "w");
			if (f) {
				fputs(cur, f);
				fclose(f);
			}
			memcpy(last, cur, (size_t)len + 1);
		}
		sleep_ms(5);
	}
	return n;
}

static void *watcher(void *arg)
{
	*(int *)arg = snapshots();
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[THREADS], w;
	long sums[THREADS], total = 0;
	int i, nsnap = 0, st = 0, traced;
	FILE *side;
	pid_t pid;

	if (argc < 4) {
		fprintf(stderr, "usage: t_export DIR SIDE-FILE exit|_exit\n");
		return 2;
	}
	dir = argv[1];
	side = tp_side_open(argc, argv, 2);
	traced = getenv("TSC_EXPORT") != NULL;
	if (traced && pthread_create(&w, NULL, watcher, &nsnap) != 0)
		return 1;
	for (i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, worker, &sums[i]) != 0)
			return 1;
	sleep_ms(BATCHES * 25 / 2);
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		for (i = 0; i < CHILD_CALLS; i++)
			px_add(i, 1);
		/* The child's report is written at _exit; its export must not be, but for %p.
		 * Not exit(): under ASan, LeakSanitizer would check a child whose parent's
		 * threads it cannot stop, with a varying number of lines on stderr. */
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
		printf("child: bad status %#x\n", st);
		return 1;
	}
	for (i = 0; i < THREADS; i++) {
		pthread_join(t[i], NULL);
		total += sums[i];
	}
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	if (traced)
		pthread_join(w, NULL);
	for (i = 0; i < MAIN_CALLS; i++)
		total += px_add(i, 2);
	printf("sum %ld\n", total);
	fprintf(side, "snapshots %d\npid %ld\nchild %ld\n", nsnap, (long)getpid(), (long)pid);
	fclose(side);
	tp_expect(stdout, "px_add", px_add_count);
	fflush(stdout);
	if (!strcmp(argv[3], "_exit"))
		_exit(0);
	return 0;
}
