/*
 * exit_detour.h - running a function before libc's own _exit, whoever calls it (libc
 * included: daemon(), a failed posix_spawn child).
 */
#ifndef TT_EXIT_DETOUR_H
#define TT_EXIT_DETOUR_H

#include <stdbool.h>

/* Patch libc's _exit entry so that every call runs before() first (with inline hooks
 * possible: TSC_HOOK not got). Its relocation plan is the one an earlier run kept
 * (hook/plan_cache.h), else made with the decoder, loaded here if no inline hook did yet.
 * Start-up, before inline hooks are written (one on _exit itself then relocates this
 * detour's jump). False, with one line, when it cannot. */
bool tt_exit_detour_install(void (*before)(void));

/* The same later, whatever the hook mode (TSC_HOOK=got too). For daemon(), whose parent
 * leaves through libc's _exit: the cost (~0.3 ms when the decoder must be mapped) is paid
 * by the process that calls it, not at start-up. Call with the loader lock held. */
bool tt_exit_detour_late(void (*before)(void));

#endif /* TT_EXIT_DETOUR_H */
