/*
 * exit_detour.h - running a function before libc's own _exit, whoever calls it (libc
 * included: daemon(), a failed posix_spawn child).
 */
#ifndef TT_EXIT_DETOUR_H
#define TT_EXIT_DETOUR_H

#include <stdbool.h>

/* Patch libc's _exit entry so that every call runs before() first (with inline hooks
 * possible: Zydis loaded, TSC_HOOK not got). Start-up, before inline hooks are written (one
 * on _exit itself then relocates this detour's jump). False, with one line, when it cannot. */
bool tt_exit_detour_install(void (*before)(void));

#endif /* TT_EXIT_DETOUR_H */
