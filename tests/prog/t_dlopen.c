/*
 * t_dlopen.c MODE - load libplugin.so with dlopen and call its functions through dlsym
 * pointers (plugin_outer also calls plugin_inner through the plugin's PLT). MODE:
 *   now      dlopen(<dir of this program>/libplugin.so, RTLD_NOW)
 *   lazy     the same with RTLD_LAZY
 *   runpath  dlopen("libplugin.so", RTLD_NOW): found only through this program's RUNPATH
 *            ($ORIGIN), which glibc takes from the object calling dlopen
 *   reload   RTLD_NOW, dlclose, dlopen again, call again
 *   moved    like reload, but another library is loaded in between and kept, so the plugin
 *            usually comes back at another address: the shim must not send its calls to
 *            the stale address of the first load
 * Also calls work_add (libwork.so, loaded at start) through a dlsym(RTLD_DEFAULT) pointer and
 * through the PLT.
 */
#include "tp.h"

#include <dlfcn.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#define N_INNER 3000
#define N_OUTER 2000
#define N_WORK 1500

long work_add(long a, long b);

static int round_trip(const char *path, int flags, unsigned long *inner_calls,
		      unsigned long *outer_calls)
{
	long (*inner)(long), (*outer)(long);
	unsigned long *ic, *oc;
	long sum = 0, i;
	void *h;

	h = dlopen(path, flags);
	if (!h) {
		printf("dlopen(%s) failed: %s\n", path, dlerror());
		return -1;
	}
	*(void **)&inner = dlsym(h, "plugin_inner");
	*(void **)&outer = dlsym(h, "plugin_outer");
	ic = dlsym(h, "plugin_inner_count");
	oc = dlsym(h, "plugin_outer_count");
	if (!inner || !outer || !ic || !oc) {
		printf("dlsym failed: %s\n", dlerror());
		return -1;
	}
	*ic = *oc = 0;
	for (i = 0; i < N_INNER; i++)
		sum += inner(i);
	for (i = 0; i < N_OUTER; i++)
		sum += outer(i);
	printf("plugin sum %ld, plugin counted inner %lu outer %lu\n", sum, *ic, *oc);
	*inner_calls += *ic;
	*outer_calls += *oc;
	if (dlclose(h) != 0) {
		printf("dlclose failed: %s\n", dlerror());
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "now";
	unsigned long inner_calls = 0, outer_calls = 0;
	char path[PATH_MAX];
	long (*wa)(long, long);
	long sum = 0, i;
	ssize_t n;
	char *slash;
	int flags = RTLD_NOW, rounds = 1, r;

	n = readlink("/proc/self/exe", path, sizeof(path) - 32);
	if (n <= 0) {
		perror("readlink");
		return 1;
	}
	path[n] = '\0';
	slash = strrchr(path, '/');
	strcpy(slash + 1, "libplugin.so");
	if (strcmp(mode, "lazy") == 0)
		flags = RTLD_LAZY;
	else if (strcmp(mode, "runpath") == 0)
		strcpy(path, "libplugin.so");
	else if (strcmp(mode, "reload") == 0 || strcmp(mode, "moved") == 0)
		rounds = 2;
	else if (strcmp(mode, "now") != 0) {
		fprintf(stderr, "unknown mode %s\n", mode);
		return 2;
	}

	for (r = 0; r < rounds; r++) {
		if (r == 1 && strcmp(mode, "moved") == 0) {
			char other[PATH_MAX];

			strcpy(other, path);
			strcpy(strrchr(other, '/') + 1, "libtorture.so");
			if (!dlopen(other, RTLD_NOW | RTLD_LOCAL)) {
				printf("dlopen(libtorture.so) failed: %s\n", dlerror());
				return 1;
			}
		}
		if (round_trip(path, flags, &inner_calls, &outer_calls) < 0)
			return 1;
	}

	*(void **)&wa = dlsym(RTLD_DEFAULT, "work_add");
	if (!wa) {
		printf("dlsym(work_add) failed: %s\n", dlerror());
		return 1;
	}
	for (i = 0; i < N_WORK; i++)
		sum += wa(i, 1) + work_add(i, 2);
	printf("work sum %ld\n", sum);

	tp_expect(stdout, "plugin_inner", inner_calls);
	tp_expect(stdout, "plugin_outer", outer_calls);
	tp_expect(stdout, "work_add", 2 * N_WORK);
	return 0;
}
