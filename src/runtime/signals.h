/*
 * signals.h - the report at a fatal signal, and TSC_DUMP_SIGNAL.
 */
#ifndef TT_SIGNALS_H
#define TT_SIGNALS_H

#include <signal.h>
#include <stdbool.h>

/*
 * For SIGTERM, SIGINT, SIGHUP and SIGABRT left at their default action: catch them, write the
 * report, then die of the same signal as the program would have. For dump_signal (0: none):
 * write the report so far from a helper thread and go on. `report` writes the report (0 on
 * success).
 */
void tt_signals_start(int dump_signal, int (*report)(void));

/* In a fork child: the dump helper thread did not come along; start another. */
void tt_signals_after_fork_child(void);

/* For the shim's own threads, which never leave the shim: every signal the program could be
 * sent (all but the faults and the real-time ones) is blocked, so that it goes to a thread of
 * the program, as without us: the fatal ones' handler writes the report, and a runtime's
 * handler may end the process on a thread it does not know. */
void tt_signals_block_for_shim_thread(void);

/* Around the creation of a shim thread, in its creator: the thread starts with these
 * signals blocked (a new thread inherits the mask), so no process-directed signal can pick
 * it before it blocks them itself. Returns the mask to restore. */
uint64_t tt_signals_block_before_shim_thread(void);
void tt_signals_restore_after_shim_thread(uint64_t old);

/* For sigaction.c: the shim's handler standing in for sig's default action (and the
 * flags it is installed with), or NULL when the shim manages no handler for sig. */
void (*tt_signals_stand_in(int sig, int *flags))(int);

/* For sigaction.c's handler in front of the program's: sig reached the program's handler;
 * if it is the dump signal, the report is written too (the dump chained, not replaced). */
void tt_signals_dump_requested(int sig);

/* For sigaction.c: the program had the kernel install kernel_handler for sig (SIG_IGN for the
 * dump signal is told in a line: no dump on it from then on). */
void tt_signals_program_installed(int sig, const void *kernel_handler);

/* With each report: a line (once) if the dump signal's handler was replaced behind
 * sigaction, by a runtime that calls the system call itself. */
void tt_signals_check_dump(void);

/* True if h is one of the shim's handlers. */
bool tt_signals_ours(sighandler_t h);

/* What the program is shown for a signal where the shim's handler stands in for SIG_DFL:
 * SIG_DFL with the flags and mask it last gave (the kernel's normalised form). */
struct sigaction *tt_signals_shown(int sig);

#endif /* TT_SIGNALS_H */
