/*
 * t_basic.c MODE [SIDE-FILE] - a plain program calling strlen (built -fno-builtin-strlen, so
 * through the PLT) and work_add, for the tests of environment handling and report output.
 *   run         1000 strlen calls, print the total, exit 0
 *   exit3       the same, then exit(3)
 *   threadexit  the main thread calls work_add in an endless loop while a second thread
 *               calls strlen 1000 times and then exit(5)
 * SIDE-FILE, when given, receives "pid <getpid()>".
 */
#include "tp.h"

#include <pthread.h>
#include <string.h>
#include <unistd.h>

#define N 1000

long work_add(long a, long b);

static char text[N + 1];

static size_t lengths(void)
{
	size_t total = 0;
	int i;

	for (i = 0; i < N; i++)
		total += strlen(text + i);
	return total;
}

static void *exiter(void *arg)
{
	(void)arg;
	usleep(20000);
	printf("thread: total length %zu\n", lengths());
	tp_expect_min(stdout, "strlen", N);
	tp_expect_min(stdout, "work_add", 1);
	fflush(stdout);
	exit(5);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "run";
	volatile long sink = 0;
	pthread_t th;

	memset(text, 'a' + (int)(strlen(mode) % 26), N);
	if (argc > 2) {
		FILE *side = tp_side_open(argc, argv, 2);

		fprintf(side, "pid %ld\n", (long)getpid());
		fclose(side);
	}
	if (strcmp(mode, "threadexit") == 0) {
		long i;

		if (pthread_create(&th, NULL, exiter, NULL) != 0) {
			perror("pthread_create");
			return 1;
		}
		for (i = 0;; i++)
			sink += work_add(i, 1);
	}
	printf("total length %zu\n", lengths());
	tp_expect_min(stdout, "strlen", N);
	if (strcmp(mode, "exit3") == 0) {
		fflush(stdout);
		exit(3);
	}
	return 0;
}
