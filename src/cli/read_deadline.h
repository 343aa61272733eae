/*
 * read_deadline.h - a bound on the time the command waits on a file a report named. A
 * regular file can still block: on a hung network file system an open or read waits in the
 * kernel, where no signal but a fatal one reaches it (a SIGALRM handler would never run). So
 * a watchdog thread keeps the time, and when a wait outlasts TT_READ_DEADLINE_S it prints one
 * line naming the file and ends the command with status 2 (_exit: the threads, the stuck one
 * too, are killed): a bounded wait, then a line, never a hang.
 */
#ifndef TT_CLI_READ_DEADLINE_H
#define TT_CLI_READ_DEADLINE_H

/* Reading one object's symbols and lines takes milliseconds; 10 s is a file that does not
 * answer. */
#define TT_READ_DEADLINE_S 10

/* From now, at most TT_READ_DEADLINE_S seconds for what follows (reading about path), until
 * tt_read_deadline_stop. Without a watchdog thread (none could start), no bound. */
void tt_read_deadline_start(const char *path);

void tt_read_deadline_stop(void);

#endif /* TT_CLI_READ_DEADLINE_H */
