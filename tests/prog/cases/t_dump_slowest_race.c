/*
 * t_dump_slowest_race.c - four threads call growing_work with a loop one step longer each
 * time, so that nearly every call is the slowest yet and is kept (TSC_SLOWEST); meanwhile the
 * main thread asks the shim for a report (tsctrace_dump, when preloaded) every 2 ms, DUMPS
 * times (argv[1], default 600), and renames each to d.N.json beside $TSC_OUTPUT.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define THREADS 4

static atomic_int stop;

__attribute__((noinline)) unsigned long growing_work(unsigned long n)
{
	unsigned long x = 0, i;

	for (i = 0; i < n; i++)
		__asm__ volatile("" : "+r"(x) : "r"(i));
	return x;
}

static void *caller(void *arg)
{
	unsigned long n = 1, sum = 0;

	(void)arg;
	while (!atomic_load(&stop))
		sum += growing_work(n++);
	return (void *)sum;
}

int main(int argc, char **argv)
{
	int (*dump)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "tsctrace_dump");
	const char *output = getenv("TSC_OUTPUT");
	int dumps = argc > 1 ? atoi(argv[1]) : 600, i;
	pthread_t t[THREADS];
	char name[64];

	for (i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, caller, NULL) != 0)
			return 1;
	for (i = 0; i < dumps; i++) {
		usleep(2000);
		if (dump && output && dump() == 0) {
			snprintf(name, sizeof(name), "d.%d.json", i);
			rename(output, name);
		}
	}
	atomic_store(&stop, 1);
	for (i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	return 0;
}
