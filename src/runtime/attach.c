/*
 * attach.c - the two functions `tsctrace attach` calls in a running process, by borrowing
 * one of its threads (src/cli/inject.c), after it loaded the shim with libc's dlopen.
 *
 * The constructor ran inside that dlopen with an environment holding no TSC_* variable (the
 * injector points `environ` at an empty one meanwhile), so it stayed off whatever the
 * target's own environment says. tt_attach_start hands over the settings and starts; the
 * other threads run meanwhile, and are held still only while entries are written
 * (hook/stop.c). tt_attach_stop writes the report and gives every entry back its bytes.
 */
#include <stddef.h>
#include <string.h>

#include "hook/stop.h"
#include "runtime/attach.h"
#include "runtime/lifecycle.h"

/* Why the last call failed, for the injector to read (its address is the result's). */
static char attach_why[256];

/* The number of functions hooked (>= 0), the names of those found but not hooked (so not
 * traced) at tt_attach_why(); or -1, the reason there. */
__attribute__((visibility("default"))) int tt_attach_start(char *const *env)
{
	attach_why[0] = 0;
	if (!env) {
		strcpy(attach_why, "no settings given");
		return -1;
	}
	return tt_lifecycle_attach(env, attach_why, sizeof(attach_why));
}

/* 0; -1 (entries not written back: still traced) or -2 (report not written where asked),
 * the reason at tt_attach_why(). */
__attribute__((visibility("default"))) int tt_attach_stop(void)
{
	attach_why[0] = 0;
	return tt_lifecycle_detach(attach_why, sizeof(attach_why));
}

__attribute__((visibility("default"))) unsigned long long tt_attach_held_ns(void)
{
	return tt_stop_held_ns();
}

__attribute__((visibility("default"))) const char *tt_attach_why(void)
{
	return attach_why;
}
