/*
 * t_rlimit_as.c - a program that caps its address space (RLIMIT_AS) at its size after
 * start-up plus 1 MiB, then calls work_add 1,000 times in the main thread and work_leaf
 * 1,000 times in a thread started with a 64 KiB stack. Neither leaves room for a thread
 * block of the shim's (2 MiB, aligned like one: 4 MiB mapped): the main thread's must come
 * from what the shim set aside at start-up, and the thread's calls can only be counted.
 */
#include "tp.h"

#include <pthread.h>
#include <string.h>
#include <sys/resource.h>

#define NCALLS 1000

long work_add(long a, long b);
long work_leaf(long x);

/* VmSize of /proc/self/status, in KiB; -1 if not found. */
static long vm_size_kib(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	long kib = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "VmSize:", 7) == 0)
			kib = strtol(line + 7, NULL, 10);
	fclose(f);
	return kib;
}

static void *leaf_calls(void *arg)
{
	long sum = 0;
	int i;

	for (i = 0; i < NCALLS; i++)
		sum += work_leaf(i);
	*(long *)arg = sum;
	return NULL;
}

int main(void)
{
	long kib = vm_size_kib(), sum = 0, leaf_sum = 0;
	struct rlimit cap = { RLIM_INFINITY, RLIM_INFINITY };
	pthread_attr_t attr;
	pthread_t t;
	int i;

	if (kib <= 0 || pthread_attr_init(&attr) != 0 ||
	    pthread_attr_setstacksize(&attr, 64 << 10) != 0) {
		fprintf(stderr, "setup failed\n");
		return 2;
	}
	cap.rlim_cur = (rlim_t)kib * 1024 + (1 << 20);
	if (setrlimit(RLIMIT_AS, &cap) != 0) {
		perror("setrlimit");
		return 2;
	}
	for (i = 0; i < NCALLS; i++)
		sum = work_add(sum, i);
	if (pthread_create(&t, &attr, leaf_calls, &leaf_sum) != 0 || pthread_join(t, NULL) != 0) {
		fprintf(stderr, "no thread under the cap\n");
		return 2;
	}
	printf("sum %ld leaf sum %ld\n", sum, leaf_sum);
	tp_expect(stdout, "work_add", NCALLS);
	tp_expect(stdout, "work_leaf", NCALLS);
	return 0;
}
