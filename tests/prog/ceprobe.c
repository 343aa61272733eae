/*
 * ceprobe.c - libceprobe.so: ce_probe() records the names of the functions on its call stack
 * (backtrace, then dladdr: the program is linked with -rdynamic), ce_probe_saw(name) says
 * whether the last probe saw name. Called as the first instruction of functions whose entry
 * is patched inline with the call moved into the pool: the backtrace must still show them.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <string.h>

#define DEPTH 32

static const char *seen[DEPTH];
static int nseen;

void ce_probe(void)
{
	void *frames[DEPTH];
	int i, n = backtrace(frames, DEPTH);

	nseen = 0;
	for (i = 0; i < n; i++) {
		Dl_info info;

		if (dladdr(frames[i], &info) && info.dli_sname)
			seen[nseen++] = info.dli_sname;
	}
}

int ce_probe_saw(const char *name)
{
	int i;

	for (i = 0; i < nseen; i++)
		if (strcmp(seen[i], name) == 0)
			return 1;
	return 0;
}
