/*
 * report_kin.h - what a file found at the report's name is: not a report, a report of an
 * earlier run, or a report of this run (which must never be replaced).
 */
#ifndef TT_REPORT_KIN_H
#define TT_REPORT_KIN_H

#include <stdint.h>
#include <sys/stat.h>

enum tt_kin { TT_KIN_FOREIGN, TT_KIN_OLDER, TT_KIN_THIS_RUN };

/*
 * fd is open for reading on a regular file, st its fstat. *pid receives the writer's pid
 * when the file is a report (0 when it does not say). since_ns: a CLOCK_REALTIME time at
 * which this run had surely begun (this image's start-up), or 0: a report written after it
 * (less the margin) is of this run without asking /proc. Reads the file and /proc; raw
 * system calls and static buffers only (one report is written at a time).
 */
enum tt_kin tt_runtime_report_kin(int fd, const struct stat *st, int64_t *pid, uint64_t since_ns);

#endif /* TT_REPORT_KIN_H */
