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
 * Start-up, right before the inline hooks' batch (tt_inline_hook_new), whose write takes
 * the jump along (after the batch's stop: no membarrier when the thread is alone; one pool
 * page and seal); then tt_exit_detour_settle. With _exit itself to be hooked, the jump is
 * written here first (that hook then relocates it). False, with one line, when it cannot. */
bool tt_exit_detour_install(void (*before)(void));

/* After the batch that followed tt_exit_detour_install: the jump written on its own if the
 * batch did not take it (no hook made), and one line if it could not be. */
void tt_exit_detour_settle(void);

/* The same later, whatever the hook mode (TSC_HOOK=got too). For daemon() and quick_exit(),
 * which end in libc's _exit, and a program's first thread (two may run exit() at once): the cost (~0.3 ms when the decoder must be mapped) is paid
 * by the process that calls it, not at start-up. Call with the loader lock held. */
bool tt_exit_detour_late(void (*before)(void));

/* Whether the detour was tried already (in, or refused with its line): no lock needed. */
bool tt_exit_detour_tried(void);

#endif /* TT_EXIT_DETOUR_H */
