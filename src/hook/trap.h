/*
 * trap.h - the trap route: functions too short for the inline jump get an int3 over their
 * first instruction (after an endbr64), and the shim's SIGTRAP handler sends each such trap
 * into the function's pool slot, which leads to the trampoline as an inline hook's jump does.
 *
 * While any trap is armed, SIGTRAP's handler in the kernel is the shim's: the program's own
 * disposition is kept here (wrap/sigaction.c records and reports it) and the handler passes
 * every trap that is not the shim's to it, or dies of it as the program would have.
 */
#ifndef TT_TRAP_H
#define TT_TRAP_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

/* Send traps at `at` (the int3's address) to `to`. 0, or -1 when no memory. */
int tt_trap_add(const uint8_t *at, void *to);

/* Forget the trap at `at` (its object was unloaded, or the int3 was never written). */
void tt_trap_remove(const uint8_t *at);

/* Take SIGTRAP over (once): the kernel's disposition until now becomes the program's. 0, or
 * -1 (the handler could not be installed). */
int tt_trap_arm(void);

/* Write the int3 at `at`, in a segment of protection prot. 0 or -errno. */
int tt_trap_write(uint8_t *at, int prot);

/* Inline hooks are on, so traps may be armed from now on (the program's masks must keep
 * SIGTRAP unblocked: wrap/sigmask.c asks, also from a sanitizer runtime's start-up). */
void tt_trap_allow(void);
bool tt_trap_possible(void);

/* True once the shim's SIGTRAP handler is installed. */
bool tt_trap_owned(void);

/* SIGTRAP's disposition as the program set it, kept while the shim's handler is installed. */
void tt_trap_program(struct sigaction *act);
void tt_trap_set_program(const struct sigaction *act);

#endif /* TT_TRAP_H */
