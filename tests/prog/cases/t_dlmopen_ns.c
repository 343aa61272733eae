/*
 * t_dlmopen_ns.c [lazy] - loads libdlmns.so (beside this program) into a new link-map
 * namespace with dlmopen(LM_ID_NEWLM) (RTLD_NOW, or RTLD_LAZY) and calls dlmns_step 1,001
 * times: 500 through a dlsym pointer, 501 from the library's own dlmns_run (through its
 * PLT). Prints the count the library kept, then has the library use its own libc's heap
 * (dlmns_heap: 100 malloc and free), and dlcloses it.
 */
#define _GNU_SOURCE
#include "tp.h"

#include <dlfcn.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#define N_POINTER 500
#define N_RUN 501

int main(int argc, char **argv)
{
	int mode = argc > 1 && strcmp(argv[1], "lazy") == 0 ? RTLD_LAZY : RTLD_NOW;
	char path[PATH_MAX];
	long (*step)(long), (*run)(long), (*heap)(long), sum = 0, i;
	unsigned long *calls;
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 32);
	char *slash;
	void *h;

	if (n <= 0 || !(slash = memrchr(path, '/', (size_t)n)))
		return 2;
	strcpy(slash + 1, "libdlmns.so");
	h = dlmopen(LM_ID_NEWLM, path, mode);
	if (!h) {
		printf("dlmopen failed: %s\n", dlerror());
		return 2;
	}
	*(void **)&step = dlsym(h, "dlmns_step");
	*(void **)&run = dlsym(h, "dlmns_run");
	*(void **)&heap = dlsym(h, "dlmns_heap");
	calls = dlsym(h, "dlmns_calls");
	if (!step || !run || !heap || !calls) {
		printf("dlsym failed: %s\n", dlerror());
		return 2;
	}
	for (i = 0; i < N_POINTER; i++)
		sum += step(i);
	sum += run(N_RUN);
	printf("sum %ld, the library counted %lu calls\n", sum, *calls);
	printf("heap sum %ld\n", heap(100));
	tp_expect(stdout, "dlmns_step", N_POINTER + N_RUN);
	return dlclose(h) == 0 ? 0 : 2;
}
