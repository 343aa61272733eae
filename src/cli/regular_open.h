/*
 * regular_open.h - open a file whose path a report named (an object the program loaded, a
 * debug file found from one) for reading, only when it is a regular file. A report is input:
 * its path may name a FIFO, which a plain open() waits on forever, a device that never ends
 * (/dev/zero) or a directory.
 */
#ifndef TT_CLI_REGULAR_OPEN_H
#define TT_CLI_REGULAR_OPEN_H

/*
 * A descriptor of path (O_RDONLY, O_CLOEXEC), or -1: silently when path cannot be opened
 * (missing, not readable: as when the file is gone), after one "tsctrace:" line naming path
 * and what it is when it is anything but a regular file (once per path). The open itself never waits for a
 * writer (O_NONBLOCK) and never makes a terminal the command's (O_NOCTTY).
 */
int tt_open_regular(const char *path);

#endif /* TT_CLI_REGULAR_OPEN_H */
