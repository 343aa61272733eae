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

/* The same later, whatever the hook mode (TSC_HOOK=got too): the decoder loaded first if no
 * inline hook loaded it. For daemon(), whose parent leaves through libc's _exit: the cost
 * (~0.2 ms, mostly mapping libZydis) is paid by the process that calls it, not at start-up.
 * Call with the loader lock held. */
bool tt_exit_detour_late(void (*before)(void));

#endif /* TT_EXIT_DETOUR_H */
