/*
 * signals.h - the report at a fatal signal, and TSC_DUMP_SIGNAL.
 */
#ifndef TT_SIGNALS_H
#define TT_SIGNALS_H

/*
 * For SIGTERM, SIGINT and SIGHUP left at their default action: catch them, write the report,
 * then die of the same signal as the program would have. For dump_signal (0: none): write the
 * report so far from a helper thread and go on. `report` writes the report (0 on success).
 */
void tt_signals_start(int dump_signal, int (*report)(void));

/* In a fork child: the dump helper thread did not come along; start another. */
void tt_signals_after_fork_child(void);

#endif /* TT_SIGNALS_H */
